"""A puzzle written in one file: what ``docs/adding-a-puzzle.md`` describes, step by step.

A Latin square (an n x n grid in which every row and every column holds 1..n once, some
cells given) with its file format, independent checker, pictures, seeded generator,
two viewpoints and its defaults, in this one module, as a puzzle module of ``puzzles/``
with its viewpoints would be. ``tests/puzzles/test_a_puzzle_in_one_file.py`` registers it
while its tests run and holds it to everything a real puzzle passes.

The one departure from a real puzzle: its bundled data lives in a temporary folder
(``data_folder`` is overridden), since this file is the only one it may have.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import ClassVar

from puzzlelab.errors import OptionError, ParseError
from puzzles import Option, OptionValues, PuzzleKind, svg
from puzzles.json_forms import number_rows
from puzzles.pictured import DrawnInstance, DrawnSolution
from puzzles.text_input import Cursor, Token, content_lines, parse_int, read_text
from solvers import Assignment, Model, all_different, exactly_one
from solvers.constraints import Strength
from viewpoints import BuiltModel, Defaults, Viewpoint

Grid = tuple[tuple[int, ...], ...]


# ---------------------------------------------------------------- 1. instance and solution


@dataclass(frozen=True)
class LatinSquareSolution(DrawnSolution):  # the bases: a notebook draws them
    """A filled grid: rows of digits 1..n; 0 marks a cell not (yet) known."""

    grid: Grid


@dataclass(frozen=True)
class LatinSquareInstance(DrawnInstance):
    """A Latin square to complete: ``givens`` rows of digits, 0 for an empty cell."""

    name: str
    givens: Grid
    known_solution: LatinSquareSolution | None = None
    source: str = field(default="", compare=False)  # the file read: not part of the puzzle

    @property
    def size(self) -> int:
        """Side n of the grid, and its largest digit."""
        return len(self.givens)


# ---------------------------------------------------------------- 2. files


def parse(text: str, source: str = "<string>") -> list[LatinSquareInstance]:
    """Blocks ``== name``, n rows of n entries (``.`` empty), then optionally
    ``solution:`` and n full rows; ``#`` comments. Errors name file, line and column."""
    cursor = Cursor(content_lines(text), source)
    if cursor.at_end():
        raise ParseError("no puzzle found (the input is empty or only comments)", source=source)
    instances: list[LatinSquareInstance] = []
    first_line_of: dict[str, int] = {}
    while not cursor.at_end():
        header = cursor.next("a '== name' line")
        name = header.text[2:].strip()
        if not header.text.startswith("==") or not name:
            raise cursor.error("expected a block header '== name'", header)
        if name in first_line_of:
            raise cursor.error(f"a second instance named {name!r} (the first is on line "
                               f"{first_line_of[name]})", header)
        first_line_of[name] = header.number
        givens = _rows(cursor, None, empty_allowed=True)
        instance = LatinSquareInstance(name, givens, None, source)
        following = cursor.peek()
        if following is not None and following.text.strip() == "solution:":
            keyword = cursor.next("solution:")
            known = LatinSquareSolution(_rows(cursor, len(givens), empty_allowed=False))
            wrong = check(instance, known)
            if wrong:
                raise cursor.error(f"the solution of {name!r} is not one: {wrong[0]}", keyword)
            instance = replace(instance, known_solution=known)
        instances.append(instance)
    return instances


def _rows(cursor: Cursor, size: int | None, empty_allowed: bool) -> Grid:
    """n rows of n entries (n from the first row when ``size`` is None); a given repeated
    in a row or column is an error at its second place."""
    rows: list[tuple[int, ...]] = []
    seen: dict[tuple[str, int, int], Token] = {}  # ("row", r, digit) -> where it stood
    while size is None or len(rows) < size:
        line = cursor.next(f"row {len(rows) + 1}" + (f" of {size}" if size else ""))
        tokens = line.tokens()
        size = size or len(tokens)
        if line.text.startswith("==") or line.text.strip() == "solution:":
            raise cursor.error(f"expected row {len(rows) + 1} of {size}, found {line.text!r}",
                               line)
        if len(tokens) != size:
            raise cursor.error(f"row {len(rows) + 1} has {len(tokens)} entries, expected "
                               f"{size}", tokens[size] if len(tokens) > size else line)
        rows.append(tuple(_entry(token, size, empty_allowed, cursor) for token in tokens))
        for column, (token, value) in enumerate(zip(tokens, rows[-1]), 1):
            for unit in (("row", len(rows), value), ("column", column, value)):
                if value and unit in seen:
                    raise cursor.error(f"{value} stands twice in {unit[0]} {unit[1]} (also at "
                                       f"line {seen[unit].line}, column {seen[unit].column})",
                                       token)
                seen[unit] = token
    return tuple(rows)


def _entry(token: Token, size: int, empty_allowed: bool, cursor: Cursor) -> int:
    if token.text == "." and empty_allowed:
        return 0
    value = parse_int(token, cursor.source, "a digit or '.'" if empty_allowed else "a digit")
    if not 1 <= value <= size:
        raise cursor.error(f"{value} is outside 1..{size}", token)
    return value


def read(path: Path) -> list[LatinSquareInstance]:
    """Every instance of a ``.latin`` file, with the solutions it gives."""
    return parse(read_text(Path(path)), str(path))


def write(instance: LatinSquareInstance, solution: LatinSquareSolution | None = None) -> str:
    """The ``.latin`` block of ``instance``, with ``solution`` when given."""
    def rows(grid: Grid) -> list[str]:
        return [" ".join(str(value) if value else "." for value in row) for row in grid]

    solved = [] if solution is None else ["solution:", *rows(solution.grid)]
    return "\n".join([f"== {instance.name}", *rows(instance.givens), *solved]) + "\n"


# ---------------------------------------------------------------- 3. the independent checker


def check(instance: LatinSquareInstance, solution: LatinSquareSolution) -> list[str]:
    """Every rule the solution breaks, in words (1-based); [] when it is solved."""
    n, grid = instance.size, solution.grid
    if len(grid) != n or any(len(row) != n for row in grid):
        return [f"the grid must be {n}x{n}, got rows of lengths {[len(row) for row in grid]}"]
    problems = []
    for r in range(n):
        for c in range(n):
            value, given = grid[r][c], instance.givens[r][c]
            if not 1 <= value <= n:
                problems.append(f"cell ({r + 1}, {c + 1}) holds {value}, outside 1..{n}")
            elif given and value != given:
                problems.append(f"cell ({r + 1}, {c + 1}) is {value}, the given is {given}")
    lines = [(f"row {r + 1}", "columns", grid[r]) for r in range(n)]
    lines += [(f"column {c + 1}", "rows", tuple(row[c] for row in grid)) for c in range(n)]
    for label, across, values in lines:
        for digit in sorted(set(values) - {0}):
            places = [str(i + 1) for i, value in enumerate(values) if value == digit]
            if len(places) > 1:
                problems.append(f"{label} has {digit} {len(places)} times ({across} "
                                f"{', '.join(places)})")
    return problems


# ---------------------------------------------------------------- 4. pictures


def render_text(instance: LatinSquareInstance,
                solution: LatinSquareSolution | None = None) -> str:
    """The grid for a terminal; ``.`` marks a cell not known."""
    grid = instance.givens if solution is None else solution.grid
    return "".join(" ".join(str(v) if v else "." for v in row) + "\n" for row in grid)


def render_svg(instance: LatinSquareInstance,
               solution: LatinSquareSolution | None = None) -> str:
    """Givens in bold black, solved digits in blue, with :mod:`puzzles.svg`."""
    n, grid = instance.size, instance.givens if solution is None else solution.grid
    body = [svg.text(svg.MARGIN + (c + 0.5) * svg.CELL, svg.MARGIN + (r + 0.5) * svg.CELL,
                     str(grid[r][c]), svg.CELL * 0.55,
                     "black" if instance.givens[r][c] else "#1f5fbf",
                     bold=instance.givens[r][c] != 0)
            for r in range(n) for c in range(n) if grid[r][c]]
    side = n * svg.CELL + 2 * svg.MARGIN
    return svg.document(side, side, body + svg.grid_lines(n, n))


# ---------------------------------------------------------------- 5. the generator


def random_square(n: int, rng: random.Random) -> Grid:
    """The cyclic square ``(r + c) mod n`` with its rows, columns and digits shuffled (not
    every Latin square can come out, which a test puzzle does not need)."""
    rows, columns, digits = (rng.sample(range(n), n) for _ in range(3))
    return tuple(tuple(digits[(rows[r] + columns[c]) % n] + 1 for c in range(n))
                 for r in range(n))


def generate(n: int, clues: int, rng: random.Random, name: str,
             is_unique: Callable[[LatinSquareInstance], bool] | None = None
             ) -> LatinSquareInstance | None:
    """A random square (the known solution) and ``clues`` of its cells as givens: read off
    at random, or, given ``is_unique``, taken away one at a time while it holds (None when
    no further clue can go above ``clues``)."""
    known = LatinSquareSolution(random_square(n, rng))
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    if is_unique is None:
        kept = set(cells[:clues])
        return LatinSquareInstance(name, tuple(
            tuple(v if (r, c) in kept else 0 for c, v in enumerate(row))
            for r, row in enumerate(known.grid)), known)
    givens, left = [list(row) for row in known.grid], n * n
    instance = LatinSquareInstance(name, known.grid, known)
    for r, c in cells:
        if left <= clues:
            break
        digit, givens[r][c] = givens[r][c], 0
        candidate = LatinSquareInstance(name, tuple(map(tuple, givens)), known)
        if is_unique(candidate):
            instance, left = candidate, left - 1
        else:
            givens[r][c] = digit
    return instance if left <= clues else None  # the instance tested last: its answer is kept


# ---------------------------------------------------------------- 6. the kind


def solution_to_json(solution: LatinSquareSolution) -> list[list[int]]:
    """Rows of digits, as ``puzzlelab solve --json`` prints them and the store keeps them."""
    return [list(row) for row in solution.grid]


def solution_from_json(data: object) -> LatinSquareSolution:
    """The solution :func:`solution_to_json` printed as ``data``."""
    return LatinSquareSolution(number_rows(data, "a Latin square solution"))


class LatinSquare(PuzzleKind[LatinSquareInstance, LatinSquareSolution]):
    """Latin squares on the puzzle contract: the roles are the functions above, by name
    (``parse``, ``read``, ``write``, ``check``, ``render_text``, ``render_svg``,
    ``solution_to_json``, ``solution_from_json``); an instance's ``name`` and
    ``known_solution`` are the contract's defaults."""

    name = "latin-square"
    suffixes = (".latin",)
    generator_options: ClassVar[Mapping[str, Option]] = {
        "size": Option(4, help="side n of the grid (digits 1..n)", low=2, high=5, tag="n"),
        "clues": Option(None, help="givens to keep; by default half the cells, rounded up",
                        value_type=int, low=0, tag="clues"),
    }

    def __init__(self, data: Path) -> None:
        self.data = data

    def data_folder(self) -> Path:
        return self.data  # a real puzzle keeps the base's puzzles/data/<name>/

    def drawing_instance(self, solution: LatinSquareSolution) -> LatinSquareInstance | None:
        """A solution alone is drawn on a grid of its size with no givens."""
        size = len(solution.grid)
        return LatinSquareInstance("", tuple((0,) * size for _ in range(size)))

    def derived_options(self, values: OptionValues) -> OptionValues:
        cells = values.integer("size") ** 2
        if "clues" not in values:
            return values.replaced(clues=(cells + 1) // 2)
        if values.integer("clues") > cells:
            raise OptionError(f"--clues must be at most {cells} for size {values['size']}, "
                              f"not {values['clues']}")
        return values

    def generate(self, options: OptionValues, rng: random.Random, name: str,
                 is_unique: Callable[[LatinSquareInstance], bool] | None = None, *,
                 another_solution: Callable[[LatinSquareInstance], LatinSquareSolution | None]
                 | None = None,
                 enough: Callable[[LatinSquareInstance], bool] | None = None,
                 reached: Callable[[LatinSquareInstance], None] | None = None
                 ) -> LatinSquareInstance | None:
        return generate(options.integer("size"), options.integer("clues"), rng, name,
                        is_unique)


# ---------------------------------------------------------------- 7. viewpoints and defaults

ALLDIFF = Option("weak", ("weak", "strong"),
                 "all_different propagation: weak (value-based) or strong (bounds/domain)")


def cells_viewpoint(instance: LatinSquareInstance,
                    alldiff: Strength) -> BuiltModel[LatinSquareSolution]:
    """Cell -> digit: one variable per cell, all_different on every row and column.

    Variables: ``cell[r][c]`` in 1..n, the digit at row r, column c; a given fixes it.
    Constraints: all_different over each row and over each column (option ``alldiff``).
    Search: the cells in row-major order.
    """
    n = instance.size
    model = Model(f"latin-square-cells-{instance.name}")
    cells = [[model.int_var(g or 1, g or n, f"cell_{r}_{c}")
              for c, g in enumerate(row)] for r, row in enumerate(instance.givens)]
    for r in range(n):
        model.add(all_different(cells[r], alldiff))
    for c in range(n):
        model.add(all_different((cells[r][c] for r in range(n)), alldiff))
    model.branch_on([v for row in cells for v in row])

    def decode(assignment: Assignment) -> LatinSquareSolution:
        return LatinSquareSolution(tuple(tuple(assignment[v] for v in row) for row in cells))

    return BuiltModel(model, decode)


def boolean_viewpoint(instance: LatinSquareInstance) -> BuiltModel[LatinSquareSolution]:
    """One-hot: ``x[r][c][d]`` is 1 when cell (r, c) holds digit d + 1.

    Constraints: exactly one per cell, per row and digit, and per column and digit; a
    given fixes its cell's Booleans. Search: the Booleans cell by cell.
    """
    n = instance.size
    model = Model(f"latin-square-boolean-{instance.name}")
    ones = [[[model.int_var(int(g == d + 1), int(g == d + 1), f"x_{r}_{c}_{d}") if g
              else model.bool_var(f"x_{r}_{c}_{d}") for d in range(n)]
             for c, g in enumerate(row)] for r, row in enumerate(instance.givens)]
    for i in range(n):
        for j in range(n):
            model.add(exactly_one(ones[i][j]))  # cell (i, j)
            model.add(exactly_one(ones[i][c][j] for c in range(n)))  # digit j + 1 in row i
            model.add(exactly_one(ones[r][i][j] for r in range(n)))  # ... in column i
    model.branch_on([v for row in ones for cell in row for v in cell])

    def decode(assignment: Assignment) -> LatinSquareSolution:
        return LatinSquareSolution(tuple(
            tuple(next(d + 1 for d, x in enumerate(cell) if assignment[x]) for cell in row)
            for row in ones))

    return BuiltModel(model, decode)


# what @viewpoint("latin-square", "cells", {"alldiff": ALLDIFF}) and set_defaults(...) add
VIEWPOINT_ENTRIES = [Viewpoint("latin-square", "cells", cells_viewpoint, {"alldiff": ALLDIFF}),
                     Viewpoint("latin-square", "boolean", boolean_viewpoint)]
PUZZLE_DEFAULTS = Defaults(viewpoint="cells", solver="cp", heuristic="first-fail/min")
