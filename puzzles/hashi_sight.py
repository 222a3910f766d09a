"""Which Hashiwokakero islands see each other, and which of their bridges would cross.

Two islands see each other along a row or a column with only empty cells between them
(islands side by side too): those are the pairs a bridge may join, which the viewpoints
model and the reader requires of every island. The checker does not use them; it judges
the bridges a solution gives, so it stays independent of the models.

>>> puzzle = HashiInstance("pair", 1, 3, (Island(0, 0, 2), Island(0, 2, 2)))
>>> [(first.column, second.column) for first, second in neighbours(puzzle)]
[(0, 2)]
"""

from __future__ import annotations

from puzzles.hashi_types import Cell, HashiInstance, Island


def neighbours(instance: HashiInstance) -> list[tuple[Island, Island]]:
    """Every pair of islands that see each other (same row or column, only empty cells
    between), the first island first in row-major order; pairs sorted by their cells.

    Each island is paired with the next island to its right and the next one below:
    in row-major order, the next in its row and the next in its column.
    """
    ordered = sorted(instance.islands, key=lambda island: (island.row, island.column))
    pairs = []
    below: dict[int, Island] = {}  # by column, the last island met
    for island, following in zip(ordered, [*ordered[1:], None]):
        if following is not None and following.row == island.row:
            pairs.append((island, following))
        above = below.get(island.column)
        if above is not None:
            pairs.append((above, island))
        below[island.column] = island
    pairs.sort(key=lambda pair: (pair[0].row, pair[0].column, pair[1].row, pair[1].column))
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
