"""Hashiwokakero ("bridges"): join islands by straight bridges, as many as each one's number.

Rules: a bridge runs straight along a row or a column between two islands that see each
other (nothing but empty cells between them); a pair has at most two bridges; bridges
do not cross; each island has as many bridges as its number; all islands are connected.
Islands side by side see each other (KU Leuven's puzzle 1 has a 2x2 block of them).

>>> puzzle = HashiInstance("pair", 1, 3, (Island(0, 0, 2), Island(0, 2, 2)))
>>> [(first.column, second.column) for first, second in neighbours(puzzle)]
[(0, 2)]
"""

from __future__ import annotations

from dataclasses import dataclass, field

Cell = tuple[int, int]


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
class HashiSolution:
    """The bridges, each pair once, sorted; two solutions are equal when they have the
    same bridges (the constructor sorts them, so the order given does not matter)."""

    bridges: tuple[Bridge, ...]

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.bridges, key=lambda b: (b.first, b.second, b.count)))
        object.__setattr__(self, "bridges", ordered)


@dataclass(frozen=True)
class HashiInstance:
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


def neighbours(instance: HashiInstance) -> list[tuple[Island, Island]]:
    """Every pair of islands that see each other (same row or column, only empty cells
    between), the first island first in row-major order; pairs sorted by their cells.

    Each island is paired with the next island to its right and the next one below.
    """
    at = instance.island_at()
    pairs = []
    for island in instance.islands:
        for step_row, step_column in ((0, 1), (1, 0)):
            row, column = island.row + step_row, island.column + step_column
            while row < instance.rows and column < instance.columns:
                other = at.get((row, column))
                if other is not None:
                    pairs.append((island, other))
                    break
                row, column = row + step_row, column + step_column
    pairs.sort(key=lambda pair: (pair[0].cell, pair[1].cell))
    return pairs


def crossing_pairs(instance: HashiInstance) -> list[tuple[int, int]]:
    """Indices ``(i, j)``, ``i < j``, into :func:`neighbours` of the pairs whose bridges
    would cross: one horizontal, one vertical, meeting at a cell strictly inside both
    (an empty cell, since only empty cells lie between two islands that see each other).
    Sorted. Each horizontal pair marks the cells it passes; each vertical pair looks
    them up, so the cost is the cells passed, not the product of the pair counts.
    """
    pairs = neighbours(instance)
    passing: dict[Cell, int] = {}
    for index, (first, second) in enumerate(pairs):
        if first.row == second.row:
            for column in range(first.column + 1, second.column):
                passing[(first.row, column)] = index
    crossings = []
    for index, (first, second) in enumerate(pairs):
        if first.column == second.column:
            for row in range(first.row + 1, second.row):
                other = passing.get((row, first.column))
                if other is not None:
                    crossings.append((min(index, other), max(index, other)))
    crossings.sort()
    return crossings
