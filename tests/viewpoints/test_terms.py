"""Every viewpoint's model is named for explanations: every constraint has a group and a
label, every variable of a named array has a subject in its puzzle's terms, with cells
inside the grid, and its facts name it; a few facts checked place by place."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from puzzles import PUZZLES
from solvers import Model
from tests.facts import states
from viewpoints import TERMS, VIEWPOINTS, load_viewpoints
from viewpoints.hashi_terms import place
from viewpoints.shikaku_rooms import rooms_of

load_viewpoints()


def _read(puzzle: str, path: str, name: str | None = None) -> Any:
    kind = PUZZLES.get(puzzle)
    instances = kind.read(kind.data_folder() / path)
    return next(i for i in instances if name is None or i.name == name)


SMALL = {
    "sudoku": _read("sudoku", "small_4x4.txt"),
    "nonogram": _read("nonogram", "small/nonogram-5x4-d0.6-s5-1.non"),
    "hashi": _read("hashi", "small/small.txt", "puzzle_4"),
    "shikaku": _read("shikaku", "small/small.txt", "p(0,1)"),
}
"""A small instance of each puzzle, with crossings (Hashi) and a room of several shapes."""


def grid_size(instance: Any) -> tuple[int, int]:
    """Rows and columns of an instance's grid, whatever its puzzle."""
    for rows, columns in (("size", "size"), ("height", "width"), ("rows", "columns")):
        if hasattr(instance, rows) and isinstance(getattr(instance, rows), int):
            return getattr(instance, rows), getattr(instance, columns)
    raise AssertionError(f"no grid size on {instance!r}")


def builds() -> list[tuple[str, dict[str, Any]]]:
    """Every viewpoint under every combination of its options."""
    found = []
    for name in VIEWPOINTS.names():
        options = VIEWPOINTS.get(name).options
        for values in itertools.product(*(option.choices for option in options.values())):
            found.append((name, dict(zip(options, values))))
    return found


BUILDS = builds()


def _model(name: str, options: dict[str, Any]) -> Model:
    return VIEWPOINTS.get(name).build(SMALL[name.split("/")[0]], options).model


@pytest.mark.parametrize(("name", "options"), BUILDS,
                         ids=[f"{n}-{'-'.join(map(str, o.values()))}" for n, o in BUILDS])
def test_every_constraint_has_a_group_and_a_label(name: str, options: dict[str, Any]) -> None:
    model = _model(name, options)
    every = set(range(len(model.constraints)))
    assert every, name
    assert not every - set(model.labels), f"{name}: unlabelled constraints"
    assert not every - set(model.groups), f"{name}: constraints in no group"
    assert all(model.labels[i].strip() for i in every)


def _one_unit_per_line(model: Model) -> dict[tuple[str, str], int]:
    """How many constraints each (group, label) gathers."""
    units: dict[tuple[str, str], int] = {}
    for index in range(len(model.constraints)):
        key = (model.groups[index], model.labels[index])
        units[key] = units.get(key, 0) + 1
    return units


def test_a_lines_clauses_are_one_unit() -> None:
    """The order encoding's many clauses of a line read as the line, so an explanation
    uses the whole row at once, as a person does."""
    instance = SMALL["nonogram"]
    units = _one_unit_per_line(_model("nonogram/order", {}))
    assert {key for key in units} == (
        {("rows", f"row {r + 1}") for r in range(instance.height)}
        | {("columns", f"column {c + 1}") for c in range(instance.width)})
    assert max(units.values()) > 1


def test_a_hashi_cells_rules_are_one_unit() -> None:
    instance = SMALL["hashi"]
    units = _one_unit_per_line(_model("hashi/directions", {"connect": "propagator",
                                                           "improve": "none"}))
    cells = {label for group, label in units if group == "cells"}
    assert len(cells) == instance.rows * instance.columns
    island = instance.islands[0]
    assert f"the island at {place(island.cell)}" in cells


@pytest.mark.parametrize("name", VIEWPOINTS.names())
def test_every_array_variable_has_a_subject_and_facts(name: str) -> None:
    """Each variable of each named array (under each option: some add arrays) has a
    named subject inside the grid; its fixed fact and a removal differ and name it."""
    puzzle = name.split("/")[0]
    instance, terms = SMALL[puzzle], TERMS.get(puzzle)
    rows, columns = grid_size(instance)
    arrays = {array.name: array for n, options in BUILDS if n == name
              for array in _model(n, options).arrays.values()}
    assert arrays
    for array in arrays.values():
        for variable in array.variables:
            index = array.position(variable)
            subject = terms.subject(instance, array.name, index)
            assert subject.name and subject.cells, (array.name, index)
            assert all(0 <= r < rows and 0 <= c < columns for r, c in subject.cells)
            domain = [value + array.offset for value in variable.domain]
            if len(domain) < 2:
                continue
            top, others = domain[-1], domain[:-1]
            fixed = terms.fact(subject, array.name, [top], others)
            removal = terms.fact(subject, array.name, others, [top])
            assert fixed != removal, (array.name, index, fixed)
            for text in (fixed, removal):
                assert _names(subject.name, text), (subject.name, text)


def _names(name: str, text: str) -> bool:
    """Whether ``text`` states every place and number of a subject's name (``r3c4``,
    ``(1,4)``, ``row 3``, ``room 2``), in any wording."""
    places = re.findall(r"r\d+c\d+|\(\d+,\d+\)|(?:digit|row|column|room) \d+", name)
    return bool(places) and states(text, *places)


def test_sudoku_cells_and_positions() -> None:
    terms, instance = TERMS.get("sudoku"), SMALL["sudoku"]
    cell = terms.subject(instance, "cell", (2, 3))
    assert cell.cells == ((2, 3),)
    assert states(terms.fact(cell, "cell", [4], [1, 2]), "r3c4", "4")
    removal = terms.fact(cell, "cell", [1, 4], [2, 3])
    assert states(removal, "r3c4", "2", "3") and not states(removal, "4")
    position = terms.subject(instance, "pos", (1, 0))
    assert states(position.name, "digit 2", "row 1")
    assert {r for r, _ in position.cells} == {0}
    assert states(terms.fact(position, "pos", [3], [1, 2, 4]), "column 3")
    one_hot = terms.subject(instance, "x", (0, 1, 2))
    assert one_hot.cells == ((0, 1),)
    holds, not_held = (terms.fact(one_hot, "x", [v], [1 - v]) for v in (1, 0))
    assert states(holds, "r1c2", "3") and states(not_held, "r1c2", "3", "not")
    assert not states(holds, "not")


def test_a_given_digit_sits_at_its_given_cell() -> None:
    """A digit given in a row is about that one cell; another, about cells left open."""
    terms, instance = TERMS.get("sudoku"), SMALL["sudoku"]
    r, c = next((r, c) for r in range(instance.size) for c in range(instance.size)
                if instance.givens[r][c])
    digit = instance.givens[r][c] - 1
    assert terms.subject(instance, "pos", (digit, r)).cells == ((r, c),)
    other = next(d for d in range(instance.size) if d + 1 not in instance.givens[r])
    open_cells = terms.subject(instance, "pos", (other, r)).cells
    assert all(not instance.givens[row][column] for row, column in open_cells)


def test_nonogram_black_and_white() -> None:
    terms, instance = TERMS.get("nonogram"), SMALL["nonogram"]
    cell = terms.subject(instance, "cell", (1, 2))
    assert cell.cells == ((1, 2),)
    assert states(terms.fact(cell, "cell", [1], [0]), "r2c3", "black")
    assert states(terms.fact(cell, "cell", [0], [1]), "r2c3", "white")


def test_a_hashi_bridge_runs_between_its_islands() -> None:
    terms, instance = TERMS.get("hashi"), SMALL["hashi"]
    model = _model("hashi/bridges", {"connect": "propagator", "improve": "none"})
    islands = instance.island_at()
    for k in range(model.arrays["bridges"].shape[0]):
        cells = terms.subject(instance, "bridges", (k,)).cells
        ends = [cell for cell in cells if cell in islands]
        assert ends == [cells[0], cells[-1]] and len(cells) >= 2
        rows, columns = {r for r, _ in cells}, {c for _, c in cells}
        assert len(rows) == 1 or len(columns) == 1
        assert len(cells) == len(rows) * len(columns) == max(len(rows), len(columns))
        subject = terms.subject(instance, "bridges", (k,))
        text = terms.fact(subject, "bridges", [2], [0, 1])
        assert states(text, place(cells[0]), place(cells[-1]), "2")
        # an island's east (south) direction covers the same cells as its pair
        r, c = cells[0]
        direction = 1 if len(rows) == 1 else 2
        assert terms.subject(instance, "leaving", (r, c, direction)).cells == cells


def test_a_shikaku_placement_is_its_rectangle() -> None:
    terms, instance = TERMS.get("shikaku"), SMALL["shikaku"]
    for room in rooms_of(instance):
        for i, placement in enumerate(room.placements):
            subject = terms.subject(instance, f"room{room.label}", (i,))
            assert set(subject.cells) == set(placement.cells())
            assert (room.row, room.column) in subject.cells
            assert len(subject.cells) == room.area
            chosen = terms.fact(subject, f"room{room.label}", [1], [0])
            assert states(chosen, f"room {room.label}",
                          f"{placement.height}x{placement.width}")
            assert chosen != terms.fact(subject, f"room{room.label}", [0], [1])
    cell = terms.subject(instance, "room", (1, 2))
    assert states(terms.fact(cell, "room", [4], [1, 2]), "r2c3", "room 4")


def test_a_fixed_cell_is_marked_as_the_puzzle_is_filled_in() -> None:
    sudoku, nonogram = TERMS.get("sudoku"), TERMS.get("nonogram")
    assert sudoku.mark("cell", (2, 3), 7) == "7"
    assert sudoku.mark("x", (2, 3, 6), 1) == "7"
    assert sudoku.mark("x", (2, 3, 6), 0) == ""
    assert nonogram.mark("cell", (0, 0), 1) != nonogram.mark("cell", (0, 0), 0)
    assert TERMS.get("shikaku").mark("room", (1, 1), 4) == "4"
