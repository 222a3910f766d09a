"""Random Hashiwokakero instances: a connected layout grown bridge by bridge, repaired until unique.

The layout is a solution by construction: each new island is reached from one already
placed by a straight bridge over free cells (no island, no bridge), so bridges never
cross, every island is connected, and each island has at most two bridges in each of
four directions (at most 8). Now and then, and whenever no island has a free cell in
line, a new island is put on a bridge instead, cutting it in two (two bridges of the same
count), so any number of islands up to the cells can be placed. Some pairs of islands
that end up seeing each other over free cells get a bridge too, so the layout is not
always a tree. Each island's number is then read off the layout (:func:`laid_instance`).

A random layout is all but never unique as drawn on a large grid, so drawing again would
not end. :func:`told_apart` repairs it instead, where another solution differs: no
solver here, the caller finds that other solution (:func:`generate`).

>>> import random
>>> islands, bridges = random_layout(5, 5, 6, random.Random(1))
>>> len(islands), len(bridges) >= 5
(6, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable

from puzzles.hashi_types import Bridge, Cell, HashiInstance, HashiSolution, Island
from puzzles.options import Size

LaidBridge = tuple[Cell, Cell, int]  # first before second in row-major order

_DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))


class _Layout:
    """The islands and bridge cells placed so far."""

    def __init__(self, rows: int, columns: int) -> None:
        self.rows, self.columns = rows, columns
        self.islands: list[Cell] = []
        self.island_cells: set[Cell] = set()
        self.bridge_cells: dict[Cell, tuple[Cell, Cell]] = {}  # the bridge over each
        self.bridges: dict[tuple[Cell, Cell], int] = {}

    def free_run(self, start: Cell, step: Cell) -> list[Cell]:
        """The free cells from ``start`` (excluded) in direction ``step``, up to the
        first island, bridge cell or edge."""
        run = []
        row, column = start[0] + step[0], start[1] + step[1]
        while 0 <= row < self.rows and 0 <= column < self.columns and \
                (row, column) not in self.island_cells and \
                (row, column) not in self.bridge_cells:
            run.append((row, column))
            row, column = row + step[0], column + step[1]
        return run

    def add_island(self, cell: Cell) -> None:
        self.islands.append(cell)
        self.island_cells.add(cell)

    def add_bridge(self, one: Cell, other: Cell, count: int) -> None:
        first, second = (one, other) if one <= other else (other, one)
        self.bridges[(first, second)] = count
        for cell in _cells_between(first, second):
            self.bridge_cells[cell] = (first, second)

    def split(self, cell: Cell) -> None:
        """A new island on ``cell``, which a bridge passes: the bridge becomes two."""
        first, second = self.bridge_cells[cell]
        count = self.bridges.pop((first, second))
        self.add_island(cell)
        del self.bridge_cells[cell]
        self.add_bridge(first, cell, count)
        self.add_bridge(cell, second, count)


def _cells_between(first: Cell, second: Cell) -> list[Cell]:
    if first[0] == second[0]:
        return [(first[0], column) for column in range(first[1] + 1, second[1])]
    return [(row, first[1]) for row in range(first[0] + 1, second[0])]


def random_layout(rows: int, columns: int, islands: int, rng: random.Random,
                  extra_share: float = 0.3, split_share: float = 0.05, tries: int = 30,
                  apart: bool = False) -> tuple[list[Cell], list[LaidBridge]] | None:
    """``islands`` island cells (row-major, at most the grid's cells) and the bridges
    joining them all, sorted; with ``apart``, no two islands side by side (None when
    no more island finds room).

    Each step draws a placed island, a direction and a distance within the free run
    that way (or, with probability ``split_share``, a bridge cell to split); after
    ``tries`` draws that find no free run, every possible step is listed and one drawn
    from them, and when there is none a bridge cell is split. Then each pair of islands
    that see each other over free cells gets a bridge with probability ``extra_share``.
    """
    if not 1 <= islands <= rows * columns:
        raise ValueError(f"{islands} islands do not fit a {rows}x{columns} grid")
    layout = _Layout(rows, columns)
    layout.add_island((rng.randrange(rows), rng.randrange(columns)))
    while len(layout.islands) < islands:
        split = layout.bridge_cells and rng.random() < split_share
        step = None if split else _random_step(layout, rng, tries, apart)
        if step is None:
            splits = [cell for cell in sorted(layout.bridge_cells)
                      if not (apart and _beside_an_island(layout, cell))]
            if splits:
                layout.split(rng.choice(splits))
                continue
            step = _random_step(layout, rng, tries, apart) if split else None
            if step is None:
                return None
        source, run = step
        layout.add_island(run[-1])
        layout.add_bridge(source, run[-1], rng.choice((1, 2)))
    for island in sorted(layout.islands):
        for step_to in ((0, 1), (1, 0)):
            run = layout.free_run(island, step_to)
            end = (island[0] + step_to[0] * (len(run) + 1),
                   island[1] + step_to[1] * (len(run) + 1))
            if end in layout.island_cells and (island, end) not in layout.bridges and \
                    rng.random() < extra_share:
                layout.add_bridge(island, end, rng.choice((1, 2)))
    return sorted(layout.islands), sorted((first, second, count) for (first, second), count
                                          in layout.bridges.items())


def _random_step(layout: _Layout, rng: random.Random, tries: int, apart: bool = False
                 ) -> tuple[Cell, list[Cell]] | None:
    """A placed island and the free cells to the new island's cell (the last one); with
    ``apart``, a cell beside no island."""
    for _ in range(tries):
        source = rng.choice(layout.islands)
        run = layout.free_run(source, rng.choice(_DIRECTIONS))
        if not apart:
            if run:
                return source, run[:rng.randint(1, len(run))]
            continue
        lengths = _lengths_apart(layout, run)
        if lengths:
            return source, run[:rng.choice(lengths)]
    steps = [(source, run[:length]) for source in layout.islands for direction in _DIRECTIONS
             for run in [layout.free_run(source, direction)]
             for length in (_lengths_apart(layout, run) if apart else range(1, len(run) + 1))]
    return rng.choice(steps) if steps else None


def _lengths_apart(layout: _Layout, run: list[Cell]) -> list[int]:
    """The lengths of ``run`` (free cells in a line from an island) whose last cell is
    beside no island: where a new island may go when islands are kept apart."""
    return [length for length in range(2, len(run) + 1)
            if not _beside_an_island(layout, run[length - 1])]


def _beside_an_island(layout: _Layout, cell: Cell) -> bool:
    return any((cell[0] + step[0], cell[1] + step[1]) in layout.island_cells
               for step in _DIRECTIONS)


def told_apart(bridges: list[LaidBridge], other: dict[tuple[Cell, Cell], int],
               rng: random.Random) -> list[LaidBridge]:
    """``bridges`` (the known solution) changed so that ``other`` (another solution of the
    same islands, bridge counts by pair) no longer fits the islands' numbers.

    The pairs whose counts differ fall into groups joined by shared islands (each group is
    one place where the puzzle is ambiguous); in each, one known bridge, drawn at random,
    turns from 1 to 2 bridges or from 2 to 1. Its two islands' numbers change with it, so
    the known solution stays one (same lines, same connections) and ``other``, which kept
    their old numbers, is ruled out. There is always such a bridge: two solutions of the
    same numbers cannot differ only by bridges the known one lacks.
    """
    differing = [(first, second) for first, second, count in bridges
                 if other.get((first, second), 0) != count]
    differing += [pair for pair in other if pair not in {(f, s) for f, s, _ in bridges}]
    parent: dict[Cell, Cell] = {}

    def root(cell: Cell) -> Cell:
        parent.setdefault(cell, cell)
        while parent[cell] != cell:
            parent[cell] = cell = parent[parent[cell]]
        return cell

    for first, second in differing:
        parent[root(first)] = root(second)
    known = {(first, second): count for first, second, count in bridges}
    groups: dict[Cell, list[tuple[Cell, Cell]]] = {}
    for pair in differing:
        if pair in known:
            groups.setdefault(root(pair[0]), []).append(pair)
    for pairs in groups.values():
        pair = rng.choice(sorted(pairs))
        if rng.random() < DROP_SHARE and _connected_without(known, pair):
            del known[pair]
        else:
            known[pair] = 3 - known[pair]
    return sorted((first, second, count) for (first, second), count in known.items())


DROP_SHARE = 0.5
"""How often a repair takes the bridge away (when the rest stays connected) instead of
changing its count: flips alone can go round a cycle of islands for ever."""


def _connected_without(bridges: dict[tuple[Cell, Cell], int], left_out: tuple[Cell, Cell]
                       ) -> bool:
    """Do ``bridges`` without ``left_out`` still join every island they touch?"""
    neighbours: dict[Cell, list[Cell]] = {}
    for first, second in bridges:
        neighbours.setdefault(first, [])
        neighbours.setdefault(second, [])
        if (first, second) != left_out:
            neighbours[first].append(second)
            neighbours[second].append(first)
    start = next(iter(neighbours))
    seen, stack = {start}, [start]
    while stack:
        for reached in neighbours[stack.pop()]:
            if reached not in seen:
                seen.add(reached)
                stack.append(reached)
    return len(seen) == len(neighbours)


REPAIR_ROUNDS = 200
"""Repairs of one layout before it is given up (a 30x30 grid with 150 islands needs a few
dozen)."""


def generate(size: Size, islands: int, rng: random.Random, name: str,
             is_unique: Callable[[HashiInstance], bool] | None = None,
             another_solution: Callable[[HashiInstance], HashiSolution | None] | None = None,
             rounds: int = REPAIR_ROUNDS, apart: bool = False) -> HashiInstance | None:
    """A random connected layout of ``islands`` islands (its known solution), each island's
    number read off it; with ``apart``, no two islands side by side (None when the
    layout found no room for them all). With ``is_unique`` and ``another_solution``,
    repaired until unique: each other solution found is ruled out where it differs
    (:func:`told_apart`); None after ``rounds`` repairs, or when a count says no and no
    other solution is found (its search ran out of time)."""
    layout = random_layout(size.rows, size.columns, islands, rng, apart=apart)
    if layout is None:
        return None
    cells, laid = layout
    made = laid_instance(name, size, cells, laid)
    if is_unique is None or another_solution is None:
        return made
    for _ in range(rounds):
        if is_unique(made):
            return made
        other = another_solution(made)
        if other is None:
            return None
        laid = told_apart(laid, {(b.first, b.second): b.count for b in other.bridges}, rng)
        made = laid_instance(name, size, cells, laid)
    return None


def laid_instance(name: str, size: Size, cells: list[Cell],
                  laid: list[LaidBridge]) -> HashiInstance:
    """The instance whose known solution is ``laid``: each island's number read off it."""
    degree = dict.fromkeys(cells, 0)
    for first, second, count in laid:
        degree[first] += count
        degree[second] += count
    known = HashiSolution(tuple(Bridge(first, second, count) for first, second, count in laid))
    return HashiInstance(name, size.rows, size.columns,
                         tuple(Island(r, c, degree[(r, c)]) for r, c in cells), known)
