"""Random Shikaku layouts, and their repair into puzzles with one solution.

Plain grids here (clue rows, label rows), so that :mod:`puzzles.shikaku` wraps them in
its types. There is no solver in this layer: uniqueness comes from the caller's
``another`` (a solution of a clue grid other than the given labels, or None) and, when
given, its ``is_unique`` (a complete count: exactly one solution?).

A random partition of a large grid is all but never unique as drawn (two dominoes in a
square lie either way), so drawing again would never end. Instead, the rooms where
another solution differs are repaired. Those rooms fall into independent *ambiguities*
(two rooms belong together when one takes a cell the other had): keeping every other
room where it is, each ambiguity alone is another solution. So one room of each gets its
clue moved to a cell its other placement leaves out, which rules that placement out, or,
after three moves, is cut in two.

Ambiguities are local, so on a grid larger than a few windows they are first repaired
window by window: the rooms wholly inside a window form a small puzzle of their own,
every other cell of the window a clue 1 (a room of one cell, which cannot move, so a
wall). Another solution of that small puzzle is one of the whole (outside, nothing
changes), found in milliseconds; ``is_unique`` clears a window in one search. A repair
can start an ambiguity across a window already cleared, so every window holding a
repaired room is checked again. The whole grid is then settled: ``is_unique`` on the
whole (the proof, a complete search) or, without it, ``another`` finding nothing; what a
whole-grid solution still shows is repaired, with its windows, and the whole checked
again. Windows decide nothing about the answer, only how soon the proof holds.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable

Cell = tuple[int, int]
Grid = tuple[tuple[int, ...], ...]
Labels = tuple[tuple[int | None, ...], ...]
Window = tuple[int, int, int, int]
"""(top, left, rows, columns) of a part of the grid."""
Another = Callable[[Grid, Grid], "Labels | None"]
"""The caller's search: (clues, known labels) -> other labels, or None."""
Unique = Callable[[Grid, Grid], bool]
"""The caller's complete count: (clues, known labels) -> exactly one solution?"""

SQUARE, SQUARE_STEP = 24, 16
"""Side of a square window, and how far apart squares start: every ambiguity at most 9
cells high and wide lies wholly inside one."""
BAND, BAND_STEP = 16, 14
"""Width of a band down or across the whole grid, and how far apart bands start: every
ambiguity at most 3 cells wide (or high) lies wholly inside one, however long."""
MOVES = 3
"""Clue moves of one room before it is cut in two instead."""


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
    """Rooms (label -> cells, row-major), where each room's clue is, and each cell's room."""

    def __init__(self, labels: list[list[int]], rng: random.Random) -> None:
        self.rows, self.columns = len(labels), len(labels[0])
        self.rng = rng
        self.label_of = [list(row) for row in labels]
        self.rooms: dict[int, list[Cell]] = {}
        for r, row in enumerate(labels):
            for c, label in enumerate(row):
                self.rooms.setdefault(label, []).append((r, c))
        self.clue_at = {label: rng.choice(cells) for label, cells in self.rooms.items()}
        self.moves: dict[int, int] = {}

    def whole(self) -> Window:
        """The whole grid as a window."""
        return (0, 0, self.rows, self.columns)

    def inside(self, window: Window) -> list[int]:
        """The rooms wholly inside ``window``, in row-major order of their first cells
        (a room's first cell is its top-left corner, its last the bottom-right)."""
        top, left, rows, columns = window
        found = []
        for r in range(top, top + rows):
            for c in range(left, left + columns):
                cells = self.rooms[self.label_of[r][c]]
                if cells[0] == (r, c):
                    last_row, last_column = cells[-1]
                    if last_row < top + rows and last_column < left + columns:
                        found.append(self.label_of[r][c])
        return found

    def grids(self, window: Window | None = None) -> tuple[Grid, Grid]:
        """Clues and labels of a window (the whole grid by default): the rooms wholly
        inside keep theirs, every other cell is a clue 1 with a label of its own."""
        top, left, rows, columns = window or self.whole()
        clues = [[1] * columns for _ in range(rows)]
        labels = [[-(r * columns + c) - 1 for c in range(columns)] for r in range(rows)]
        for label in self.inside((top, left, rows, columns)):
            cells = self.rooms[label]
            for r, c in cells:
                clues[r - top][c - left] = 0
                labels[r - top][c - left] = label
            r, c = self.clue_at[label]
            clues[r - top][c - left] = len(cells)
        return tuple(map(tuple, clues)), tuple(map(tuple, labels))

    def repair(self, other: Labels, window: Window | None = None) -> list[int]:
        """Rule out ``other`` (the labels of another solution of ``window``, the whole grid
        by default): in each ambiguity, one room (at random) gets its clue moved to a cell
        its placement in ``other`` leaves out, or is cut in two. The rooms changed."""
        top, left, rows, columns = window or self.whole()
        inside = self.inside((top, left, rows, columns))
        placed: dict[int | None, set[Cell]] = {}  # other's rooms by their labels there
        for r, row in enumerate(other):
            for c, label in enumerate(row):
                placed.setdefault(label, set()).add((r + top, c + left))
        owner = {other[r - top][c - left]: label
                 for label in inside for r, c in [self.clue_at[label]]}
        parent = {label: label for label in inside}

        def root(label: int) -> int:
            while parent[label] != label:
                parent[label] = label = parent[parent[label]]
            return label

        for r in range(top, top + rows):
            for c in range(left, left + columns):
                known, taken = self.label_of[r][c], owner.get(other[r - top][c - left])
                if taken is not None and known != taken and known in parent:
                    parent[root(known)] = root(taken)
        ambiguities: dict[int, list[int]] = {}
        for label in inside:
            r, c = self.clue_at[label]
            cells = self.rooms[label]
            if len(cells) > 1 and placed[other[r - top][c - left]] != set(cells):
                ambiguities.setdefault(root(label), []).append(label)
        changed = []
        for rooms in ambiguities.values():
            label = self.rng.choice(rooms)
            r, c = self.clue_at[label]
            changed += self._move(label, placed[other[r - top][c - left]])
        return changed

    def _move(self, label: int, elsewhere: set[Cell]) -> list[int]:
        """Move the clue of room ``label`` off the cells ``elsewhere`` (its other
        placement), or, after ``MOVES`` moves, cut the room in two; the rooms changed."""
        self.moves[label] = self.moves.get(label, 0) + 1
        cells = self.rooms[label]
        if self.moves[label] <= MOVES:
            self.clue_at[label] = self.rng.choice([c for c in cells if c not in elsewhere]
                                                  or [c for c in cells
                                                      if c != self.clue_at[label]])
            return [label]
        self.moves[label] = 0
        (top, left), (bottom, right) = cells[0], cells[-1]
        tall = bottom - top >= right - left
        cut = self.rng.randint(top + 1, bottom) if tall else self.rng.randint(left + 1, right)
        first = [(r, c) for r, c in cells if (r if tall else c) < cut]
        second = [cell for cell in cells if cell not in first]
        new = max(self.rooms) + 1
        self.rooms[label], self.rooms[new] = first, second
        for r, c in second:
            self.label_of[r][c] = new
        self.clue_at[label], self.clue_at[new] = self.rng.choice(first), self.rng.choice(second)
        return [label, new]

    def windows(self) -> list[Window]:
        """The windows to settle before the whole grid, in order: overlapping squares row
        by row, then bands down and across the grid (none on a grid of a few squares)."""
        if self.rows <= 2 * SQUARE and self.columns <= 2 * SQUARE:
            return []
        squares = [(top, left, min(SQUARE, self.rows - top), min(SQUARE, self.columns - left))
                   for top in _starts(self.rows, SQUARE, SQUARE_STEP)
                   for left in _starts(self.columns, SQUARE, SQUARE_STEP)]
        down = [(0, left, self.rows, min(BAND, self.columns - left))
                for left in _starts(self.columns, BAND, BAND_STEP)]
        across = [(top, 0, min(BAND, self.rows - top), self.columns)
                  for top in _starts(self.rows, BAND, BAND_STEP)]
        return [*squares, *down, *across]

    def holding(self, labels: Iterable[int], windows: list[Window]) -> list[Window]:
        """The windows, of ``windows``, that hold one of the rooms ``labels`` wholly."""
        boxes = [(*self.rooms[label][0], *self.rooms[label][-1]) for label in labels]
        return [window for window in windows
                if any(window[0] <= top and bottom < window[0] + window[2]
                       and window[1] <= left and right < window[1] + window[3]
                       for top, left, bottom, right in boxes)]


def _starts(length: int, side: int, step: int) -> range:
    """Where windows of ``side`` cells, ``step`` apart, start along ``length`` cells."""
    return range(0, max(1, length - side + step), step)


def unique_layout(layout: Layout, another: Another, is_unique: Unique | None = None,
                  rounds: int = 60) -> bool:
    """Repair ``layout`` until its whole grid has one solution (True), or give up (False):
    after ``rounds`` repairs of the whole grid, or when ``is_unique`` says no and
    ``another`` finds nothing (its search ran out of time).

    The windows of :meth:`Layout.windows` are settled first, in order: each is repaired
    until ``is_unique`` holds of it or ``another`` finds nothing (or ``rounds`` times),
    and every window holding a room changed goes back in the queue. Then the whole grid:
    True means that it was cleared after the last change, by ``is_unique`` when given
    (its proof), else by ``another``; a repair there settles its windows again first.
    """
    windows = layout.windows()
    pending, waiting = deque(windows), set(windows)

    def queue(changed: list[int], window: Window | None = None) -> None:
        for again in layout.holding(changed, windows):
            if again != window and again not in waiting:
                pending.append(again)
                waiting.add(again)

    for _ in range(rounds):
        while pending:
            window = pending.popleft()
            waiting.discard(window)
            for _ in range(rounds):
                grids = layout.grids(window)
                other = None if is_unique is not None and is_unique(*grids) else another(*grids)
                if other is None:
                    break
                queue(layout.repair(other, window), window)
        grids = layout.grids()
        if is_unique is not None and is_unique(*grids):
            return True
        other = another(*grids)
        if other is None:
            return is_unique is None
        queue(layout.repair(other))
    return False
