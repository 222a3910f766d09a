"""Shikaku: partition a grid into rectangles ("rooms"), each holding one clue, its area.

Files are read and written by :mod:`puzzles.shikaku_formats` (``== name`` blocks, with
or without puzzlekit's ``problem:``); the pictures are drawn by
:mod:`puzzles.shikaku_pictures`.

>>> puzzle = parse("== two\\n1 3\\n2 - 1\\n")[0]
>>> check(puzzle, ShikakuSolution(((1, 1, 2),)))
[]
>>> check(puzzle, ShikakuSolution(((1, 2, 2),)))[0]
'room 1 (row 1, column 1) has area 1 but its clue is 2'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import ClassVar

from puzzlelab.errors import ParseError
from puzzles.kind import PuzzleKind, known_solution_checked, register
from puzzles.options import Option, OptionValues, Size
from puzzles.shikaku_formats import ReadBlock, read_blocks, write_block
from puzzles.shikaku_pictures import render_svg, render_text
from puzzles.text_input import read_text

Clues = tuple[tuple[int, ...], ...]
Labels = tuple[tuple[int | None, ...], ...]


@dataclass(frozen=True)
class ShikakuSolution:
    """A room label per cell: two cells share a room when their labels are equal (the
    labels themselves mean nothing, so two solutions are equal when they cut the grid
    alike); None marks a cell in no room (yet)."""

    rooms: Labels

    def partition(self) -> Labels:
        """The labels renumbered 1, 2, ... in row-major order of first appearance: the
        same for any two labellings of one partition."""
        renumbered: dict[int, int] = {}
        return tuple(tuple(None if label is None
                           else renumbered.setdefault(label, len(renumbered) + 1)
                           for label in row) for row in self.rooms)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ShikakuSolution):
            return NotImplemented
        return self.rooms == other.rooms or self.partition() == other.partition()

    def __hash__(self) -> int:
        return hash(self.partition())


@dataclass(frozen=True)
class ShikakuInstance:
    """A Shikaku: ``clues`` rows, 0 for a cell without a clue."""

    name: str
    clues: Clues
    known_solution: ShikakuSolution | None = None
    source: str = field(default="", compare=False)  # the file read: not part of the puzzle

    @property
    def rows(self) -> int:
        """Number of rows of the grid."""
        return len(self.clues)

    @property
    def columns(self) -> int:
        """Number of columns of the grid."""
        return len(self.clues[0])


# ---------------------------------------------------------------- files


def _instance(block: ReadBlock, source: str) -> ShikakuInstance:
    """The instance of a block read from ``source``; clues must be able to fill the grid,
    and a known solution must solve it."""
    clues = tuple(tuple(row) for row in block.clues)
    total, cells = sum(map(sum, clues)), len(clues) * len(clues[0])
    if total != cells:
        raise ParseError(f"the clues of {block.name!r} add up to {total}, but the grid has "
                         f"{cells} cells", source=source, line=block.size_line)
    instance = ShikakuInstance(block.name, clues, None, source)
    if block.solution is None:
        return instance
    known = ShikakuSolution(tuple(tuple(row) for row in block.solution))
    return replace(instance, known_solution=known_solution_checked(
        instance, known, check, block.name, source, block.solution_line))


def parse(text: str, source: str = "<string>") -> list[ShikakuInstance]:
    """Every instance in ``text``, in order; bad input raises ``ParseError`` (file:line:col)."""
    return [_instance(block, source) for block in read_blocks(text, source)]


def read_file(path: Path) -> list[ShikakuInstance]:
    """Every instance of the file, with the known solutions it gives."""
    return parse(read_text(Path(path)), str(path))


def write(instance: ShikakuInstance, solution: ShikakuSolution | None = None) -> str:
    """The instance as a ``== name`` block, with ``solution`` when given."""
    return write_block(instance.name, instance.clues,
                       None if solution is None else solution.rooms)


# ---------------------------------------------------------------- checking


def _cells(cells: list[tuple[int, int]]) -> str:
    shown = ", ".join(f"{r + 1}/{c + 1}" for r, c in cells[:6])
    return shown + (f", ... ({len(cells)} in all)" if len(cells) > 6 else "")


def _span(first: int, last: int) -> str:
    return str(first + 1) if first == last else f"{first + 1}-{last + 1}"


def check(instance: ShikakuInstance, solution: ShikakuSolution) -> list[str]:
    """Every rule the solution breaks, in words (rows and columns 1-based); [] when solved."""
    rows, columns, grid = instance.rows, instance.columns, solution.rooms
    if len(grid) != rows or any(len(row) != columns for row in grid):
        return [f"the grid must be {rows}x{columns}, got rows of lengths "
                f"{[len(row) for row in grid]}"]
    problems = []
    rooms: dict[int, list[tuple[int, int]]] = {}
    for r in range(rows):
        for c in range(columns):
            label = grid[r][c]
            if label is None:
                problems.append(f"cell (row {r + 1}, column {c + 1}) is in no room")
            else:
                rooms.setdefault(label, []).append((r, c))
    for label, cells in rooms.items():
        top, bottom = min(r for r, _ in cells), max(r for r, _ in cells)
        left, right = min(c for _, c in cells), max(c for _, c in cells)
        room = f"room {label} (row {_span(top, bottom)}, column {_span(left, right)})"
        if len(cells) != (bottom - top + 1) * (right - left + 1):
            holes = [(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)
                     if grid[r][c] != label]
            problems.append(f"{room} is not a filled rectangle: cells {_cells(holes)} "
                            f"(row/column) of its bounding box are not in it")
        clues = [(r, c) for r, c in cells if instance.clues[r][c]]
        if not clues:
            problems.append(f"{room} holds no clue")
        elif len(clues) > 1:
            problems.append(f"{room} holds {len(clues)} clues (at {_cells(clues)}, "
                            f"row/column)")
        elif instance.clues[clues[0][0]][clues[0][1]] != len(cells):
            problems.append(f"{room} has area {len(cells)} but its clue is "
                            f"{instance.clues[clues[0][0]][clues[0][1]]}")
    return problems


def solution_to_json(solution: ShikakuSolution) -> list[list[int | None]]:
    """Rows of room labels (null for a cell in no room), as ``puzzlelab solve --json``
    prints them."""
    return [list(row) for row in solution.rooms]


# ---------------------------------------------------------------- generating


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


Cell = tuple[int, int]


def generate(size: Size, max_area: int, rng: random.Random, name: str,
             another_solution: Callable[[ShikakuInstance], ShikakuSolution | None] | None
             = None, rounds: int = 60) -> ShikakuInstance | None:
    """A random partition (the known solution), one clue per room at a random cell of it.

    With ``another_solution``, the rooms where another solution differs are repaired,
    round after round, until there is none (or None after ``rounds``): a room is given
    its clue at another of its cells, and a room that still differs after three moves
    is cut in two. On a large grid, a random partition is all but never unique as drawn
    (two dominoes in a square, say, lie either way), so drawing again would not end.
    """
    labels = random_partition(size.rows, size.columns, max_area, rng)
    rooms: dict[int, list[Cell]] = {}
    for r, row in enumerate(labels):
        for c, label in enumerate(row):
            rooms.setdefault(label, []).append((r, c))
    clue_at = {label: rng.choice(cells) for label, cells in rooms.items()}
    instance = _with_clues(size, rooms, clue_at, name)
    if another_solution is None:
        return instance
    moves: dict[int, int] = {}
    for _ in range(rounds):
        other = another_solution(instance)
        if other is None:
            return instance
        for label in _differing_rooms(rooms, clue_at, other):
            moves[label] = moves.get(label, 0) + 1
            if moves[label] > 3:
                _cut(rooms, clue_at, label, rng)
                moves[label] = 0
            else:
                clue_at[label] = rng.choice([cell for cell in rooms[label]
                                             if cell != clue_at[label]])
        instance = _with_clues(size, rooms, clue_at, name)
    return None


def _with_clues(size: Size, rooms: dict[int, list[Cell]], clue_at: dict[int, Cell],
                name: str) -> ShikakuInstance:
    clues = [[0] * size.columns for _ in range(size.rows)]
    labels = [[0] * size.columns for _ in range(size.rows)]
    for label, cells in rooms.items():
        r, c = clue_at[label]
        clues[r][c] = len(cells)
        for r, c in cells:
            labels[r][c] = label
    known = ShikakuSolution(tuple(tuple(row) for row in labels))
    return ShikakuInstance(name, tuple(tuple(row) for row in clues), known)


def _differing_rooms(rooms: dict[int, list[Cell]], clue_at: dict[int, Cell],
                     other: ShikakuSolution) -> list[int]:
    """The rooms (by label) whose cells differ in ``other``: a room of one cell never does."""
    cells_of: dict[int | None, set[Cell]] = {}
    for r, row in enumerate(other.rooms):
        for c, label in enumerate(row):
            cells_of.setdefault(label, set()).add((r, c))
    return [label for label, cells in rooms.items()
            if cells_of[other.rooms[clue_at[label][0]][clue_at[label][1]]] != set(cells)]


def _cut(rooms: dict[int, list[Cell]], clue_at: dict[int, Cell], label: int,
         rng: random.Random) -> None:
    """Cut room ``label`` in two across its longer side, each part with a clue."""
    cells = rooms[label]
    top, left = cells[0]
    bottom, right = cells[-1]
    tall = bottom - top >= right - left
    cut = rng.randint(top + 1, bottom) if tall else rng.randint(left + 1, right)
    first = [(r, c) for r, c in cells if (r if tall else c) < cut]
    second = [cell for cell in cells if cell not in first]
    new = max(rooms) + 1
    rooms[label], rooms[new] = first, second
    clue_at[label], clue_at[new] = rng.choice(first), rng.choice(second)


class Shikaku(PuzzleKind[ShikakuInstance, ShikakuSolution]):
    """Shikaku on the puzzle contract: the functions of this module, under the contract's
    names."""

    name = "shikaku"
    suffixes = (".txt",)
    generator_options: ClassVar[Mapping[str, Option]] = {
        "size": Option(Size(10, 10), help="rows x columns of the grid", low=1, high=1000,
                       tag=""),
        "max-area": Option(12, help="largest room, in cells", low=1, high=1_000_000,
                           tag="a"),
    }

    # the module's functions, under the contract's role names
    parse = staticmethod(parse)
    read = staticmethod(read_file)
    write = staticmethod(write)
    check = staticmethod(check)
    render_text = staticmethod(render_text)
    render_svg = staticmethod(render_svg)
    solution_to_json = staticmethod(solution_to_json)

    def instance_name(self, instance: ShikakuInstance) -> str:
        return instance.name

    def known_solution(self, instance: ShikakuInstance) -> ShikakuSolution | None:
        return instance.known_solution

    def generate(self, options: OptionValues, rng: random.Random, name: str,
                 is_unique: Callable[[ShikakuInstance], bool] | None = None, *,
                 another_solution: Callable[[ShikakuInstance], ShikakuSolution | None]
                 | None = None) -> ShikakuInstance | None:
        return generate(options.size("size"), options.integer("max-area"), rng, name,
                        another_solution)


SHIKAKU = register(Shikaku())


def load(path: str | Path, selector: str | int | None = None) -> ShikakuInstance:
    """One instance of a file, by name or 1-based index (or the only one)."""
    return SHIKAKU.load(path, selector)
