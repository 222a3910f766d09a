"""Hashiwokakero's words for its viewpoints' arrays, with cells named ``(row,column)``
1-based as the islands' labels name them: ``2 bridges join (1,1) and (1,4)`` for a
pair's count (``bridges[k]``, the k-th pair of :func:`~puzzles.hashi_sight.neighbours`),
``no bridge leaves (2,5) to the east`` for a cell's (``leaving[r][c][d]``, d = north,
east, south, west).

A subject's cells are the grid cells its bridges would cover, island to island
inclusive; a direction's, from its cell to the next island that way (or the edge).
"""

from __future__ import annotations

from collections.abc import Sequence

from puzzlelab.errors import UnknownName
from puzzles.hashi_sight import neighbours
from puzzles.hashi_types import HashiInstance, Island
from viewpoints.terms import Cell, Subject
from viewpoints.wording import PerInstance, listed

DIRECTIONS = (("north", -1, 0), ("east", 0, 1), ("south", 1, 0), ("west", 0, -1))
"""The fourth index of ``leaving``: its word and its step (rows, columns)."""


def place(cell: Cell) -> str:
    """A cell as the islands' labels name it: ``(1,4)``, 1-based (row, column)."""
    return f"({cell[0] + 1},{cell[1] + 1})"


def _span(a: Cell, b: Cell) -> tuple[Cell, ...]:
    """The cells from ``a`` to ``b`` (same row or column), both included."""
    (r1, c1), (r2, c2) = sorted((a, b))
    return tuple((r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1))


def _count(values: Sequence[int], verb: tuple[str, str]) -> str:
    """``no bridge joins``, ``2 bridges join``, ``1 or 2 bridges join``: the number
    agrees with the last value listed."""
    if list(values) == [0]:
        return f"no bridge {verb[0]}"
    one = values[-1] == 1
    return f"{listed([str(v) for v in values])} {'bridge' if one else 'bridges'} " \
           f"{verb[0] if one else verb[1]}"


class HashiTerms:
    """Pairs of islands and cells' directions, in the islands' (row,column) words."""

    def __init__(self) -> None:
        self._pairs = PerInstance(neighbours)
        self._islands = PerInstance(lambda instance: instance.island_at())

    def subject(self, instance: HashiInstance, array: str, index: tuple[int, ...]) -> Subject:
        if array == "bridges":
            a, b = self._pairs(instance)[index[0]]
            return Subject(f"the bridges between {place(a.cell)} and {place(b.cell)}",
                           _span(a.cell, b.cell))
        if array == "leaving":
            r, c, direction = index
            word, down, right = DIRECTIONS[direction]
            islands: dict[Cell, Island] = self._islands(instance)
            cells = [(r, c)]
            while (0 <= cells[-1][0] + down < instance.rows
                   and 0 <= cells[-1][1] + right < instance.columns
                   and (len(cells) == 1 or cells[-1] not in islands)):
                cells.append((cells[-1][0] + down, cells[-1][1] + right))
            return Subject(f"the bridges leaving {place((r, c))} to the {word}", tuple(cells))
        raise UnknownName("hashi array", array, ["bridges", "leaving"])

    def mark(self, array: str, index: tuple[int, ...], value: int) -> str:
        return str(value)  # a count of bridges, drawn where one cell is all it covers

    def fact(self, subject: Subject, array: str, values: Sequence[int],
             removed: Sequence[int]) -> str:
        """The values left, said as numbers of bridges (``1 or 2 bridges join ...``):
        with at most three values, what is left reads better than what is not."""
        if array == "bridges":
            ends = subject.name.removeprefix("the bridges between ")
            return f"{_count(values, ('joins', 'join'))} {ends}"
        if array == "leaving":
            where = subject.name.removeprefix("the bridges leaving ")
            return f"{_count(values, ('leaves', 'leave'))} {where}"
        raise UnknownName("hashi array", array, ["bridges", "leaving"])
