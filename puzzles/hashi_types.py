"""Hashiwokakero's instance and solution types: islands on a grid, bridges between them.

>>> HashiSolution((Bridge((2, 0), (2, 2), 1), Bridge.between((2, 0), (0, 0), 2))).bridges
(Bridge(first=(0, 0), second=(2, 0), count=2), Bridge(first=(2, 0), second=(2, 2), count=1))
"""

from __future__ import annotations

from dataclasses import dataclass, field

from puzzles.pictured import DrawnInstance, DrawnSolution

Cell = tuple[int, int]


def cell_name(cell: Cell) -> str:
    """A cell as every message names it, 1-based: ``(row 1, column 3)``."""
    return f"(row {cell[0] + 1}, column {cell[1] + 1})"


@dataclass(frozen=True)
class Island:
    """An island at a 0-based cell, with its number of bridges (1 to 8)."""

    row: int
    column: int
    value: int

    @property
    def cell(self) -> Cell:
        """``(row, column)``, 0-based."""
        return (self.row, self.column)


@dataclass(frozen=True)
class Bridge:
    """``count`` (1 or 2) bridges between the islands at two cells, ``first`` before
    ``second`` in row-major order (use :meth:`between` to build one from any order)."""

    first: Cell
    second: Cell
    count: int

    @classmethod
    def between(cls, one: Cell, other: Cell, count: int) -> Bridge:
        """The bridge between two cells given in either order."""
        first, second = (one, other) if one <= other else (other, one)
        return cls(first, second, count)

    @property
    def horizontal(self) -> bool:
        """True when the bridge runs along a row."""
        return self.first[0] == self.second[0]


@dataclass(frozen=True)
class HashiSolution(DrawnSolution):
    """The bridges, each pair once, sorted; two solutions are equal when they have the
    same bridges (the constructor sorts them, so the order given does not matter)."""

    bridges: tuple[Bridge, ...]

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.bridges, key=lambda b: (b.first, b.second, b.count)))
        object.__setattr__(self, "bridges", ordered)


@dataclass(frozen=True)
class HashiInstance(DrawnInstance):
    """A Hashiwokakero: a ``rows`` x ``columns`` grid and its islands in row-major order."""

    name: str
    rows: int
    columns: int
    islands: tuple[Island, ...]
    known_solution: HashiSolution | None = None
    source: str = field(default="", compare=False)  # the file read: not part of the puzzle

    def island_at(self) -> dict[Cell, Island]:
        """Each island by its cell."""
        return {island.cell: island for island in self.islands}
