"""What a model says of its own shape, for the people who read it: variables gathered in
named arrays (a grid of cells, a row of block starts) with the values the puzzle uses,
and constraints gathered in named groups ("rows", "boxes"), each with a label of its
own ("row 3"): :meth:`solvers.model.Model.add`, :meth:`~solvers.model.Model.group`.

None of it changes what a model means: a backend searches the same variables and
constraints with or without it. The exports write it as a person would write the model
(``array[1..9, 1..9] of var 1..9: cell``, one commented line per group), and an
explanation names a constraint by its group and label.

>>> from solvers import Model
>>> model = Model("grid")
>>> grid = [[model.int_var(0, 1, f"x_{r}_{c}") for c in range(3)] for r in range(2)]
>>> cells = model.name_array("cell", grid, offset=1)
>>> cells.shape, cells.position(grid[1][2]), cells.domain()
((2, 3), (1, 2), (1, 2))
>>> cells.at((1, 2)) is grid[1][2]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

from puzzlelab.errors import ModelError
from solvers.variables import IntVar

Nested: TypeAlias = IntVar | Sequence["Nested"]


@dataclass(frozen=True)
class VarArray:
    """Variables laid out as a rectangular array named ``name``, in row-major order.

    ``offset`` turns a variable's value into the puzzle's own: a Sudoku cell whose model
    value is 0..8 holds the digit ``value + 1`` (offset 1); what it holds in the model is
    unchanged.
    """

    name: str
    shape: tuple[int, ...]
    variables: tuple[IntVar, ...]
    offset: int = 0

    def position(self, variable: IntVar) -> tuple[int, ...]:
        """The 0-based indices of ``variable`` in the array."""
        flat = self._index()[variable]
        indices = []
        for size in reversed(self.shape):
            flat, index = divmod(flat, size)
            indices.append(index)
        return tuple(reversed(indices))

    def at(self, index: tuple[int, ...]) -> IntVar:
        """The variable at the 0-based ``index`` (the inverse of :meth:`position`)."""
        flat = 0
        for size, place in zip(self.shape, index, strict=True):
            flat = flat * size + place
        return self.variables[flat]

    def domain(self) -> tuple[int, int]:
        """The smallest and largest value any of its variables may take, in the
        puzzle's values: the range a person would declare the array with."""
        low = min(variable.lb for variable in self.variables)
        high = max(variable.ub for variable in self.variables)
        return low + self.offset, high + self.offset

    def _index(self) -> dict[IntVar, int]:
        cached: dict[IntVar, int] | None = self.__dict__.get("_by_variable")
        if cached is None:
            cached = {variable: i for i, variable in enumerate(self.variables)}
            object.__setattr__(self, "_by_variable", cached)
        return cached


def flatten(nested: Nested, name: str) -> tuple[tuple[int, ...], list[IntVar]]:
    """The shape and the variables, in row-major order, of a rectangular nest of lists;
    raises ``ModelError`` for a ragged one."""
    if isinstance(nested, IntVar):
        return (), [nested]
    parts = [flatten(item, name) for item in nested]
    if not parts:
        raise ModelError(f"array {name!r} is empty")
    shapes = {shape for shape, _ in parts}
    if len(shapes) != 1:
        raise ModelError(f"array {name!r} is not rectangular: its rows have shapes "
                         f"{sorted(shapes)}")
    return (len(parts), *shapes.pop()), [v for _, flat in parts for v in flat]
