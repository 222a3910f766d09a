"""Sudoku grids written one row per line, as people type them and as terminals show them.

A 4x4 or 9x9 row is its characters (``53..7....``; ``.`` or ``0`` empty; spaces
allowed); a larger one is numbers separated by spaces. ``|`` and ``+`` may separate
boxes within a row, and a line of ``-``, ``=``, ``+`` and ``|`` alone divides bands,
so the picture ``puzzles.sudoku.render_text`` draws reads back::

     5 3 . | . 7 . | . . .
     6 . . | 1 9 5 | . . .
    -------+-------+-------

Grids follow one another; each has as many rows as its first row has cells. Whether
the givens repeat is checked by :mod:`puzzles.sudoku_formats`, which builds the grids.
"""

from __future__ import annotations

import math
import re

from puzzles.text_input import Cursor, Line, Token, integer, is_integer, shortened

CHARACTER_ROW_SIZES = (4, 9)
"""Grid sizes whose rows may be written as characters: every cell is one digit or ``.``."""

_WORD = re.compile(r"[^\s|+]+")
_DIGITS_AND_DOTS = re.compile(r"[0-9.]+")
_DIVIDER_CHARACTERS = frozenset("-=+|")


def is_divider(line: Line) -> bool:
    """True for a line of box dividers such as ``------+-------+------``."""
    return set(line.text.replace(" ", "").replace("\t", "")) <= _DIVIDER_CHARACTERS


def looks_like_grid_row(line: Line) -> bool:
    """True when the first line of a file starts a grid of lines: a divider, a row with
    ``|`` separators, 4 or 9 characters, or 4 words or more of digits and dots, none
    longer than 9 (so that a row of the wrong length is blamed as one). A size line
    (``9``), a named line and a 16- or 81-character line are none of these.

    >>> [looks_like_grid_row(Line(1, text)) for text in ("53..7....", "9", "p1 s 6 1...")]
    [True, False, False]
    """
    if is_divider(line) or "|" in line.text:
        return True
    if len(_characters(line)) in CHARACTER_ROW_SIZES:
        return True
    words = _words(line)
    return len(words) >= 4 and all(len(word.text) <= 9 and _DIGITS_AND_DOTS.fullmatch(word.text)
                                   for word in words)


def read_grid_lines(cursor: Cursor) -> list[tuple[list[list[int]], list[Line], int]]:
    """Every grid of the rest of ``cursor``: its rows (0 empty), the line of each row, and
    the line it starts on (a divider above it included)."""
    grids = []
    while not cursor.at_end():
        start = cursor.lines[cursor.position].number
        rows: list[list[int]] = []
        row_lines: list[Line] = []
        by_characters = False
        while not rows or len(rows) < len(rows[0]):
            line = cursor.next(f"row {len(rows) + 1} of {len(rows[0])}" if rows
                               else "a grid row")
            if is_divider(line):
                continue
            if not rows:  # the first row decides how the grid's rows are written
                by_characters = len(_characters(line)) in CHARACTER_ROW_SIZES
            cells = _characters(line) if by_characters else _words(line)
            if not rows:
                _check_side(len(cells), line, cursor)
            elif len(cells) != len(rows[0]):
                what = "characters (digits or '.')" if by_characters else "numbers or '.'"
                raise cursor.error(f"row {len(rows) + 1} has {len(cells)} {what}, expected "
                                   f"{len(rows[0])}", line)
            rows.append([_cell_value(cell, len(cells), cursor) for cell in cells])
            row_lines.append(line)
        while (peeked := cursor.peek()) is not None and is_divider(peeked):
            cursor.next("a divider")  # the grid's bottom border
        grids.append((rows, row_lines, start))
    return grids


def _words(line: Line) -> list[Token]:
    """The words of a row, ``|`` and ``+`` separating them as spaces do."""
    return [Token(match.group(), line.number, match.start() + 1)
            for match in _WORD.finditer(line.text)]


def _characters(line: Line) -> list[Token]:
    """Every character of a row but spaces and box separators, with its column."""
    return [Token(char, line.number, word.column + offset)
            for word in _words(line) for offset, char in enumerate(word.text)]


def _check_side(side: int, line: Line, cursor: Cursor) -> None:
    box = math.isqrt(side)
    if box < 2 or box * box != side:
        raise cursor.error(f"a first row of {side} cells: a Sudoku row has 4, 9, 16, 25, ... "
                           f"cells (the square of a box size >= 2)", line)


def _cell_value(cell: Token, side: int, cursor: Cursor) -> int:
    """A cell: ``.`` or ``0`` empty, else a number from 1 to ``side``."""
    if cell.text == ".":
        return 0
    value = integer(cell.text, cursor.source, cell.line, cell.column) \
        if is_integer(cell.text) else None
    if value is not None and 0 <= value <= side:
        return value
    problem = "out of range" if value is not None else "not a digit or '.'"
    raise cursor.error(f"{shortened(cell.text)} is {problem} for a {side}x{side} Sudoku",
                       cell)
