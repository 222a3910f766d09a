"""How a MiniZinc file names the model's variables: an element of a named array where the
model gathers them (``cell[3, 4]``, 1-based, in the puzzle's own values), a scalar of
its own otherwise; and a list of variables as a slice of one array where it is one
(``cell[3, ..]``, ``cell[1..3, 4..6]``), as a person writes a row or a box.

A variable of an array with an offset holds, in the file, its model value plus the
offset (a Sudoku digit 1..9 where the model has 0..8): a constraint on it is written on
the puzzle's values where the offset cancels out or shifts its constants, and on
``(cell[3, 4] - 1)`` otherwise.

>>> from solvers import Model
>>> model = Model("grid")
>>> grid = [[model.int_var(0, 8, f"c_{r}_{c}") for c in range(9)] for r in range(9)]
>>> _ = model.name_array("cell", grid, offset=1)
>>> terms = Terms(model, model.variables)
>>> terms.ref(grid[2][3]), terms.offset(grid[2][3]), terms.model_value(grid[2][3])
('cell[3, 4]', 1, '(cell[3, 4] - 1)')
>>> terms.items(grid[2]).text, terms.items([grid[r][c] for r in range(3) for c in range(3, 6)]).text
('cell[3, ..]', 'cell[1..3, 4..6]')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from solvers.export.names import identifiers
from solvers.model import Model
from solvers.structure import VarArray
from solvers.variables import IntOrVar, IntVar


@dataclass(frozen=True)
class Items:
    """A list of variables as the file writes it: ``text`` an array expression (a slice,
    or a bracketed list), ``offset`` the offset every item shares (None when they
    differ: the items are then written on their model values), ``dimensions`` how many
    ranged dimensions the expression has (1 for a list; a 2-d slice has 2)."""

    text: str
    offset: int | None
    dimensions: int = 1
    from_one: bool = True  # whether every index set starts at 1 (a slice keeps its own)

    def flat(self) -> str:
        """The expression as a one-dimensional array indexed from 1, as most globals
        take it."""
        plain = self.dimensions == 1 and self.from_one
        return self.text if plain else f"array1d({self.text})"


class Terms:
    """Each variable's reference and offset in one file, for ``variables`` (the model's
    and those its rewriting added)."""

    def __init__(self, model: Model, variables: Sequence[IntVar]) -> None:
        self.arrays = list(model.arrays.values())
        self._array_of = {v: array for array in self.arrays for v in array.variables}
        scalars = [v for v in variables if v not in self._array_of]
        taken = {array.name for array in self.arrays}
        self._scalar = dict(zip(scalars, _avoiding(identifiers(scalars), taken)))

    def array_of(self, variable: IntVar) -> VarArray | None:
        """The named array ``variable`` is in, if any."""
        return self._array_of.get(variable)

    def name(self, variable: IntVar) -> str:
        """The identifier of a scalar variable (one in no array)."""
        return self._scalar[variable]

    def ref(self, term: IntOrVar) -> str:
        """A constant, an array element (1-based) or a scalar's identifier."""
        if isinstance(term, int):
            return str(term)
        array = self._array_of.get(term)
        if array is None:
            return self._scalar[term]
        return f"{array.name}[{', '.join(str(i + 1) for i in array.position(term))}]"

    def offset(self, term: IntOrVar) -> int:
        """What the file adds to the term's model value (0 for constants and scalars)."""
        array = None if isinstance(term, int) else self._array_of.get(term)
        return array.offset if array is not None else 0

    def model_value(self, term: IntOrVar) -> str:
        """An expression of the term's model value."""
        shift = self.offset(term)
        return self.ref(term) if shift == 0 else f"({self.ref(term)} - {shift})"

    def items(self, terms: Iterable[IntOrVar]) -> Items:
        """``terms`` as one array expression: a slice where they are one, a list of
        references sharing an offset, or a list of model values."""
        listed = list(terms)
        offsets = {self.offset(term) for term in listed}
        if len(offsets) > 1:
            return Items("[" + ", ".join(self.model_value(t) for t in listed) + "]", None)
        shared = offsets.pop() if offsets else 0
        found = self._slice(listed)
        if found is not None:
            return Items(found[0], shared, found[1], found[2])
        return Items("[" + ", ".join(self.ref(term) for term in listed) + "]", shared)

    def _slice(self, terms: list[IntOrVar]) -> tuple[str, int, bool] | None:
        """``terms`` as a slice of one array in row-major order, with its number of
        ranged dimensions and whether each starts at index 1, or None."""
        if len(terms) < 2 or not all(isinstance(t, IntVar) for t in terms):
            return None
        arrays = {self._array_of.get(t) for t in terms}  # type: ignore[arg-type]
        array = arrays.pop() if len(arrays) == 1 else None
        if array is None:
            return None
        positions = [array.position(t) for t in terms]  # type: ignore[arg-type]
        low = [min(p[d] for p in positions) for d in range(len(array.shape))]
        high = [max(p[d] for p in positions) for d in range(len(array.shape))]
        box = _box(low, high)
        if positions != box:
            return None
        parts, ranged, from_one = [], 0, True
        for d, size in enumerate(array.shape):
            if low[d] == high[d]:
                parts.append(str(low[d] + 1))
                continue
            ranged += 1
            from_one = from_one and low[d] == 0
            parts.append(".." if (low[d], high[d]) == (0, size - 1)
                         else f"{low[d] + 1}..{high[d] + 1}")
        if all(part == ".." for part in parts):
            return array.name, ranged, True
        return f"{array.name}[{', '.join(parts)}]", ranged, from_one


def _box(low: list[int], high: list[int]) -> list[tuple[int, ...]]:
    """Every position from ``low`` to ``high``, row-major."""
    positions: list[tuple[int, ...]] = [()]
    for lo, hi in zip(low, high):
        positions = [(*p, i) for p in positions for i in range(lo, hi + 1)]
    return positions


def _avoiding(names: list[str], taken: set[str]) -> list[str]:
    """``names`` with a ``_`` added to any an array has taken."""
    return [name + "_" if name in taken else name for name in names]
