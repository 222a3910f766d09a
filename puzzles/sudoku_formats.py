"""The syntax of Sudoku files: text to grids with the lines they came from, and grids to text.

Formats read (auto-detected; see ``puzzles/data/sudoku/SOURCES.md``):

* character lines, one puzzle per line (16 or 81 characters; ``.`` or ``0`` empty);
* grid lines, one row per line, with or without spaces and ``|``, ``-``, ``+`` box
  separators (see :mod:`puzzles.sudoku_grid_lines`);
* named lines ``name set clues puzzle solution`` (the KU Leuven course file);
* an ``N`` line followed by N rows of N integers (``0`` empty);
* puzzlekit blocks (``== name``, optional ``source:``, ``problem:`` and optional
  ``solution:``, each a ``<rows> <cols>`` line and rows with ``-`` for empty): the
  format PuzzleLab writes, since it keeps names, solutions and any size;
* Solo's game IDs, one a line (``3x3:b9a8...``; see :mod:`puzzles.sudoku_game_ids`).

A file ``X.txt`` with a companion ``X.solutions.txt`` or ``X.solution.txt`` gets
those grids as the instances' known solutions. Whether a known solution solves its
puzzle is checked by ``puzzles.sudoku``, which builds the instances.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from pathlib import Path
from typing import Any

from puzzlelab.errors import ParseError
from puzzles.game_ids import holds_game_ids, read_game_ids
from puzzles.sudoku_game_ids import read_solo
from puzzles.sudoku_grid_lines import is_divider, looks_like_grid_row, read_grid_lines
from puzzles.text_input import Cursor, Line, check_side, content_lines, is_integer, parse_int

Rows = list[list[int]]

COMPANION_SUFFIXES = (".solutions", ".solution")
"""A file ``X.txt`` finds its known solutions in ``X.solutions.txt`` or ``X.solution.txt``."""


@dataclass(frozen=True)
class ReadGrid:
    """One puzzle as a file gives it: digits by rows (0 empty), with the lines to blame."""

    name: str
    box: int
    givens: Rows
    solution: Rows | None
    line: int  # where the puzzle starts
    solution_line: int  # where a known solution that does not fit is blamed


def read_grids(text: str, source: str) -> list[ReadGrid]:
    """Every puzzle of ``text`` in order; bad input raises ``ParseError`` (file:line:col)."""
    cursor = Cursor(content_lines(text), source)
    first = cursor.peek()
    if first is None:
        raise ParseError("no puzzle found (the input is empty or only comments)", source=source)
    stem = Path(source).stem if source != "<string>" else "puzzle"
    if holds_game_ids(cursor.lines):
        return [_grid(game_id.name, rows, [game_id.line] * len(rows), cursor,
                      game_id.line.number)
                for game_id in read_game_ids(cursor.lines, source, stem)
                for rows in [read_solo(game_id)]]
    if any(line.text.startswith("==") and not is_divider(line) for line in cursor.lines):
        return _read_puzzlekit(cursor)
    if looks_like_grid_row(first):
        return [_grid(f"{stem}#{number}", rows, row_lines, cursor, start)
                for number, (rows, row_lines, start) in enumerate(read_grid_lines(cursor), 1)]
    words = first.tokens()
    if len(words) == 1:
        # A line of 16 or 81 characters is a puzzle even when all of them are digits.
        if is_integer(words[0].text) and len(words[0].text) not in (16, 81):
            return _read_size_grids(cursor, stem)
        return _read_char_lines(cursor, stem)
    if all(is_integer(word.text) for word in words):
        return _read_size_grids(cursor, stem)  # a size line with too many numbers
    return _read_named_lines(cursor)


def companion_of(path: Path) -> Path | None:
    """The existing solutions file beside ``path`` (None for a solutions file itself)."""
    if is_companion(path):
        return None
    for suffix in COMPANION_SUFFIXES:
        candidate = path.with_name(path.stem + suffix + path.suffix)
        if candidate.exists():
            return candidate
    return None


def is_companion(path: Path) -> bool:
    """True for a solutions file, ``X.solutions.txt`` or ``X.solution.txt``."""
    return path.stem.endswith(COMPANION_SUFFIXES)


# ---------------------------------------------------------------- writing


def character_line(givens: Sequence[Sequence[int]]) -> str:
    """A grid up to 9x9 as one line of characters, ``.`` for an empty cell."""
    if len(givens) > 9:
        raise ValueError("character lines hold grids up to 9x9; use style='grid'")
    return "".join(str(v) if v else "." for row in givens for v in row)


def size_grid(givens: Sequence[Sequence[int]]) -> str:
    """A grid as an ``N`` line and N rows of integers, ``0`` for an empty cell."""
    return "\n".join([str(len(givens)), *_rows_text(givens, "0")]) + "\n"


def puzzlekit_block(name: str, givens: Sequence[Sequence[int]],
                    solution: Sequence[Sequence[int]] | None = None) -> str:
    """A named block: the puzzle, ``-`` for an empty cell, and the solution when given."""
    size = len(givens)
    lines = [f"== {name}", "problem:", f"{size} {size}", *_rows_text(givens, "-")]
    if solution is not None:
        lines += ["solution:", f"{size} {size}", *_rows_text(solution, "-")]
    return "\n".join(lines) + "\n"


def _rows_text(grid: Sequence[Sequence[int]], empty: str) -> list[str]:
    width = len(str(len(grid)))
    # each value's text made once: a campaign writes every instance it stores
    names = [f"{empty:>{width}}", *(f"{v:>{width}}" for v in range(1, len(grid) + 1))]
    return [" ".join([names[v] for v in row]) for row in grid]


# ---------------------------------------------------------------- reading


def _box_of_size(size: int, cursor: Cursor, where: Line) -> int:
    check_side(size, cursor.source, where.number, what="a grid size")
    box = math.isqrt(max(size, 0))
    if box < 2 or box * box != size:
        raise cursor.error(f"grid size {size} is not the square of a box size >= 2", where)
    return box


@cache
def _units(box: int) -> list[tuple[str, list[tuple[int, int]], itemgetter[Any]]]:
    """The rows, columns and boxes of a grid of boxes ``box`` a side: each as its cells,
    and as a getter of its values from the grid's row-major list."""
    size = box * box
    units = ([("row", [(r, c) for c in range(size)]) for r in range(size)]
             + [("column", [(r, c) for r in range(size)]) for c in range(size)]
             + [("box", [(top + r, left + c) for r in range(box) for c in range(box)])
                for top in range(0, size, box) for left in range(0, size, box)])
    return [(unit, cells, itemgetter(*(r * size + c for r, c in cells)))
            for unit, cells in units]


def _check_givens(rows: Rows, row_lines: list[Line], box: int, cursor: Cursor) -> None:
    """A given repeated in a row, column or box is an error naming both cells."""
    flat = [value for row in rows for value in row]
    for unit, cells, values_of in _units(box):
        values = values_of(flat)
        if len(set(values)) - (0 in values) == len(values) - values.count(0):
            continue  # no given repeats (the common case, checked at once)
        seen: dict[int, tuple[int, int]] = {}
        for r, c in cells:
            value = rows[r][c]
            if value and value in seen:
                first = seen[value]
                raise cursor.error(
                    f"duplicate given {value} in a {unit}: cells (row {first[0] + 1}, column "
                    f"{first[1] + 1}) and (row {r + 1}, column {c + 1})", row_lines[r])
            seen[value] = (r, c)


_VALUE_BYTES = bytes.maketrans(b".0123456789", b"\x00" + bytes(range(10)))
"""Each character of a puzzle line as the byte of its value (``.`` and ``0``: 0)."""
_NOT_A_CELL = str.maketrans("", "", ".0123456789")
"""Deletes every character that may stand for a cell: what is left is wrong."""


def _grid_from_chars(line: Line, cursor: Cursor) -> tuple[Rows, int]:
    text = line.text.strip()
    offset = len(line.text) - len(line.text.lstrip())
    side = math.isqrt(len(text))
    if len(text) not in (16, 81):
        raise cursor.error(f"a puzzle line has 16 (4x4) or 81 (9x9) characters, this one "
                           f"has {len(text)}", line)
    if not text.translate(_NOT_A_CELL):  # the common case, in C: digits and dots only
        values = list(text.encode("ascii").translate(_VALUE_BYTES))
        if max(values) <= side:
            return [values[r * side:(r + 1) * side] for r in range(side)], side
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


def _grid_rows(cursor: Cursor, size: int, empty: str = "0") -> tuple[Rows, list[Line]]:
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


def _grid(name: str, rows: Rows, row_lines: list[Line], cursor: Cursor, start: int,
          solution: Rows | None = None, solution_line: Line | None = None) -> ReadGrid:
    box = _box_of_size(len(rows), cursor, row_lines[0])
    _check_givens(rows, row_lines, box, cursor)
    return ReadGrid(name, box, rows, solution, start, (solution_line or row_lines[0]).number)


def _unique_name(name: str, seen: dict[str, Line], line: Line, cursor: Cursor) -> None:
    """Two instances of one file may not share a name: ``--instance`` could not tell them."""
    if name in seen:
        raise cursor.error(f"a second instance named {name!r} (the first is on line "
                           f"{seen[name].number})", line)
    seen[name] = line


def _read_char_lines(cursor: Cursor, stem: str) -> list[ReadGrid]:
    grids: list[ReadGrid] = []
    while not cursor.at_end():
        line = cursor.next("a puzzle line")
        rows, side = _grid_from_chars(line, cursor)
        grids.append(_grid(f"{stem}#{len(grids) + 1}", rows, [line] * side, cursor,
                           line.number))
    return grids


def _read_named_lines(cursor: Cursor) -> list[ReadGrid]:
    grids: list[ReadGrid] = []
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
        grids.append(_grid(name, rows, [line] * side, cursor, line.number, solved, line))
    return grids


def _read_size_grids(cursor: Cursor, stem: str) -> list[ReadGrid]:
    grids: list[ReadGrid] = []
    while not cursor.at_end():
        header = cursor.next("a size line")
        tokens = header.tokens()
        if len(tokens) != 1:
            raise cursor.error("expected a line with the grid size N", header)
        size = parse_int(tokens[0], cursor.source, "the grid size N")
        _box_of_size(size, cursor, header)
        rows, row_lines = _grid_rows(cursor, size)
        grids.append(_grid(f"{stem}#{len(grids) + 1}", rows, row_lines, cursor,
                           header.number))
    return grids


def _read_puzzlekit(cursor: Cursor) -> list[ReadGrid]:
    grids: list[ReadGrid] = []
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
        grids.append(_grid(name, rows, row_lines, cursor, header.number, solution,
                           solution_lines[0] if solution_lines else None))
    return grids


def _puzzlekit_section(cursor: Cursor, keyword: str) -> tuple[Rows, list[Line]]:
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
