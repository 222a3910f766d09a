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

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import ClassVar

from puzzlelab.errors import OptionError, ParseError
from puzzles.hashi_formats import Cell, ReadBlock, read_blocks, write_has
from puzzles.hashi_generator import random_layout, told_apart
from puzzles.hashi_pictures import render_svg, render_text  # noqa: F401 (the render roles)
from puzzles.json_forms import number_rows
from puzzles.kind import PuzzleKind, known_solution_checked, register
from puzzles.options import Option, OptionValues, Size
from puzzles.text_input import read_text


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


# ---------------------------------------------------------------- files


def _instance(block: ReadBlock, source: str) -> HashiInstance:
    """The instance of a block read from ``source``: every island must see another, and a
    known solution must solve it."""
    islands = tuple(Island(r, c, int(token.text)) for (r, c), token in block.islands.items())
    if not islands:
        raise ParseError(f"{block.name!r} has no islands", source=source, line=block.size_line)
    instance = HashiInstance(block.name, block.rows, block.columns, islands, None, source)
    seeing = {island.cell for pair in neighbours(instance) for island in pair}
    for island in islands:
        if island.cell not in seeing:
            token = block.islands[island.cell]
            raise ParseError(f"the island at {_at(island.cell)} sees no other island (no "
                             f"empty row or column leads to one), so no bridge can reach it",
                             source=source, line=token.line, column=token.column)
    if block.bridges is None:
        return instance
    known = HashiSolution(tuple(Bridge.between(first, second, count)
                                for first, second, count in block.bridges))
    return replace(instance, known_solution=known_solution_checked(
        instance, known, check, block.name, source, block.solution_line))


def parse(text: str, source: str = "<string>") -> list[HashiInstance]:
    """Every instance in ``text``, in order; bad input raises ``ParseError`` (file:line:col).
    A ``.has`` text holds one instance, named after the file."""
    return [_instance(block, source) for block in read_blocks(text, source)]


def read(path: Path) -> list[HashiInstance]:
    """Every instance of the file, with the known solutions it gives."""
    return parse(read_text(Path(path)), str(path))


def write(instance: HashiInstance, solution: HashiSolution | None = None) -> str:
    """The instance as ``.has`` text (its name is the file's), with ``solution`` when given."""
    values = {island.cell: island.value for island in instance.islands}
    bridges = None if solution is None else [(bridge.first, bridge.second, bridge.count)
                                             for bridge in solution.bridges]
    return write_has(instance.rows, instance.columns, values, bridges)


# ---------------------------------------------------------------- checking


def _at(cell: Cell) -> str:
    return f"(row {cell[0] + 1}, column {cell[1] + 1})"


def _between(first: Cell, second: Cell) -> str:
    return f"between {_at(first)} and {_at(second)}"


def _misplaced(instance: HashiInstance, at: dict[Cell, Island], bridge: Bridge) -> str | None:
    """Why ``bridge`` does not join two islands that see each other, or None."""
    (r1, c1), (r2, c2) = bridge.first, bridge.second
    for cell in (bridge.first, bridge.second):
        if not (0 <= cell[0] < instance.rows and 0 <= cell[1] < instance.columns):
            return f"has an end {_at(cell)} outside the {instance.rows}x{instance.columns} grid"
        if cell not in at:
            return f"has an end {_at(cell)} that is not an island"
    if bridge.first == bridge.second:
        return "joins an island to itself"
    if r1 != r2 and c1 != c2:
        return "is not straight (its ends share neither a row nor a column)"
    inside = ([(r1, c) for c in range(c1 + 1, c2)] if r1 == r2
              else [(r, c1) for r in range(r1 + 1, r2)])
    blocking = [cell for cell in inside if cell in at]
    if blocking:
        return f"passes over the island at {_at(blocking[0])}"
    return None


def _groups(cells: Iterable[Cell], pairs: Iterable[tuple[Cell, Cell]]) -> list[list[Cell]]:
    """The groups of ``cells`` that ``pairs`` join, each sorted, ordered by their first
    cell (a search by hand: the checker stays independent of the models' networkx).

    >>> _groups([(0, 0), (0, 2), (1, 1)], [((0, 0), (0, 2))])
    [[(0, 0), (0, 2)], [(1, 1)]]
    """
    linked: dict[Cell, list[Cell]] = {cell: [] for cell in cells}
    for one, other in pairs:
        linked[one].append(other)
        linked[other].append(one)
    groups, seen = [], set()
    for start in linked:
        if start in seen:
            continue
        seen.add(start)
        group, frontier = [start], [start]
        while frontier:
            for near in linked[frontier.pop()]:
                if near not in seen:
                    seen.add(near)
                    group.append(near)
                    frontier.append(near)
        groups.append(sorted(group))
    return sorted(groups, key=lambda group: group[0])


def check(instance: HashiInstance, solution: HashiSolution) -> list[str]:
    """Every rule the solution breaks, in words (rows and columns 1-based); [] when solved.
    A partial solution is judged as if complete: its islands lack bridges."""
    at = instance.island_at()
    problems = []
    totals: dict[tuple[Cell, Cell], int] = {}
    for bridge in solution.bridges:
        where = _between(bridge.first, bridge.second)
        if bridge.count not in (1, 2):
            problems.append(f"the bridge {where} is counted {bridge.count} times: a bridge "
                            f"is single or double")
        wrong = _misplaced(instance, at, bridge)
        if wrong is not None:
            problems.append(f"the bridge {where} {wrong}")
        else:
            pair = (bridge.first, bridge.second)
            totals[pair] = totals.get(pair, 0) + bridge.count
    for (first, second), total in totals.items():
        if total > 2:
            problems.append(f"{total} bridges join the islands at {_at(first)} and "
                            f"{_at(second)}: at most two may")
    passing: dict[Cell, tuple[Cell, Cell]] = {}
    for first, second in totals:
        if first[0] == second[0]:
            for column in range(first[1] + 1, second[1]):
                passing[(first[0], column)] = (first, second)
    for first, second in totals:
        if first[1] == second[1]:
            for row in range(first[0] + 1, second[0]):
                other = passing.get((row, first[1]))
                if other is not None:
                    problems.append(f"the bridge {_between(*other)} crosses the bridge "
                                    f"{_between(first, second)} at {_at((row, first[1]))}")
    degree = dict.fromkeys(at, 0)
    for bridge in solution.bridges:
        for cell in (bridge.first, bridge.second):
            if cell in degree:
                degree[cell] += bridge.count
    for island in instance.islands:
        if degree[island.cell] != island.value:
            problems.append(f"the island at {_at(island.cell)} has {degree[island.cell]} "
                            f"bridges but its number is {island.value}")
    groups = _groups(at, [pair for pair, total in totals.items() if total > 0])
    if len(groups) > 1:
        firsts = ", ".join(f"{_at(group[0])} ({len(group)} island{'s' * (len(group) > 1)})"
                           for group in groups[:6])
        problems.append(f"the islands are not all connected: {len(groups)} separate groups, "
                        f"holding {firsts}{', ...' if len(groups) > 6 else ''}")
    return problems


def solution_to_json(solution: HashiSolution) -> list[list[int]]:
    """Bridges as ``[r1, c1, r2, c2, k]``, 1-based cells, sorted, as ``puzzlelab solve
    --json`` prints them."""
    return sorted([bridge.first[0] + 1, bridge.first[1] + 1, bridge.second[0] + 1,
                   bridge.second[1] + 1, bridge.count] for bridge in solution.bridges)


def solution_from_json(data: object) -> HashiSolution:
    """The solution :func:`solution_to_json` printed as ``data`` (no bridge at all is an
    empty list).

    >>> solution_from_json([[1, 1, 1, 3, 2]]).bridges
    (Bridge(first=(0, 0), second=(0, 2), count=2),)
    """
    if data == []:
        return HashiSolution(())
    bridges = number_rows(data, "a Hashi solution")
    if len(bridges[0]) != 5:
        raise ParseError("a Hashi solution: each bridge is [r1, c1, r2, c2, count]",
                         source="<json>")
    return HashiSolution(tuple(Bridge.between((r1 - 1, c1 - 1), (r2 - 1, c2 - 1), count)
                               for r1, c1, r2, c2, count in bridges))


# ---------------------------------------------------------------- generating


REPAIR_ROUNDS = 200
"""Repairs of one layout before it is given up (a 30x30 grid with 150 islands needs a few
dozen)."""


def generate(size: Size, islands: int, rng: random.Random, name: str,
             is_unique: Callable[[HashiInstance], bool] | None = None,
             another_solution: Callable[[HashiInstance], HashiSolution | None] | None = None,
             rounds: int = REPAIR_ROUNDS) -> HashiInstance | None:
    """A random connected layout of ``islands`` islands (its known solution), each island's
    number read off it. With ``is_unique`` and ``another_solution``, repaired until unique:
    each other solution found is ruled out where it differs
    (:func:`puzzles.hashi_generator.told_apart`); None after ``rounds`` repairs, or when a
    count says no and no other solution is found (its search ran out of time)."""
    cells, laid = random_layout(size.rows, size.columns, islands, rng)
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
                  laid: list[tuple[Cell, Cell, int]]) -> HashiInstance:
    """The instance whose known solution is ``laid``: each island's number read off it."""
    degree = dict.fromkeys(cells, 0)
    for first, second, count in laid:
        degree[first] += count
        degree[second] += count
    known = HashiSolution(tuple(Bridge(first, second, count) for first, second, count in laid))
    return HashiInstance(name, size.rows, size.columns,
                         tuple(Island(r, c, degree[(r, c)]) for r, c in cells), known)


class Hashi(PuzzleKind[HashiInstance, HashiSolution]):
    """Hashiwokakero on the puzzle contract: this module's functions, by the contract's names."""

    name = "hashi"
    suffixes = (".has", ".txt")
    generator_options: ClassVar[Mapping[str, Option]] = {
        "size": Option(Size(7, 7), help="rows x columns of the grid", low=1, high=200,
                       tag=""),
        "islands": Option(None, help="number of islands; by default a quarter of the cells "
                          "(at least 2)", value_type=int, low=2, high=40_000, tag="i"),
    }

    def derived_options(self, values: OptionValues) -> OptionValues:
        size = values.size("size")
        cells = size.rows * size.columns
        if "islands" not in values:
            values = values.replaced(islands=max(2, cells // 4))
        if values.integer("islands") > cells:
            raise OptionError(f"--islands must be at most {cells} for size {size} (its "
                              f"cells), not {values['islands']}")
        return values

    def stored_text(self, instance: HashiInstance) -> str:
        """A ``== name`` block: a ``.has`` text names its instance after its file."""
        return f"== {instance.name}\n{write(instance, instance.known_solution)}"

    def generate(self, options: OptionValues, rng: random.Random, name: str,
                 is_unique: Callable[[HashiInstance], bool] | None = None, *,
                 another_solution: Callable[[HashiInstance], HashiSolution | None]
                 | None = None) -> HashiInstance | None:
        return generate(options.size("size"), options.integer("islands"), rng, name,
                        is_unique, another_solution)


HASHI = register(Hashi())


def load(path: str | Path, selector: str | int | None = None) -> HashiInstance:
    """One instance of a file, by name or 1-based index (or the only one)."""
    return HASHI.load(path, selector)
