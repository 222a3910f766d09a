"""Every Shikaku viewpoint x backend x heuristic solves the small set, as the checker and
the known solutions say; all count the solutions of a two-solution puzzle alike."""

from __future__ import annotations

import pytest

from experiments.campaign.solving import solve
from puzzlelab.errors import ModelError
from puzzles import PUZZLES
from puzzles.shikaku import ShikakuInstance, parse, read
from solvers import BACKENDS, Status
from tests.facts import facts
from tests.grid import Cell, assert_solves, grid, params, refused_as_declared
from viewpoints import get_viewpoint, viewpoints_of
from viewpoints.shikaku_rooms import room_placements, rooms_of

SMALL = read(PUZZLES.get("shikaku").data_folder() / "small" / "small.txt")
TINY, FIVE_BY_FIVE = SMALL[0], SMALL[1:]
CELLS = grid("shikaku")
# hand-made puzzles with several solutions: both rooms lie flat or both stand up; four
# 4-rooms turning about the centre; two 8-rooms split across or along
TWO_SOLUTIONS = parse("== two ways\n2 2\n2 -\n- 2\n")[0]
SEVERAL_SOLUTIONS = [TWO_SOLUTIONS, *parse(
    "== pinwheel\n4 4\n- 4 - -\n- - - 4\n4 - - -\n- - 4 -\n"
    "== two eights\n4 4\n- - - -\n- 8 - -\n- - 8 -\n- - - -\n")]
VIEWPOINTS = [v.name for v in viewpoints_of("shikaku")]
ORDERS = ["largest-first", "fewest-placements"]


def _slow_on_python_constraint(cell: Cell) -> bool:
    """python-constraint's search does not see through the cell-room channeling (seconds
    per 5x5); it gets the 3x3 here and the 5x5 ones with --runslow."""
    return cell.backend == "python-constraint" and cell.viewpoint.name != "patterns"


@pytest.mark.parametrize("cell", params(CELLS))
def test_small_shikakus(cell: Cell) -> None:
    assert_solves(cell, [TINY] + ([] if _slow_on_python_constraint(cell) else FIVE_BY_FIVE))


@pytest.mark.slow
@pytest.mark.parametrize("cell", [c for c in CELLS if _slow_on_python_constraint(c)],
                         ids=lambda cell: cell.id)
def test_five_by_five_on_python_constraint(cell: Cell) -> None:
    assert_solves(cell, FIVE_BY_FIVE)


def brute_force_count(instance: ShikakuInstance) -> int:
    """Solutions counted with no model: fill the first free cell (row-major) with each
    rectangle whose top-left corner it is, which holds one clue equal to its area."""
    rows, columns, clues = instance.rows, instance.columns, instance.clues
    taken = [[False] * columns for _ in range(rows)]

    def count() -> int:
        free = next(((r, c) for r in range(rows) for c in range(columns)
                     if not taken[r][c]), None)
        if free is None:
            return 1
        top, left, total = *free, 0
        for height in range(1, rows - top + 1):
            for width in range(1, columns - left + 1):
                cells = [(r, c) for r in range(top, top + height)
                         for c in range(left, left + width)]
                if any(taken[r][c] for r, c in cells):
                    break
                numbers = [clues[r][c] for r, c in cells if clues[r][c]]
                if numbers == [height * width]:
                    for r, c in cells:
                        taken[r][c] = True
                    total += count()
                    for r, c in cells:
                        taken[r][c] = False
        return total

    return count()


def test_the_brute_force_counts() -> None:
    assert [brute_force_count(i) for i in SEVERAL_SOLUTIONS] == [2, 9, 2]
    assert [brute_force_count(i) for i in SMALL] == [1] * len(SMALL)


@pytest.mark.parametrize("viewpoint", VIEWPOINTS)
@pytest.mark.parametrize("backend", BACKENDS.names())
def test_every_viewpoint_counts_as_the_brute_force(viewpoint: str, backend: str) -> None:
    slow = backend == "python-constraint" and viewpoint != "patterns"  # seconds per 4x4
    for instance in SEVERAL_SOLUTIONS[:1] if slow else SEVERAL_SOLUTIONS:
        if refused_as_declared("shikaku", instance, viewpoint, backend):
            return
        run = solve(instance, viewpoint=viewpoint, solver=backend, heuristic="input/min",
                    max_solutions=0, time_limit=60)
        assert run.result.complete and run.violations == ()
        assert run.result.statistics.solutions == brute_force_count(instance), instance.name


CHANNELED_IN_FULL = {"channel": "sum", "redundant": "true", "gcc": "true"}


@pytest.mark.parametrize("heuristic", ["input/min", "largest-first/max"])
@pytest.mark.parametrize("backend", ["cp", "choco"])
def test_channeled_in_full_backtracks_no_more_than_patterns(backend: str,
                                                            heuristic: str) -> None:
    """Both branch on the same placement variables in the same static order, so the
    channeled model's stronger propagation can only cut the tree."""
    instances = read(PUZZLES.get("shikaku").data_folder() / "kul_aplai_2016.txt")
    for instance in instances[:22]:
        counts = []
        for viewpoint, options in (("patterns", {}), ("channeled", CHANNELED_IN_FULL)):
            run = solve(instance, viewpoint=viewpoint, solver=backend, heuristic=heuristic,
                        options=options, max_solutions=0, time_limit=60)
            assert run.result.complete and run.violations == ()
            counts.append(run.result.statistics.backtracks)
        assert counts[1] <= counts[0], (instance.name, counts)


@pytest.mark.parametrize("viewpoint", VIEWPOINTS)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("backend", ["cp", "cpsat", "choco"])
def test_room_orders_solve(viewpoint: str, order: str, backend: str) -> None:
    for instance in SMALL:
        run = solve(instance, viewpoint=viewpoint, solver=backend, heuristic=f"{order}/max",
                    time_limit=60)
        assert run.result.status is Status.SOLVED and run.violations == ()
        assert run.solution == instance.known_solution


def test_largest_first_takes_the_largest_room_first() -> None:
    model = get_viewpoint("shikaku", "patterns").build(TINY).model
    first = model.variable_orders["largest-first"][0]
    assert first.name.startswith("room1_")  # the 4 comes before the 3 and the 2


@pytest.mark.parametrize("viewpoint", VIEWPOINTS)
def test_a_cell_no_room_can_cover_is_named(viewpoint: str) -> None:
    # the 4 has no rectangle without another clue, so nothing covers row 1, column 2
    blocked = parse("== blocked\n2 3\n1 - 1\n- 4 -\n")[0]
    with pytest.raises(ModelError, match=facts("'blocked'", "no room",
                                               "cell (row 1, column 2)")):
        solve(blocked, viewpoint=viewpoint, solver="cpsat", heuristic="auto")


def test_placements_hold_their_clue_and_no_other() -> None:
    assert [(p.top, p.left, p.height, p.width) for p in room_placements(TINY, 0, 0)] == [
        (0, 0, 2, 2)]  # a 1x4 or 4x1 leaves the 3x3 grid; the other 2x2 squares hold clues
    rooms = rooms_of(SMALL[1])
    assert [room.label for room in rooms] == list(range(1, 10))
    for room in rooms:
        for placement in room.placements:
            cells = placement.cells()
            assert len(cells) == room.area and (room.row, room.column) in cells
            assert sum(1 for r, c in cells if SMALL[1].clues[r][c]) == 1


@pytest.mark.parametrize("overlap", ["pairwise", "global"])
@pytest.mark.parametrize("backend", ["cp", "cpsat", "choco"])
def test_both_overlap_forms_count_two_solutions(overlap: str, backend: str) -> None:
    run = solve(TWO_SOLUTIONS, viewpoint="geometry", solver=backend, heuristic="input/min",
                options={"overlap": overlap}, max_solutions=0, time_limit=60)
    assert run.result.complete and run.result.statistics.solutions == 2
    assert run.violations == ()
