"""Every Sudoku viewpoint x backend x heuristic solves small Sudokus, as the checker says."""

from __future__ import annotations

import pytest

from experiments.campaign.solving import solve
from puzzles.sudoku import SudokuInstance, load, read
from solvers import BACKENDS
from tests.grid import Cell, assert_solves, grid, params, refused_as_declared
from tests.paths import SUDOKU_DATA

SMALL = read(SUDOKU_DATA / "small_4x4.txt")
EASY = read(SUDOKU_DATA / "easy_9x9.txt")
CELLS = grid("sudoku")


@pytest.mark.parametrize("cell", params(CELLS))
def test_small_4x4(cell: Cell) -> None:
    assert_solves(cell, SMALL)


@pytest.mark.parametrize("cell", params(CELLS))
def test_easy_9x9(cell: Cell) -> None:
    assert_solves(cell, EASY[:1])


@pytest.mark.slow
@pytest.mark.parametrize("cell", params(CELLS))
def test_every_easy_9x9(cell: Cell) -> None:
    assert_solves(cell, EASY[1:])


@pytest.mark.parametrize(("puzzle", "expected"), [(1, 2), (2, 12), (3, 24), (4, 288)])
@pytest.mark.parametrize("viewpoint", ["classic", "value-position", "channeled", "boolean"])
@pytest.mark.parametrize("backend", BACKENDS.names())
def test_solution_counts_agree(puzzle: int, expected: int, viewpoint: str, backend: str) -> None:
    instance = load(SUDOKU_DATA / "multi_4x4.txt", puzzle)
    if refused_as_declared("sudoku", instance, viewpoint, backend):
        return
    run = solve(instance, viewpoint=viewpoint, solver=backend, heuristic="input/min",
                max_solutions=0, time_limit=60)
    assert run.result.complete
    assert run.result.statistics.solutions == expected
    assert run.violations == ()


COURSE = [instance for instance in read(SUDOKU_DATA / "kul_named_9x9.txt")][:14]


@pytest.mark.parametrize("instance", COURSE, ids=lambda instance: instance.name)
def test_course_puzzles_are_unique(instance: SudokuInstance) -> None:
    run = solve(instance, viewpoint="classic", solver="cp", heuristic="first-fail/min",
                options={"alldiff": "strong"}, max_solutions=0, time_limit=60)
    assert run.result.complete and run.result.statistics.solutions == 1
    assert run.solution == instance.known_solution


def test_propagation_alone_needs_no_backtrack() -> None:
    run = solve(EASY[0], viewpoint="classic", solver="cp", heuristic="input/min",
                options={"alldiff": "strong"})
    assert run.correct and run.result.statistics.backtracks == 0


def test_first_fail_beats_input_order_on_some_course_puzzle() -> None:
    fewer = []
    for instance in COURSE:
        counts = {}
        for heuristic in ("input/min", "first-fail/min"):
            run = solve(instance, viewpoint="classic", solver="cp", heuristic=heuristic,
                        time_limit=60)
            assert run.correct
            counts[heuristic] = run.result.statistics.backtracks
        fewer.append(counts["first-fail/min"] < counts["input/min"])
    assert any(fewer)


TOP95 = read(SUDOKU_DATA / "norvig_top95.txt")
LARGE = read(SUDOKU_DATA / "kul_16x16.txt") + read(SUDOKU_DATA / "kul_25x25.txt")


# CP-SAT 9.15's presolve called these unsatisfiable when ``inverse`` was posted as its
# add_inverse (docs/solver-bugs.md); the backend now posts it as element channels
@pytest.mark.parametrize("instance", [TOP95[0], TOP95[16], TOP95[22], *LARGE],
                         ids=lambda instance: instance.name)
@pytest.mark.parametrize("search", ["cells", "positions"])
def test_channeled_inverse_on_cpsat_auto(instance: SudokuInstance, search: str) -> None:
    run = solve(instance, viewpoint="channeled", solver="cpsat", heuristic="auto",
                options={"search": search}, time_limit=60)
    assert run.correct
    assert run.solution == instance.known_solution


@pytest.mark.parametrize("viewpoint", ["classic", "value-position", "channeled", "boolean"])
@pytest.mark.parametrize("instance", LARGE, ids=lambda instance: instance.name)
def test_large_sudokus(viewpoint: str, instance: SudokuInstance) -> None:
    run = solve(instance, viewpoint=viewpoint, solver="cpsat", heuristic="auto", time_limit=60)
    assert run.correct
    assert run.solution == instance.known_solution
