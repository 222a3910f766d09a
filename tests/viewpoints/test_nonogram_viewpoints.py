"""Every nonogram viewpoint x backend x heuristic solves small nonograms, as the checker says."""

from __future__ import annotations

import pytest

from experiments.campaign.solving import solve as solve_puzzle
from puzzlelab.errors import ModelTooLarge
from puzzles.nonogram import check, load
from solvers import BACKENDS, Status, clause, solve
from tests.facts import facts
from tests.grid import Cell, assert_solves, grid, params, refused_as_declared
from tests.paths import NONOGRAM_DATA
from viewpoints import get_viewpoint
from viewpoints.nonogram import clue_automaton, placement_count, placements

SMALL = NONOGRAM_DATA / "small"
PLUS = load(SMALL / "plus_3x3.non")
GENERATED = [load(path) for path in sorted(SMALL.glob("nonogram-*.non"))]
CELLS = grid("nonogram")


@pytest.mark.parametrize("cell", params(CELLS))
def test_small_nonograms(cell: Cell) -> None:
    # python-constraint's search does not see through the channelings of order and
    # block-start (seconds each): it gets the 3x3 here and the generated ones with --runslow
    assert_solves(cell, [PLUS] + ([] if cell.backend == "python-constraint" else GENERATED))


@pytest.mark.slow
@pytest.mark.parametrize("cell", [c for c in CELLS if c.backend == "python-constraint"],
                         ids=lambda cell: cell.id)
def test_generated_nonograms_on_python_constraint(cell: Cell) -> None:
    assert_solves(cell, GENERATED)


@pytest.mark.parametrize(("name", "expected"), [("two_solutions_2x2.non", 2),
                                                ("six_solutions_3x3.non", 6),
                                                ("plus_3x3.non", 1)])
@pytest.mark.parametrize("viewpoint", ["regular", "order", "block-start", "line-table",
                                       "block-start-regular"])
@pytest.mark.parametrize("backend", BACKENDS.names())
def test_solution_counts_agree(name: str, expected: int, viewpoint: str, backend: str) -> None:
    if refused_as_declared("nonogram", load(SMALL / name), viewpoint, backend):
        return
    run = solve_puzzle(load(SMALL / name), viewpoint=viewpoint, solver=backend,
                       heuristic="input/min", max_solutions=0, time_limit=60)
    assert run.result.complete and run.result.statistics.solutions == expected
    assert run.violations == ()


@pytest.mark.parametrize("name", ["two_solutions_2x2.non", "six_solutions_3x3.non"])
@pytest.mark.parametrize("viewpoint", ["regular", "block-start", "block-start-regular"])
@pytest.mark.parametrize("heuristic", ["input/min+probe", "first-fail/max+probe-all"])
def test_probing_keeps_every_solution(name: str, viewpoint: str, heuristic: str) -> None:
    """Merging probes fixes only what every solution below the node shares."""
    plain = solve_puzzle(load(SMALL / name), viewpoint=viewpoint, solver="cp",
                         heuristic="input/min", max_solutions=0)
    probed = solve_puzzle(load(SMALL / name), viewpoint=viewpoint, solver="cp", heuristic=heuristic,
                          max_solutions=0)
    assert probed.result.complete
    assert probed.result.statistics.solutions == plain.result.statistics.solutions


def test_input_order_tries_blank_first_row_major() -> None:
    """On the 2x2 with two diagonals, input/min finds the anti-diagonal first."""
    run = solve_puzzle(load(SMALL / "two_solutions_2x2.non"), viewpoint="regular", solver="cp",
                       heuristic="input/min")
    assert run.solution.grid == ((0, 1), (1, 0))


def test_first_solution_and_proof_branches_on_cp() -> None:
    run = solve_puzzle(load(SMALL / "six_solutions_3x3.non"), viewpoint="regular", solver="cp",
                       heuristic="input/min", max_solutions=0)
    statistics = run.result.statistics
    # (1,1) blank, (1,2) blank (forcing (1,3) and column 3), (2,1) blank; the rest propagates
    assert statistics.first_branches == 3
    assert statistics.branches > statistics.first_branches


@pytest.mark.parametrize("clue", [(), (1,), (2, 1), (1, 1, 1), (3,)])
def test_placements_are_exactly_the_lines_with_that_clue(clue) -> None:
    from itertools import product

    from puzzles.nonogram import blocks_of

    for length in range(6):
        expected = [line for line in product((0, 1), repeat=length) if blocks_of(line) == clue]
        assert sorted(placements(clue, length)) == sorted(expected)
        assert placement_count(clue, length) == len(expected)


@pytest.mark.parametrize("clue", [(), (1,), (2, 1), (1, 3)])
def test_clue_automaton_accepts_exactly_the_lines_with_that_clue(clue) -> None:
    from itertools import product

    from puzzles.nonogram import blocks_of

    transitions, accepting = clue_automaton(clue)
    step = {(state, symbol): target for state, symbol, target in transitions}
    for line in product((0, 1), repeat=6):
        state: int | None = 0
        for symbol in line:
            state = step.get((state, symbol))
            if state is None:
                break
        assert (state in accepting) == (blocks_of(line) == clue), line


def test_line_table_refuses_lines_with_too_many_placements() -> None:
    knotty = load(NONOGRAM_DATA / "webpbn_survey" / "knotty.non")
    limit = get_viewpoint("nonogram", "line-table").options["max_placements"].default
    # the line, its clue, its size, and the option (with its value) that refused it
    with pytest.raises(ModelTooLarge, match=facts("row 3", "clue 2,2,2,2,2,2", "475,020",
                                                  f"max_placements={limit:,}")):
        solve_puzzle(knotty, viewpoint="line-table", solver="cpsat", heuristic="auto")


def test_command_line_option_text_becomes_the_number_it_names() -> None:
    line_table = get_viewpoint("nonogram", "line-table")
    assert line_table.resolve_options({"max_placements": "1000"}) == {"max_placements": 1000}
    knot = load(NONOGRAM_DATA / "webpbn_survey" / "webpbn-00016.non")
    with pytest.raises(ModelTooLarge, match="more than max_placements=1,000,000"):
        solve_puzzle(knot, viewpoint="line-table", solver="cpsat", heuristic="auto",
                     options={"max_placements": "1000000"})


# Row-major cell indices: the first eleven hold their goal value, the last the other
# one. Chosen by a greedy walk towards the goal (each step the cell whose goal value
# propagates furthest), with probing in between; the twelfth takes the value the goal
# does not give it, and a solution remains.
KNOTTY_PATH_TO_ANOTHER_SOLUTION = (8, 46, 47, 43, 164, 168, 11, 174, 30, 233, 106, 206)


def test_knotty_has_a_solution_other_than_its_goal() -> None:
    """Knotty is not unique, so ``matches_known`` may rightly read 0 on a correct run."""
    knotty = load(NONOGRAM_DATA / "webpbn_survey" / "knotty.non")
    assert knotty.known_solution is not None
    built = get_viewpoint("nonogram", "regular").build(knotty)
    cells = built.model.search_variables()  # the cells, row-major
    goal = [value for row in knotty.known_solution.grid for value in row]
    *kept, flipped = KNOTTY_PATH_TO_ANOTHER_SOLUTION
    wanted = {index: goal[index] for index in kept} | {flipped: 1 - goal[flipped]}
    for index, value in wanted.items():
        built.model.add(clause((cells[index],)) if value else clause((), (cells[index],)))
    result = solve(built.model, "cpsat", "first-fail/min", time_limit=120)
    assert result.assignment is not None, result.status
    other = built.decode(result.assignment)
    assert check(knotty, other) == []
    assert other != knotty.known_solution


@pytest.mark.parametrize("viewpoint", ["regular", "order", "block-start", "line-table",
                                       "block-start-regular"])
@pytest.mark.parametrize("backend", BACKENDS.names())
def test_symmetric_search_goes_on_to_the_whole_model_when_no_solution_is_symmetric(
        viewpoint: str, backend: str) -> None:
    """The 2x2 with two diagonals keeps its clues under all seven maps, but no picture is
    left unchanged by all of them (a quarter turn would make the four cells equal)."""
    instance = load(SMALL / "two_solutions_2x2.non")
    if refused_as_declared("nonogram", instance, viewpoint, backend, "first-fail/min"):
        return  # a backend the viewpoint's constraints rule out says so, as declared
    run = solve_puzzle(instance, viewpoint=viewpoint, solver=backend,
                       heuristic="first-fail/min+symmetric")
    assert run.result.status is Status.SOLVED and run.violations == ()
    assert run.result.symmetric.answered_by == "whole model"
    assert len(run.result.symmetric.imposed) == 7


@pytest.mark.slow
def test_symmetric_search_solves_knotty() -> None:
    """Knotty's clues keep the quarter turns of its picture; among the pictures they
    leave unchanged CP-SAT's own search finds one (about 5 s on the 2-core machine)."""
    knotty = load(NONOGRAM_DATA / "webpbn_survey" / "knotty.non")
    run = solve_puzzle(knotty, viewpoint="regular", solver="cpsat", heuristic="auto+symmetric",
                       time_limit=120)
    assert run.result.status is Status.SOLVED and run.violations == ()
    assert run.result.symmetric.as_json() == {
        "imposed": ["half turn", "quarter turn anticlockwise", "quarter turn clockwise"],
        "answered_by": "symmetric solutions"}
