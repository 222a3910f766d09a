"""Sudoku of any box size k (an n x n grid, n = k * k): files, checker, pictures, generator.

The file formats are read and written by :mod:`puzzles.sudoku_formats` (character
lines, named lines, ``N`` grids, puzzlekit blocks, Solo's game IDs:
:mod:`puzzles.sudoku_game_ids`); the random grids and clues of
``generate`` come from :mod:`puzzles.sudoku_generator`.

>>> puzzle = parse("1...........4...")[0]
>>> check(puzzle, SudokuSolution(((1, 2, 3, 4), (3, 4, 1, 2), (2, 1, 4, 3), (4, 3, 2, 1))))
[]
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import ClassVar

from puzzlelab.errors import OptionError, ParseError
from puzzlelab.wording import counted
from puzzles import svg
from puzzles.json_forms import number_rows
from puzzles.kind import PuzzleKind, register
from puzzles.options import Option, OptionValues
from puzzles.picking import known_solution_checked
from puzzles.pictured import DrawnInstance, DrawnSolution
from puzzles.sudoku_formats import (
    ReadGrid,
    character_line,
    companion_of,
    is_companion,
    puzzlekit_block,
    read_grids,
    size_grid,
)
from puzzles.sudoku_game_ids import solo_game_id
from puzzles.sudoku_generator import full_grid, read_off, solved_by_singles, thinned
from puzzles.text_input import last_line, read_text

Grid = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class SudokuSolution(DrawnSolution):
    """A filled grid (rows of digits 1..n); 0 marks a cell not (yet) known."""

    grid: Grid


@dataclass(frozen=True)
class SudokuInstance(DrawnInstance):
    """A Sudoku: ``givens`` rows of digits, 0 for an empty cell; boxes are ``box x box``."""

    name: str
    box: int
    givens: Grid
    known_solution: SudokuSolution | None = None
    source: str = field(default="", compare=False)  # the file read: not part of the puzzle

    @property
    def size(self) -> int:
        """Side n of the grid (and the largest digit)."""
        return self.box * self.box


# ---------------------------------------------------------------- files


def _frozen(rows: Iterable[Iterable[int]]) -> Grid:
    return tuple(tuple(row) for row in rows)


def _instance(grid: ReadGrid, source: str) -> SudokuInstance:
    """The instance of a grid read from ``source``; a known solution must solve it."""
    instance = SudokuInstance(grid.name, grid.box, _frozen(grid.givens), None, source)
    if grid.solution is None:
        return instance
    known = SudokuSolution(_frozen(grid.solution))
    return replace(instance, known_solution=known_solution_checked(
        instance, known, check, grid.name, source, grid.solution_line))


def parse(text: str, source: str = "<string>") -> list[SudokuInstance]:
    """Every instance in ``text``, in order; bad input raises ``ParseError`` (file:line:col)."""
    return [_instance(grid, source) for grid in read_grids(text, source)]


def read(path: Path) -> list[SudokuInstance]:
    """Every instance of the file, with known solutions from a companion solutions file."""
    path = Path(path)
    instances = parse(read_text(path), str(path))
    companion = companion_of(path)
    if companion is None:
        return instances
    text = read_text(companion)
    solutions = read_grids(text, str(companion))
    if len(solutions) != len(instances):
        # Blame the first solution too many, or the end where the missing ones belong.
        line = (solutions[len(instances)].line if len(solutions) > len(instances)
                else last_line(text))
        raise ParseError(f"{counted(len(solutions), 'solution')} for "
                         f"{counted(len(instances), 'puzzle')} in "
                         f"{path.name}", source=str(companion), line=line)
    known = []
    for number, (instance, solved) in enumerate(zip(instances, solutions, strict=True), 1):
        solution = SudokuSolution(_frozen(solved.givens))
        wrong = check(instance, solution)
        if wrong:
            raise ParseError(f"solution {number} is not one of puzzle {instance.name!r}: "
                             f"{wrong[0]}", source=str(companion), line=solved.line)
        known.append(replace(instance, known_solution=solution))
    return known


def format(instance: SudokuInstance, style: str = "line") -> str:
    """The instance as a character line (``.`` empty; n <= 9) or as an ``N`` grid."""
    if style == "line":
        return character_line(instance.givens)
    if style == "grid":
        return size_grid(instance.givens)
    raise ValueError(f"unknown style {style!r}; use 'line' or 'grid'")


def write(instance: SudokuInstance, solution: SudokuSolution | None = None) -> str:
    """The instance as a named puzzlekit block, with ``solution`` when given: the format
    that keeps the name, the solution and any size."""
    return puzzlekit_block(instance.name, instance.givens,
                           None if solution is None else solution.grid)


# ---------------------------------------------------------------- checking


def _repeats(label: str, values: Iterable[tuple[int, int]], position: str) -> list[str]:
    """Messages for every value seen more than once among ``(value, position)`` pairs."""
    where: dict[int, list[int]] = {}
    for value, index in values:
        where.setdefault(value, []).append(index)
    return [f"{label} has {value} {len(places)} times ({position} "
            f"{', '.join(str(p) for p in places)})"
            for value, places in sorted(where.items()) if len(places) > 1 and value]


def check(instance: SudokuInstance, solution: SudokuSolution) -> list[str]:
    """Every rule the solution breaks, in words (rows and columns 1-based); [] when solved."""
    n, box, grid = instance.size, instance.box, solution.grid
    if len(grid) != n or any(len(row) != n for row in grid):
        return [f"the grid must be {n}x{n}, got rows of lengths {[len(row) for row in grid]}"]
    problems = []
    for r in range(n):
        for c in range(n):
            value, given = grid[r][c], instance.givens[r][c]
            if not 1 <= value <= n:
                problems.append(f"cell (row {r + 1}, column {c + 1}) holds {value}, "
                                f"outside 1..{n}")
            elif given and value != given:
                problems.append(f"cell (row {r + 1}, column {c + 1}) is {value} but the "
                                f"given is {given}")
    # a unit with n distinct values repeats none: the messages are made only where one does
    for r in range(n):
        if len(set(grid[r])) < n:
            problems += _repeats(f"row {r + 1}", ((grid[r][c], c + 1) for c in range(n)),
                                 "columns")
    for c, column in enumerate(zip(*grid)):
        if len(set(column)) < n:
            problems += _repeats(f"column {c + 1}", ((column[r], r + 1) for r in range(n)),
                                 "rows")
    for top in range(0, n, box):
        for left in range(0, n, box):
            rows = grid[top:top + box]
            if len({value for row in rows for value in row[left:left + box]}) == n:
                continue
            label = f"box (rows {top + 1}-{top + box}, columns {left + 1}-{left + box})"
            cells = ((grid[top + r][left + c], f"{top + r + 1}/{left + c + 1}")
                     for r in range(box) for c in range(box))
            problems += _repeats(label, cells, "row/column")  # type: ignore[arg-type]
    return problems


# ---------------------------------------------------------------- rendering


def _shown(instance: SudokuInstance, solution: SudokuSolution | None) -> Grid:
    return solution.grid if solution is not None else instance.givens


def render_text(instance: SudokuInstance, solution: SudokuSolution | None = None) -> str:
    """The grid for a terminal, boxes separated by lines; ``.`` marks an unknown cell."""
    n, box, grid = instance.size, instance.box, _shown(instance, solution)
    width = len(str(n))
    separator = "+".join(["-" * ((width + 1) * box + 1)] * box)
    lines = []
    for r in range(n):
        if r and r % box == 0:
            lines.append(separator)
        cells = [f"{grid[r][c] or '.':>{width}}" for c in range(n)]
        lines.append(" | ".join(" ".join(cells[b:b + box]) for b in range(0, n, box)))
    return "\n".join(" " + line if not line.startswith("-") else line for line in lines) + "\n"


def render_svg(instance: SudokuInstance, solution: SudokuSolution | None = None) -> str:
    """An SVG picture: givens in bold black, solved digits in blue."""
    n, grid = instance.size, _shown(instance, solution)
    side = n * svg.CELL + 2 * svg.MARGIN
    body = []
    for r in range(n):
        for c in range(n):
            if grid[r][c]:
                given = instance.givens[r][c] != 0
                body.append(svg.text(*svg.centre(svg.cell_box(r, c)), str(grid[r][c]),
                                     svg.CELL * (0.55 if n < 10 else 0.42),
                                     "black" if given else "#1f5fbf", bold=given))
    body += svg.grid_lines(n, n, instance.box)
    return svg.document(side, side, body)


def solution_to_json(solution: SudokuSolution) -> list[list[int]]:
    """Rows of integers, as ``puzzlelab solve --json`` prints them."""
    return [list(row) for row in solution.grid]


def solution_from_json(data: object) -> SudokuSolution:
    """The solution :func:`solution_to_json` printed as ``data``.

    >>> solution_from_json([[1, 2], [2, 1]]).grid
    ((1, 2), (2, 1))
    """
    return SudokuSolution(number_rows(data, "a Sudoku solution"))


# ---------------------------------------------------------------- generating


def generate(box: int, clues: int, rng: random.Random, name: str,
             is_unique: Callable[[SudokuInstance], bool] | None = None,
             enough: Callable[[SudokuInstance], bool] | None = None,
             reached: Callable[[SudokuInstance], None] | None = None
             ) -> SudokuInstance | None:
    """A random full grid (the known solution) and ``clues`` of its cells as givens.

    Without ``is_unique`` the clues are read off at random cells. With it, clues are
    taken away one at a time, in random order, while the puzzle keeps one solution
    (first while singles alone fill it in, then while ``is_unique`` holds); None when it gets stuck
    above ``clues`` (no clue left can go). With ``enough`` as well, ``clues`` is a
    ceiling: thinning goes on below it until ``enough`` holds, or no clue can go
    (:func:`~puzzles.sudoku_generator.thinned`). ``reached`` hears of each unique puzzle
    the thinning comes down to.
    """
    solution = full_grid(box, rng)
    known = SudokuSolution(solution)
    if is_unique is None:
        return SudokuInstance(name, box, read_off(solution, clues, rng), known)

    def keeps_one_solution(givens: Grid) -> bool:
        return is_unique(SudokuInstance(name, box, givens, known))

    def by_singles(givens: Grid) -> bool:
        return solved_by_singles(givens, box)

    def is_enough(givens: Grid) -> bool:
        assert enough is not None  # only asked when given
        return enough(SudokuInstance(name, box, givens, known))

    def unique(givens: Grid) -> None:
        if reached is not None:
            reached(SudokuInstance(name, box, givens, known))

    givens = thinned(solution, clues, rng, keeps_one_solution, by_singles,
                     None if enough is None else is_enough, unique)
    return None if givens is None else SudokuInstance(name, box, givens, known)


DEFAULT_CLUE_SHARE = {2: 0.4, 3: 0.4, 4: 0.4, 5: 0.45}
"""Clues kept by default, as a share of the cells, by box size. Taking clues away at random
while the puzzle stays unique ends, on average, at 30 % of the cells of a 9x9 grid (22 to
27 clues over 30 grids) and 37 % of a 16x16 one (92 and 95 over two): 40 % is reached.
On 25x25 grids singles alone end at 42 to 43 % (261 to 267 clues over five grids) and
each solver count beyond takes seconds: 45 % (281) is reached in seconds, 40 % is not
reached within a minute."""


class Sudoku(PuzzleKind[SudokuInstance, SudokuSolution]):
    """Sudoku on the puzzle contract: the roles are this module's functions of their names."""

    name = "sudoku"
    suffixes = (".txt",)
    generator_options: ClassVar[Mapping[str, Option]] = {
        "box": Option(3, help="box size k: the grid is k*k a side (3 gives 9x9)", low=2,
                      high=5, tag="box"),
        "clues": Option(None, help="givens to keep (with --unique, the target the clues "
                                   "are taken away to; with --difficulty, the most kept, "
                                   "0 as few as the grade allows); by default 40% of the "
                                   "cells, rounded (32 of 81), 45% for box 5 (281 of 625)",
                        value_type=int, low=0, tag="clues"),
    }

    def is_instance_file(self, path: Path) -> bool:
        return super().is_instance_file(path) and not is_companion(path)

    def game_id(self, instance: SudokuInstance) -> str:
        """Solo's game ID (``3x3:...``): boxes of 2x2 to 5x5."""
        return solo_game_id(instance.box, instance.givens)

    def drawing_instance(self, solution: SudokuSolution) -> SudokuInstance | None:
        """A grid of the solution's size with no givens: every digit drawn as solved."""
        size = len(solution.grid)
        box = math.isqrt(size)
        if not size or box * box != size or any(len(row) != size for row in solution.grid):
            return None
        return SudokuInstance("", box, tuple((0,) * size for _ in range(size)))

    def derived_options(self, values: OptionValues) -> OptionValues:
        cells = values.integer("box") ** 4
        if "clues" not in values:
            return values.replaced(
                clues=round(cells * DEFAULT_CLUE_SHARE[values.integer("box")]))
        if values.integer("clues") > cells:
            raise OptionError(f"--clues must be at most {cells} for box {values['box']} "
                              f"(its cells), not {values['clues']}")
        return values

    def generated_sizes(self, instance: SudokuInstance) -> Mapping[str, int]:
        """The givens, for ``clues``."""
        return {"clues": sum(1 for row in instance.givens for digit in row if digit)}

    def generate(self, options: OptionValues, rng: random.Random, name: str,
                 is_unique: Callable[[SudokuInstance], bool] | None = None, *,
                 another_solution: Callable[[SudokuInstance], SudokuSolution | None] | None = None,
                 enough: Callable[[SudokuInstance], bool] | None = None,
                 reached: Callable[[SudokuInstance], None] | None = None
                 ) -> SudokuInstance | None:
        return generate(options.integer("box"), options.integer("clues"), rng, name,
                        is_unique, enough, reached)


SUDOKU = register(Sudoku())


def load(path: str | Path, selector: str | int | None = None) -> SudokuInstance:
    """One instance of a file, by name or 1-based index (or the only one)."""
    return SUDOKU.load(path, selector)
