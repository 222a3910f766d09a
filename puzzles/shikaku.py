"""Shikaku: partition a grid into rectangles ("rooms"), each holding one clue, its area.

Files are read and written by :mod:`puzzles.shikaku_formats` (``== name`` blocks, with
or without puzzlekit's ``problem:``; Rect's game IDs: :mod:`puzzles.shikaku_game_ids`);
the pictures are drawn by :mod:`puzzles.shikaku_pictures`.

>>> puzzle = parse("== two\\n1 3\\n2 - 1\\n")[0]
>>> check(puzzle, ShikakuSolution(((1, 1, 2),)))
[]
>>> check(puzzle, ShikakuSolution(((1, 2, 2),)))[0]
'room 1 (row 1, column 1) has area 1 but its clue is 2'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from puzzlelab.errors import ParseError
from puzzles.json_forms import number_rows
from puzzles.kind import PuzzleKind, register
from puzzles.options import Option, OptionValues, Size
from puzzles.picking import known_solution_checked
from puzzles.shikaku_formats import ReadBlock, read_blocks, write_block
from puzzles.shikaku_game_ids import rect_game_id
from puzzles.shikaku_generator import Grid, Layout, random_partition, unique_layout
from puzzles.shikaku_pictures import render_svg, render_text  # noqa: F401 (the render roles)
from puzzles.shikaku_types import Labels, ShikakuInstance, ShikakuSolution
from puzzles.text_input import read_text

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


def read(path: Path) -> list[ShikakuInstance]:
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


def solution_from_json(data: object) -> ShikakuSolution:
    """The solution :func:`solution_to_json` printed as ``data``.

    >>> solution_from_json([[1, 1], [2, None]]).rooms
    ((1, 1), (2, None))
    """
    return ShikakuSolution(number_rows(data, "a Shikaku solution", empty=True))


# ---------------------------------------------------------------- generating


def generate(size: Size, max_area: int, rng: random.Random, name: str,
             another_solution: Callable[[ShikakuInstance], ShikakuSolution | None] | None
             = None, is_unique: Callable[[ShikakuInstance], bool] | None = None
             ) -> ShikakuInstance | None:
    """A random partition (the known solution), one clue per room at a random cell of it;
    with ``another_solution``, repaired until it finds no other solution, or, with
    ``is_unique`` too, until that holds of the whole grid (None when the repair gives up:
    see :mod:`puzzles.shikaku_generator`). The instance returned is then the very one
    ``is_unique`` last said yes to, so that a caller remembering its answer need not
    search again."""
    layout = Layout(random_partition(size.rows, size.columns, max_area, rng), rng)
    proved: list[ShikakuInstance] = []  # the whole-grid instance is_unique last passed

    def instance(clues: Grid, labels: Grid) -> ShikakuInstance:
        return ShikakuInstance(name, clues, ShikakuSolution(labels))

    if another_solution is not None:
        def another(clues: Grid, labels: Grid) -> Labels | None:
            other = another_solution(instance(clues, labels))
            return None if other is None else other.rooms

        def unique(clues: Grid, labels: Grid) -> bool:
            assert is_unique is not None
            candidate = instance(clues, labels)
            verdict = is_unique(candidate)
            if verdict and (len(clues), len(clues[0])) == tuple(size):
                proved[:] = [candidate]
            return verdict

        if not unique_layout(layout, another, None if is_unique is None else unique):
            return None
    made = instance(*layout.grids())
    return proved[0] if proved and proved[0] == made else made


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

    def game_id(self, instance: ShikakuInstance) -> str:
        """Rect's game ID (``WxH:...``): any grid of two cells or more."""
        return rect_game_id(instance.clues)

    def drawing_instance(self, solution: ShikakuSolution) -> ShikakuInstance | None:
        """A grid of the solution's size without clues: the rooms alone (a room's clue
        is its area, but which of its cells holds it the solution does not say)."""
        rows = solution.rooms
        if not rows or not rows[0] or any(len(row) != len(rows[0]) for row in rows):
            return None
        return ShikakuInstance("", tuple((0,) * len(rows[0]) for _ in rows))

    def generate(self, options: OptionValues, rng: random.Random, name: str,
                 is_unique: Callable[[ShikakuInstance], bool] | None = None, *,
                 another_solution: Callable[[ShikakuInstance], ShikakuSolution | None]
                 | None = None,
                 enough: Callable[[ShikakuInstance], bool] | None = None,
                 reached: Callable[[ShikakuInstance], None] | None = None
                 ) -> ShikakuInstance | None:
        return generate(options.size("size"), options.integer("max-area"), rng, name,
                        another_solution, is_unique)


SHIKAKU = register(Shikaku())


def load(path: str | Path, selector: str | int | None = None) -> ShikakuInstance:
    """One instance of a file, by name or 1-based index (or the only one)."""
    return SHIKAKU.load(path, selector)
