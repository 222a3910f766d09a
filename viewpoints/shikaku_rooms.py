"""Shikaku's rooms: a *room* per clue (numbered 1, 2, ... in row-major order of the clues,
the labelling the shipped solution files use), and each room's *placements*, the
rectangles of the clue's area that hold its clue cell, lie inside the grid and hold no
other clue. Every viewpoint starts from them, and so do the propagation levels
(:mod:`viewpoints.shikaku_levels`); a cell that no placement covers makes the instance
unsolvable, said here (``ModelError``, naming the cell) before any model is built.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from puzzlelab.errors import ModelError
from puzzles.shikaku import ShikakuInstance


@dataclass(frozen=True)
class Placement:
    """A rectangle of cells: rows ``top..top+height-1``, columns ``left..left+width-1``."""

    top: int
    left: int
    height: int
    width: int

    def cells(self) -> list[tuple[int, int]]:
        """The cells it covers, row-major."""
        return [(r, c) for r in range(self.top, self.top + self.height)
                for c in range(self.left, self.left + self.width)]

    def covers(self, row: int, column: int) -> bool:
        """Whether (row, column) lies inside."""
        return (self.top <= row < self.top + self.height
                and self.left <= column < self.left + self.width)


@dataclass(frozen=True)
class Room:
    """One clue: its label (1-based, clue order), cell, area and placements."""

    label: int
    row: int
    column: int
    area: int
    placements: tuple[Placement, ...]


def room_placements(instance: ShikakuInstance, row: int, column: int) -> list[Placement]:
    """Every rectangle of the clue's area over (row, column), inside the grid, holding no
    other clue; ordered by height, then top, then left.

    >>> from puzzles.shikaku import ShikakuInstance
    >>> room_placements(ShikakuInstance("t", ((2, 0), (0, 2))), 0, 0)
    [Placement(top=0, left=0, height=1, width=2), Placement(top=0, left=0, height=2, width=1)]
    """
    clues, rows, columns = instance.clues, instance.rows, instance.columns
    area = clues[row][column]
    found = []
    for height in range(1, area + 1):
        if area % height or height > rows or area // height > columns:
            continue
        width = area // height
        for top in range(max(0, row - height + 1), min(row, rows - height) + 1):
            for left in range(max(0, column - width + 1), min(column, columns - width) + 1):
                placement = Placement(top, left, height, width)
                if all(clues[r][c] == 0 or (r, c) == (row, column)
                       for r, c in placement.cells()):
                    found.append(placement)
    return found


def rooms_of(instance: ShikakuInstance) -> list[Room]:
    """The rooms, in row-major clue order, with their placements; raises ``ModelError``
    naming the first cell (row-major) that no placement covers."""
    rooms: list[Room] = []
    for r, row in enumerate(instance.clues):
        for c, clue in enumerate(row):
            if clue:
                rooms.append(Room(len(rooms) + 1, r, c, clue,
                                  tuple(room_placements(instance, r, c))))
    covered = {cell for room in rooms for p in room.placements for cell in p.cells()}
    for r in range(instance.rows):
        for c in range(instance.columns):
            if (r, c) not in covered:
                raise ModelError(f"shikaku {instance.name!r}: no room can cover cell (row "
                                 f"{r + 1}, column {c + 1}), so the puzzle has no solution")
    return rooms


def _largest_first(rooms: list[Room]) -> list[Room]:
    return sorted(rooms, key=lambda room: -room.area)


def _fewest_placements(rooms: list[Room]) -> list[Room]:
    return sorted(rooms, key=lambda room: len(room.placements))


ROOM_ORDERS: dict[str, Callable[[list[Room]], list[Room]]] = {
    "largest-first": _largest_first, "fewest-placements": _fewest_placements}
