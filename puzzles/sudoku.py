"""Sudoku of any box size k (an n x n grid, n = k * k): formats, checker and rendering.

Formats read (auto-detected; see ``puzzles/data/sudoku/SOURCES.md``):

* character lines, one puzzle per line (16 or 81 characters; ``.`` or ``0`` empty);
* named lines ``name set clues puzzle solution`` (the KU Leuven course file);
* an ``N`` line followed by N rows of N integers (``0`` empty);
* puzzlekit blocks (``== id``, ``problem:``, ``solution:``; ``-`` empty).

A file ``X.txt`` with a companion ``X.solutions.txt`` or ``X.solution.txt`` gets
those grids as the instances' known solutions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from puzzlelab.errors import ParseError
from puzzlelab.wording import counted
from puzzles import svg
from puzzles.kind import PUZZLES, PuzzleKind
from puzzles.text_input import (
    Cursor,
    Line,
    content_lines,
    is_integer,
    last_line,
    parse_int,
    read_text,
)

Grid = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class SudokuSolution:
    """A filled grid (rows of digits 1..n); 0 marks a cell not (yet) known."""

    grid: Grid


@dataclass(frozen=True)
class SudokuInstance:
    """A Sudoku: ``givens`` rows of digits, 0 for an empty cell; boxes are ``box x box``."""

    name: str
    box: int
    givens: Grid
    known_solution: SudokuSolution | None = None
    source: str = ""

    @property
    def size(self) -> int:
        """Side n of the grid (and the largest digit)."""
        return self.box * self.box


# ---------------------------------------------------------------- reading


def _box_of_size(size: int, cursor: Cursor, where: Line) -> int:
    box = math.isqrt(max(size, 0))
    if box < 2 or box * box != size:
        raise cursor.error(f"grid size {size} is not the square of a box size >= 2", where)
    return box


def _check_givens(rows: list[list[int]], row_lines: list[Line], box: int,
                  cursor: Cursor) -> None:
    """A given repeated in a row, column or box is an error naming both cells."""
    size = box * box
    units = ([("row", [(r, c) for c in range(size)]) for r in range(size)]
             + [("column", [(r, c) for r in range(size)]) for c in range(size)]
             + [("box", [(top + r, left + c) for r in range(box) for c in range(box)])
                for top in range(0, size, box) for left in range(0, size, box)])
    for unit, cells in units:
        seen: dict[int, tuple[int, int]] = {}
        for r, c in cells:
            value = rows[r][c]
            if not value:
                continue
            if value in seen:
                first = seen[value]
                raise cursor.error(
                    f"duplicate given {value} in a {unit}: cells (row {first[0] + 1}, column "
                    f"{first[1] + 1}) and (row {r + 1}, column {c + 1})", row_lines[r])
            seen[value] = (r, c)


def _grid_from_chars(line: Line, cursor: Cursor) -> tuple[list[list[int]], int]:
    text = line.text.strip()
    offset = len(line.text) - len(line.text.lstrip())
    side = math.isqrt(len(text))
    if len(text) not in (16, 81):
        raise cursor.error(f"a puzzle line has 16 (4x4) or 81 (9x9) characters, this one "
                           f"has {len(text)}", line)
    values = []
    for position, char in enumerate(text):
        if char in ".0":
            values.append(0)
        elif is_integer(char) and 1 <= int(char) <= side:
            values.append(int(char))
        else:
            problem = "out of range" if is_integer(char) else "not a digit or '.'"
            raise cursor.error(f"character {char!r} is {problem} for a {side}x{side} Sudoku",
                               line, column=offset + position + 1)
    return [values[r * side:(r + 1) * side] for r in range(side)], side


def _grid_rows(cursor: Cursor, size: int, empty: str = "0") -> tuple[list[list[int]], list[Line]]:
    rows, row_lines = [], []
    for r in range(size):
        line = cursor.next(f"row {r + 1} of {size}")
        tokens = line.tokens()
        if len(tokens) != size:
            raise cursor.error(f"row {r + 1} has {len(tokens)} entries, expected {size}", line)
        row = []
        for token in tokens:
            value = 0 if token.text == empty else parse_int(token, cursor.source, "a digit")
            if not 0 <= value <= size:
                raise cursor.error(f"value {value} is outside 0..{size}", token)
            row.append(value)
        rows.append(row)
        row_lines.append(line)
    return rows, row_lines


def _instance(name: str, rows: list[list[int]], row_lines: list[Line], cursor: Cursor,
              solution: list[list[int]] | None = None,
              solution_line: Line | None = None) -> SudokuInstance:
    box = _box_of_size(len(rows), cursor, row_lines[0])
    _check_givens(rows, row_lines, box, cursor)
    instance = SudokuInstance(name, box, tuple(map(tuple, rows)), None, cursor.source)
    if solution is None:
        return instance
    known = SudokuSolution(tuple(map(tuple, solution)))
    wrong = check(instance, known)
    if wrong:
        raise cursor.error(f"the known solution of {name!r} is not one: {wrong[0]}",
                           solution_line or row_lines[0])
    return replace(instance, known_solution=known)


def _unique_name(name: str, seen: dict[str, Line], line: Line, cursor: Cursor) -> None:
    """Two instances of one file may not share a name: ``--instance`` could not tell them."""
    if name in seen:
        raise cursor.error(f"a second instance named {name!r} (the first is on line "
                           f"{seen[name].number})", line)
    seen[name] = line


Located = tuple[SudokuInstance, int]
"""An instance with the line it starts on (companion files are checked against it)."""


def _read_char_lines(cursor: Cursor, stem: str) -> list[Located]:
    instances: list[Located] = []
    while not cursor.at_end():
        line = cursor.next("a puzzle line")
        rows, side = _grid_from_chars(line, cursor)
        instances.append((_instance(f"{stem}#{len(instances) + 1}", rows, [line] * side,
                                    cursor), line.number))
    return instances


def _read_named_lines(cursor: Cursor) -> list[Located]:
    instances: list[Located] = []
    names: dict[str, Line] = {}
    while not cursor.at_end():
        line = cursor.next("a named puzzle line")
        tokens = line.tokens()
        if len(tokens) != 5:
            raise cursor.error(f"a named line has 5 fields (name set clues puzzle solution), "
                               f"this one has {len(tokens)}", line)
        name, puzzle, solution = tokens[0].text, tokens[3], tokens[4]
        _unique_name(name, names, line, cursor)
        rows, side = _grid_from_chars(Line(line.number, " " * (puzzle.column - 1)
                                           + puzzle.text), cursor)
        solved, _ = _grid_from_chars(Line(line.number, " " * (solution.column - 1)
                                          + solution.text), cursor)
        instances.append((_instance(name, rows, [line] * side, cursor, solved, line),
                          line.number))
    return instances


def _read_size_grids(cursor: Cursor, stem: str) -> list[Located]:
    instances: list[Located] = []
    while not cursor.at_end():
        header = cursor.next("a size line")
        tokens = header.tokens()
        if len(tokens) != 1:
            raise cursor.error("expected a line with the grid size N", header)
        size = parse_int(tokens[0], cursor.source, "the grid size N")
        _box_of_size(size, cursor, header)
        rows, row_lines = _grid_rows(cursor, size)
        instances.append((_instance(f"{stem}#{len(instances) + 1}", rows, row_lines, cursor),
                          header.number))
    return instances


def _read_puzzlekit(cursor: Cursor) -> list[Located]:
    instances: list[Located] = []
    names: dict[str, Line] = {}
    while not cursor.at_end():
        header = cursor.next("a '== name' line")
        if not header.text.startswith("=="):
            raise cursor.error("expected a block header '== name'", header)
        name = header.text[2:].strip()
        _unique_name(name, names, header, cursor)
        peeked = cursor.peek()
        if peeked is not None and peeked.text.startswith("source:"):
            cursor.next("source")
        rows, row_lines = _puzzlekit_section(cursor, "problem:")
        solution, solution_lines = None, None
        peeked = cursor.peek()
        if peeked is not None and peeked.text.strip() == "solution:":
            solution, solution_lines = _puzzlekit_section(cursor, "solution:")
        instances.append((_instance(name, rows, row_lines, cursor, solution,
                                    solution_lines[0] if solution_lines else None),
                          header.number))
    return instances


def _puzzlekit_section(cursor: Cursor, keyword: str) -> tuple[list[list[int]], list[Line]]:
    line = cursor.next(keyword)
    if line.text.strip() != keyword:
        raise cursor.error(f"expected {keyword!r}", line)
    dimensions = cursor.next("'<rows> <cols>'")
    tokens = dimensions.tokens()
    if len(tokens) != 2:
        raise cursor.error("expected '<rows> <cols>'", dimensions)
    rows, columns = (parse_int(t, cursor.source, "a grid dimension") for t in tokens)
    if rows != columns:
        raise cursor.error(f"a Sudoku grid is square, this one is {rows}x{columns}", dimensions)
    _box_of_size(rows, cursor, dimensions)
    return _grid_rows(cursor, rows, empty="-")


def parse(text: str, source: str = "<string>") -> list[SudokuInstance]:
    """Every instance in ``text``, in order; bad input raises ``ParseError`` (file:line:col)."""
    return [instance for instance, _ in _parse_located(text, source)]


def _parse_located(text: str, source: str) -> list[Located]:
    cursor = Cursor(content_lines(text), source)
    first = cursor.peek()
    if first is None:
        raise ParseError("no puzzle found (the input is empty or only comments)", source=source)
    stem = Path(source).stem if source != "<string>" else "puzzle"
    if any(line.text.startswith("==") for line in cursor.lines):
        return _read_puzzlekit(cursor)
    words = first.tokens()
    if len(words) == 1:
        # A line of 16 or 81 characters is a puzzle even when all of them are digits.
        if is_integer(words[0].text) and len(words[0].text) not in (16, 81):
            return _read_size_grids(cursor, stem)
        return _read_char_lines(cursor, stem)
    if all(is_integer(word.text) for word in words):
        return _read_size_grids(cursor, stem)  # a size line with too many numbers
    return _read_named_lines(cursor)


def _companion(path: Path) -> Path | None:
    if path.stem.endswith((".solution", ".solutions")):
        return None
    for suffix in (".solutions", ".solution"):
        candidate = path.with_name(path.stem + suffix + path.suffix)
        if candidate.exists():
            return candidate
    return None


def read_file(path: Path) -> list[SudokuInstance]:
    """Every instance of the file, with known solutions from a companion solutions file."""
    path = Path(path)
    instances = parse(read_text(path), str(path))
    companion = _companion(path)
    if companion is None:
        return instances
    text = read_text(companion)
    solutions = _parse_located(text, str(companion))
    if len(solutions) != len(instances):
        # Blame the first solution too many, or the end where the missing ones belong.
        line = solutions[len(instances)][1] if len(solutions) > len(instances) else last_line(text)
        raise ParseError(f"{counted(len(solutions), 'solution')} for "
                         f"{counted(len(instances), 'puzzle')} in "
                         f"{path.name}", source=str(companion), line=line)
    known = []
    for number, (instance, (solved, line)) in enumerate(zip(instances, solutions, strict=True), 1):
        solution = SudokuSolution(solved.givens)
        wrong = check(instance, solution)
        if wrong:
            raise ParseError(f"solution {number} is not one of puzzle {instance.name!r}: "
                             f"{wrong[0]}", source=str(companion), line=line)
        known.append(replace(instance, known_solution=solution))
    return known


def format(instance: SudokuInstance, style: str = "line") -> str:
    """The instance as a character line (``.`` empty; n <= 9) or as an ``N`` grid."""
    if style == "line":
        if instance.size > 9:
            raise ValueError("character lines hold grids up to 9x9; use style='grid'")
        return "".join(str(v) if v else "." for row in instance.givens for v in row)
    if style == "grid":
        width = len(str(instance.size))
        rows = (" ".join(f"{v:>{width}}" for v in row) for row in instance.givens)
        return "\n".join([str(instance.size), *rows]) + "\n"
    raise ValueError(f"unknown style {style!r}; use 'line' or 'grid'")


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
    for r in range(n):
        problems += _repeats(f"row {r + 1}", ((grid[r][c], c + 1) for c in range(n)), "columns")
    for c in range(n):
        problems += _repeats(f"column {c + 1}", ((grid[r][c], r + 1) for r in range(n)), "rows")
    for top in range(0, n, box):
        for left in range(0, n, box):
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
                body.append(svg.text(svg.MARGIN + (c + 0.5) * svg.CELL,
                                     svg.MARGIN + (r + 0.5) * svg.CELL, str(grid[r][c]),
                                     svg.CELL * (0.55 if n < 10 else 0.42),
                                     "black" if given else "#1f5fbf", bold=given))
    body += svg.grid_lines(n, n, instance.box)
    return svg.document(side, side, body)


def solution_to_json(solution: SudokuSolution) -> list[list[int]]:
    """Rows of integers, as ``puzzlelab solve --json`` prints them."""
    return [list(row) for row in solution.grid]


SUDOKU = PuzzleKind(name="sudoku", read_file=read_file, check=check, render_text=render_text,
                    render_svg=render_svg, solution_to_json=solution_to_json,
                    instance_name=lambda instance: instance.name,
                    known_solution=lambda instance: instance.known_solution)
PUZZLES.add("sudoku", SUDOKU)


def load(path: str | Path, selector: str | int | None = None) -> SudokuInstance:
    """One instance of a file, by name or 1-based index (or the only one)."""
    return SUDOKU.load(path, selector)
