"""The ``minizinc`` backend: MiniZinc's figures under our names, solution counts equal
to another backend's, its time limit, its solver option, and a clear refusal where
MiniZinc is missing."""

from __future__ import annotations

import shutil

import pytest

from experiments.campaign.solving import solve as solve_puzzle
from puzzlelab.errors import OptionError, UnsupportedCombination
from puzzles import PUZZLES
from solvers import Status, get_backend, solve
from solvers.backends import BACKENDS
from tests.experiments.cli.commands import run_cli
from tests.paths import SUDOKU_DATA
from tests.solvers.test_export_minizinc import small_instance
from viewpoints import get_viewpoint

BACKEND = BACKENDS.get("minizinc")
needs_minizinc = pytest.mark.skipif(BACKEND.unavailable() is not None,
                                    reason=f"backend 'minizinc' is unavailable here: "
                                           f"{BACKEND.unavailable()}")


def sudoku(file: str, number: int) -> object:
    return PUZZLES.get("sudoku").read(SUDOKU_DATA / file)[number - 1]


@needs_minizinc
def test_counts_every_solution_as_cp_does() -> None:
    built = get_viewpoint("sudoku", "classic").build(sudoku("multi_4x4.txt", 1))
    ours = solve(built.model, "minizinc", "first-fail/min", max_solutions=0)
    theirs = solve(built.model, "cp", "first-fail/min", max_solutions=0)
    assert ours.status is Status.SOLVED and ours.complete
    assert set(ours.found) == set(theirs.found)


@needs_minizinc
def test_reports_minizincs_failures_and_nodes() -> None:
    built = get_viewpoint("sudoku", "classic").build(sudoku("norvig_hardest.txt", 1),
                                                     {"alldiff": "weak"})
    result = solve(built.model, "minizinc", "input/min")
    figures = result.statistics
    assert result.status is Status.SOLVED
    assert isinstance(figures.backtracks, int) and isinstance(figures.branches, int)
    assert figures.branches > figures.backtracks > 0  # a real search, not a figure of 0
    assert figures.conflicts is None  # MiniZinc gives none: not 0
    assert figures.restarts == 0  # Gecode's count, under a search that never restarts


@needs_minizinc
@pytest.mark.parametrize("viewpoint", ["classic", "value-position", "channeled"])
def test_the_same_search_fails_as_often_as_on_choco(viewpoint: str) -> None:
    """Weak all_different is value propagation and strong is arc consistency on both
    (Gecode reads MiniZinc's value_propagation only by its own name, val): one puzzle
    (hard17) under first-fail, the same failed nodes."""
    instance = PUZZLES.get("sudoku").load(SUDOKU_DATA / "kul_named_9x9.txt", "hard17")
    for strength in ("weak", "strong"):
        runs = [solve_puzzle(instance, viewpoint=viewpoint, solver=backend,
                             heuristic="first-fail/min",
                             options={"alldiff": strength}) for backend in ("minizinc", "choco")]
        assert all(run.correct for run in runs)
        ours, choco = (run.result.statistics for run in runs)
        assert ours.backtracks == choco.backtracks, strength


@needs_minizinc
def test_flattening_is_build_time_not_search_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """MiniZinc's own flatTime goes into build_s; the search's process is solve_s; both
    within the call's wall clock."""
    import time

    flat_times: list[float] = []
    note = BACKEND._note_figure

    def noted(compiled: object, line: str) -> None:
        if "flatTime=" in line:
            flat_times.append(float(line.partition("=")[2]))
        note(compiled, line)

    monkeypatch.setattr(BACKEND, "_note_figure", staticmethod(noted))
    built = get_viewpoint("sudoku", "classic").build(sudoku("small_4x4.txt", 1))
    started = time.perf_counter()
    figures = solve(built.model, "minizinc", "input/min").statistics
    wall = time.perf_counter() - started
    assert figures.build_s is not None and figures.solve_s is not None
    [flat_time] = flat_times
    assert figures.build_s >= flat_time > 0
    assert figures.solve_s > 0 and figures.build_s + figures.solve_s <= wall


@needs_minizinc
def test_a_lazy_connected_model_is_solved_and_checked() -> None:
    run = solve_puzzle(small_instance("hashi"), viewpoint="bridges", solver="minizinc",
                       heuristic="first-fail", options={"connect": "lazy"})
    assert run.status is Status.SOLVED and run.violations == ()


@needs_minizinc
def test_the_time_limit_ends_the_search() -> None:
    """KU Leuven's puzzle 2 under the flow decomposition takes Gecode minutes."""
    hashi = PUZZLES.get("hashi")
    instance = hashi.read(hashi.data_folder() / "small" / "small.txt")[0]
    run = solve_puzzle(instance, viewpoint="bridges", solver="minizinc", heuristic="first-fail",
                       options={"connect": "flow"}, time_limit=1)
    assert run.status is Status.TIMEOUT and not run.result.complete
    assert run.result.statistics.solve_s is not None and run.result.statistics.solve_s < 10


def test_where_minizinc_is_missing_the_backend_is_listed_and_refuses(monkeypatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert "minizinc" in BACKENDS.names()
    assert "minizinc" in (BACKEND.unavailable() or "")
    with pytest.raises(UnsupportedCombination, match="unavailable here: the minizinc"):
        get_backend("minizinc")


@needs_minizinc
def test_the_solver_option_chooses_minizincs_solver() -> None:
    """``-o solver=gecode`` is the default's Gecode; another name reaches ``minizinc``
    (which names what it lacks); a name the backend does not declare is refused."""
    instance = sudoku("small_4x4.txt", 1)
    chosen = solve_puzzle(instance, viewpoint="classic", solver="minizinc",
                          heuristic="first-fail/min", options={"solver": "gecode"})
    assert chosen.correct and chosen.identity.solver_options["solver"] == "gecode"
    elsewhere = solve_puzzle(instance, viewpoint="classic", solver="minizinc",
                             heuristic="first-fail/min", options={"solver": "no-such-solver"})
    assert elsewhere.status is Status.ERROR
    assert "no-such-solver" in elsewhere.result.message
    built = get_viewpoint("sudoku", "classic").build(instance)
    with pytest.raises(OptionError, match="backend minizinc has no option 'colour'"):
        solve(built.model, "minizinc", options={"colour": "red"})
    with pytest.raises(OptionError, match="backend cp has no option 'solver'"):
        solve(built.model, "cp", options={"solver": "gecode"})


@needs_minizinc
def test_solve_shows_the_solver_option_beside_the_solver(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku",
                           str(SUDOKU_DATA / "small_4x4.txt"), "--instance", "1",
                           "--solver", "minizinc", "-o", "solver=gecode", "-o", "alldiff=weak")
    assert code == 0
    assert "viewpoint classic (alldiff=weak), solver minizinc (solver=gecode)" in out
