"""Random Shikaku layouts, and their repair into puzzles with one solution.

Plain grids here (clue rows, label rows), so that :mod:`puzzles.shikaku` wraps them in
its types. There is no solver in this layer: uniqueness comes from the caller's
``another`` (a solution of a clue grid other than the given labels, or None).

A random partition of a large grid is all but never unique as drawn (two dominoes in a
square lie either way), so drawing again would never end. Instead, the rooms where
another solution differs are repaired: given their clue at another of their cells, or,
after three moves, cut in two. Ambiguities are local, so on a grid larger than a few
windows they are first repaired window by window: the rooms wholly inside a window
form a small puzzle of their own, every other cell of the window a clue 1 (a room of
one cell, which cannot move, so a wall). Another solution of that small puzzle is one
of the whole (outside, nothing changes), found in milliseconds. Rounds on the whole
grid then catch what spans windows.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

Cell = tuple[int, int]
Grid = tuple[tuple[int, ...], ...]
Another = Callable[[Grid, Grid], "tuple[tuple[int | None, ...], ...] | None"]
"""The caller's search: (clues, known labels) -> other labels, or None."""

WINDOW = 16
"""Side of a repair window; windows overlap by half."""


def random_partition(rows: int, columns: int, max_area: int,
                     rng: random.Random) -> list[list[int]]:
    """A random partition of the grid into rectangles of at most ``max_area`` cells,
    labelled 1, 2, ... in the order made.

    Each rectangle starts at the first free cell in row-major order (its top-left corner:
    every cell before it is taken): a random width up to the free run of that row, then a
    random height up to what the area allows and the free cells below permit. Linear in
    the cells times ``max_area``: a 200x200 grid takes a fraction of a second.
    """
    labels = [[0] * columns for _ in range(rows)]
    label = 0
    for top in range(rows):
        row = labels[top]
        for left in range(columns):
            if row[left]:
                continue
            run = 1
            while run < max_area and left + run < columns and not row[left + run]:
                run += 1
            width = rng.randint(1, run)
            height = 1
            while (height < max_area // width and top + height < rows
                   and not any(labels[top + height][left:left + width])):
                height += 1
            height = rng.randint(1, height)
            label += 1
            for r in range(top, top + height):
                labels[r][left:left + width] = [label] * width
    return labels


class Layout:
    """Rooms (label -> cells, row-major) and where each room's clue is."""

    def __init__(self, labels: list[list[int]], rng: random.Random) -> None:
        self.rows, self.columns = len(labels), len(labels[0])
        self.rng = rng
        self.rooms: dict[int, list[Cell]] = {}
        for r, row in enumerate(labels):
            for c, label in enumerate(row):
                self.rooms.setdefault(label, []).append((r, c))
        self.clue_at = {label: rng.choice(cells) for label, cells in self.rooms.items()}
        self.moves: dict[int, int] = {}

    def grids(self, top: int = 0, left: int = 0, rows: int | None = None,
              columns: int | None = None) -> tuple[Grid, Grid]:
        """Clues and labels of a window (the whole grid by default): the rooms wholly
        inside keep theirs, every other cell is a clue 1 with a label of its own."""
        rows = self.rows if rows is None else rows
        columns = self.columns if columns is None else columns
        clues = [[1] * columns for _ in range(rows)]
        labels = [[-(r * columns + c) - 1 for c in range(columns)] for r in range(rows)]
        for label in self._inside(top, left, rows, columns):
            cells = self.rooms[label]
            for r, c in cells:
                clues[r - top][c - left] = 0
                labels[r - top][c - left] = label
            r, c = self.clue_at[label]
            clues[r - top][c - left] = len(cells)
        return tuple(map(tuple, clues)), tuple(map(tuple, labels))

    def repair(self, other: tuple[tuple[int | None, ...], ...], top: int = 0,
               left: int = 0) -> None:
        """Move the clue of (or cut) every room whose cells differ in ``other``, the
        labels of the window at (top, left)."""
        cells_of: dict[int | None, set[Cell]] = {}
        for r, row in enumerate(other):
            for c, label in enumerate(row):
                cells_of.setdefault(label, set()).add((r + top, c + left))
        rows, columns = len(other), len(other[0])
        for label in self._inside(top, left, rows, columns):
            cells, (r, c) = self.rooms[label], self.clue_at[label]
            if len(cells) > 1 and cells_of[other[r - top][c - left]] != set(cells):
                self._move(label)

    def _inside(self, top: int, left: int, rows: int, columns: int) -> Iterator[int]:
        for label, cells in list(self.rooms.items()):
            (first_row, first_column), (last_row, last_column) = cells[0], cells[-1]
            if (top <= first_row and last_row < top + rows
                    and left <= first_column and last_column < left + columns):
                yield label

    def _move(self, label: int) -> None:
        self.moves[label] = self.moves.get(label, 0) + 1
        cells = self.rooms[label]
        if self.moves[label] <= 3:
            self.clue_at[label] = self.rng.choice([c for c in cells
                                                   if c != self.clue_at[label]])
            return
        self.moves[label] = 0
        (top, left), (bottom, right) = cells[0], cells[-1]
        tall = bottom - top >= right - left
        cut = self.rng.randint(top + 1, bottom) if tall else self.rng.randint(left + 1, right)
        first = [(r, c) for r, c in cells if (r if tall else c) < cut]
        second = [cell for cell in cells if cell not in first]
        new = max(self.rooms) + 1
        self.rooms[label], self.rooms[new] = first, second
        self.clue_at[label], self.clue_at[new] = self.rng.choice(first), self.rng.choice(second)

    def windows(self) -> Iterator[tuple[int, int, int, int]]:
        """Overlapping windows covering the grid: (top, left, rows, columns)."""
        step = WINDOW // 2
        for top in range(0, max(1, self.rows - step), step):
            for left in range(0, max(1, self.columns - step), step):
                yield (top, left, min(WINDOW, self.rows - top),
                       min(WINDOW, self.columns - left))


def unique_layout(layout: Layout, another: Another, rounds: int = 60) -> bool:
    """Repair ``layout`` until ``another`` finds no other solution (True), or give up
    after ``rounds`` rounds on the whole grid (False)."""
    if layout.rows > 2 * WINDOW or layout.columns > 2 * WINDOW:
        for window in layout.windows():
            for _ in range(rounds):
                other = another(*layout.grids(*window))
                if other is None:
                    break
                layout.repair(other, window[0], window[1])
    for _ in range(rounds):
        other = another(*layout.grids())
        if other is None:
            return True
        layout.repair(other)
    return False
