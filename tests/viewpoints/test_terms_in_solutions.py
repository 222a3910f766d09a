"""The terms say what a solution says: every viewpoint is solved on a small instance, and
each named variable's fact, at its value in that solution, is checked against the
decoded puzzle solution (the digit, the colour, the bridges, the room)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from solvers import solve
from tests.facts import states
from tests.viewpoints.test_terms import SMALL
from viewpoints import TERMS, VIEWPOINTS
from viewpoints.hashi_terms import place
from viewpoints.terms import Subject

Check = Callable[[Any, str, tuple[int, ...], int, Subject, str], None]


def _sudoku(grid: Any, array: str, index: tuple[int, ...], value: int, subject: Subject,
            text: str) -> None:
    box = SMALL["sudoku"].box
    if array == "cell":
        r, c = index
        assert grid[r][c] == value and states(text, f"r{r + 1}c{c + 1}", str(value))
        return
    if array in ("x", "at"):
        r, c, digit = index
        assert (grid[r][c] == digit + 1) == (value == 1)
        assert states(text, f"r{r + 1}c{c + 1}", str(digit + 1))
        return
    digit, r = index
    column = grid[r].index(digit + 1)
    assert (r, column) in subject.cells
    if array == "pos":
        assert value == column + 1 and states(text, f"column {value}")
    else:
        assert value == column // box + 1 and states(text, f"box column {value}")


def _nonogram(grid: Any, array: str, index: tuple[int, ...], value: int, subject: Subject,
              text: str) -> None:
    r, c = index
    assert grid[r][c] == value
    assert states(text, f"r{r + 1}c{c + 1}", "black" if value else "white")


def _hashi(bridges: Any, array: str, index: tuple[int, ...], value: int, subject: Subject,
           text: str) -> None:
    by_cells = {(b.first, b.second): b.count for b in bridges}
    if array == "bridges":
        first, second = subject.cells[0], subject.cells[-1]
        assert by_cells.get((first, second), 0) == value
        assert states(text, place(first), place(second))
    else:
        assert _leaving(bridges, index) == value
        assert states(text, place(index[:2]), ("north", "east", "south", "west")[index[2]])
    assert states(text, "no bridge") if value == 0 else states(text, str(value))


def _leaving(bridges: Any, index: tuple[int, ...]) -> int:
    """The bridges the solution has leaving cell (r, c) in direction d (N, E, S, W)."""
    r, c, direction = index
    down, right = ((-1, 0), (0, 1), (1, 0), (0, -1))[direction]
    step = (r + down, c + right)
    for bridge in bridges:
        (r1, c1), (r2, c2) = bridge.first, bridge.second
        inside = [(row, column) for row in range(r1, r2 + 1) for column in range(c1, c2 + 1)]
        if (r, c) in inside and step in inside:
            return int(bridge.count)
    return 0


def _shikaku(rooms: Any, array: str, index: tuple[int, ...], value: int, subject: Subject,
             text: str) -> None:
    if array == "room":
        r, c = index
        assert rooms[r][c] == value and states(text, f"room {value}")
        return
    label = int(array.removeprefix("room")) if array.startswith("room") else index[0] + 1
    cells = [(r, c) for r, row in enumerate(rooms) for c, room in enumerate(row)
             if room == label]
    if array.startswith("room"):
        assert (set(subject.cells) == set(cells)) == (value == 1)
        return
    top, bottom = min(r for r, _ in cells) + 1, max(r for r, _ in cells) + 1
    left, right = min(c for _, c in cells) + 1, max(c for _, c in cells) + 1
    said = {"top": top, "bottom": bottom, "left": left, "right": right,
            "height": bottom - top + 1, "width": right - left + 1}[array]
    assert states(text, f"room {label}", str(said)), (array, text, said)


CHECKS: dict[str, tuple[Check, Callable[[Any], Any]]] = {
    "sudoku": (_sudoku, lambda solution: solution.grid),
    "nonogram": (_nonogram, lambda solution: solution.grid),
    "hashi": (_hashi, lambda solution: solution.bridges),
    "shikaku": (_shikaku, lambda solution: solution.rooms),
}


@pytest.mark.parametrize("name", VIEWPOINTS.names())
def test_facts_agree_with_the_solution(name: str) -> None:
    puzzle = name.split("/")[0]
    instance, terms = SMALL[puzzle], TERMS.get(puzzle)
    viewpoint = VIEWPOINTS.get(name)
    options = {"channel": "reified"} if name == "sudoku/channeled" else {}
    built = viewpoint.build(instance, options)
    result = solve(built.model, "cpsat", "input/min", time_limit=30)
    assert result.assignment is not None, result.status
    check, shown = CHECKS[puzzle]
    solution = shown(built.decode(result.assignment))
    checked = 0
    for array in built.model.arrays.values():
        for variable in array.variables:
            index = array.position(variable)
            value = result.assignment[variable] + array.offset
            others = [v + array.offset for v in variable.domain
                      if v + array.offset != value]
            subject = terms.subject(instance, array.name, index)
            check(solution, array.name, index, value, subject,
                  terms.fact(subject, array.name, [value], others))
            checked += 1
    assert checked == sum(len(a.variables) for a in built.model.arrays.values()) > 0
