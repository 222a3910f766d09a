"""The model's own shape, for readers: named arrays (rectangular, each variable in one,
in the puzzle's values) and constraint groups with labels, which change no meaning."""

from __future__ import annotations

import pytest

from puzzlelab.errors import ModelError
from solvers import Model, all_different
from solvers.solving import solve


def grid(model: Model, rows: int = 2, columns: int = 2) -> list[list]:
    return [[model.int_var(0, 1, f"x_{r}_{c}") for c in range(columns)] for r in range(rows)]


def test_an_array_knows_each_variables_place_and_its_puzzle_values() -> None:
    model = Model("m")
    cells = grid(model, 2, 3)
    array = model.name_array("cell", cells, offset=1)
    assert array.shape == (2, 3)
    assert [array.position(v) for row in cells for v in row] == [
        (r, c) for r in range(2) for c in range(3)]
    assert array.domain() == (1, 2)


@pytest.mark.parametrize("bad", ["ragged", "twice", "foreign", "again"])
def test_an_array_that_cannot_be_is_refused_by_name(bad: str) -> None:
    model, other = Model("m"), Model("other")
    cells = grid(model)
    model.name_array("cell", [cells[0]])
    nested = {"ragged": [cells[1], cells[1][:1]], "twice": [[cells[1][0], cells[1][0]]],
              "foreign": grid(other), "again": [cells[0]]}[bad]
    with pytest.raises(ModelError, match="array 'more'"):
        model.name_array("more", nested)


def test_groups_and_labels_name_constraints_and_change_no_solution() -> None:
    plain, named = Model("plain"), Model("named")
    for model in (plain, named):
        cells = grid(model)
        for r in range(2):
            if model is named:
                with model.group("rows", "each row differs"):
                    model.add(all_different(cells[r]), f"row {r + 1}")
            else:
                model.add(all_different(cells[r]))
        model.add(all_different([cells[0][0], cells[1][0]]),
                  *(("column 1", "columns") if model is named else ()))
    assert named.groups == {0: "rows", 1: "rows", 2: "columns"}
    assert named.labels == {0: "row 1", 1: "row 2", 2: "column 1"}
    assert named.group_descriptions == {"rows": "each row differs"}
    counts = [solve(m, "cp", "input/min", max_solutions=0).statistics.solutions
              for m in (plain, named)]
    assert counts == [2, 2]
