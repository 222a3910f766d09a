"""Game IDs of Simon Tatham's Portable Puzzle Collection: the lines that hold them, their
sizes, and the run-length grids its puzzles share.

A game ID is ``PARAMS:DESCRIPTION``: parameters (a size such as ``9x9``, then flags a
puzzle may add) and the description of one puzzle, as ``sgt-solo --generate 1 3x3``
prints it. ``PARAMS#SEED`` is a random seed the program makes a puzzle from: it holds no
puzzle, so it is refused. A file of game IDs has one per line (blank lines and ``#``
comments allowed); each puzzle's reader takes such a file when its first line starts as
a game ID does (:func:`holds_game_ids`), whatever the file's name, and names the k-th
instance ``<file stem>#k``. What a game ID says is the puzzle alone: it has no solution.

Solo and Rect describe a grid in reading order as numbers (in decimal, ``_`` between two
numbers side by side) and runs of empty cells (``a`` one cell ... ``z`` 26):
:func:`numbered_cells` and :func:`numbered_description`.

>>> numbered_description([0, 0, 3, 12, 0])
'b3_12a'
>>> [game_id] = read_game_ids([Line(1, "2x2:b3_12a")], "ids.txt", "puzzle")
>>> game_id.name, game_id.params, numbered_cells(game_id, 5, 20)
('ids#1', '2x2', [0, 0, 3, 12, 0])
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from puzzlelab.errors import ParseError
from puzzles.text_input import Line, check_side, integer, shortened

_START = re.compile(r"[0-9][0-9A-Za-z.]*+[:#]")
"""How a game ID or a random seed starts: a number (the width), more parameters, ``:``
or ``#``. No other format PuzzleLab reads has a first line like it."""

_SIZE = re.compile(r"([0-9]+)(?:x([0-9]+))?")
_PIECE = re.compile(r"[a-z]|_|[1-9][0-9]*|.", re.DOTALL)
LONGEST_RUN = 26
"""Cells one letter of a run stands for: ``a`` 1 ... ``z`` 26."""


@dataclass(frozen=True)
class GameId:
    """One game ID of a file, with where it stands, so an error can point into it."""

    name: str
    params: str
    description: str
    line: Line
    column: int  # of the ID's first character
    source: str

    @property
    def description_column(self) -> int:
        """The column of the description's first character (after the ``:``)."""
        return self.column + len(self.params) + 1

    def error(self, message: str, offset: int | None = None,
              in_description: bool = True) -> ParseError:
        """A ``ParseError`` at this ID's line and, given ``offset`` (a character's place in
        the description, or in the parameters), its column."""
        column = None
        if offset is not None:
            column = (self.description_column if in_description else self.column) + offset
        return ParseError(message, source=self.source, line=self.line.number, column=column)


def holds_game_ids(lines: Sequence[Line]) -> bool:
    """True when the first content line starts as a game ID (or a random seed) does."""
    return bool(lines) and _START.match(lines[0].text.strip()) is not None


def read_game_ids(lines: Sequence[Line], source: str, fallback: str) -> list[GameId]:
    """The game ID on each of ``lines``, named ``<stem of source>#k`` (``fallback#k`` for
    text of no file); a line that is none raises ``ParseError`` saying why."""
    stem = Path(source).stem if source != "<string>" else fallback
    found: list[GameId] = []
    for line in lines:
        words = line.tokens()
        if len(words) != 1:
            raise ParseError(f"a game ID is one word PARAMS:DESCRIPTION, this line has "
                             f"{len(words)} words", source=source, line=line.number,
                             column=words[1].column)
        word = words[0]
        colon, hash_sign = word.text.find(":"), word.text.find("#")
        if hash_sign != -1 and (colon == -1 or hash_sign < colon):
            raise ParseError(f"{shortened(word.text)} is a random seed (PARAMS#SEED), from "
                             f"which a program of the collection makes a puzzle; it holds "
                             f"none: give the game ID PARAMS:DESCRIPTION that "
                             f"`--generate 1 PARAMS#SEED` prints", source=source,
                             line=line.number, column=word.column)
        if colon == -1 or _START.match(word.text) is None:
            raise ParseError(f"expected a game ID PARAMS:DESCRIPTION (such as 7x7:...), found "
                             f"{shortened(word.text)}", source=source, line=line.number,
                             column=word.column)
        found.append(GameId(f"{stem}#{len(found) + 1}", word.text[:colon],
                            word.text[colon + 1:], line, word.column, source))
    return found


def size_of(game_id: GameId, what: str) -> tuple[int, int, str]:
    """The width and height the parameters start with (``W`` alone is ``WxW``) and the
    parameters left after them; each side at least 1 and at most the sides read."""
    match = _SIZE.match(game_id.params)
    if match is None:  # holds_game_ids and read_game_ids let no such ID through
        raise game_id.error(f"{what} parameters start with the size WxH", 0, False)
    sides = []
    for group in (1, 2):
        text = match.group(group) or match.group(1)
        offset = match.start(group) if match.group(group) else 0
        side = integer(text, game_id.source, game_id.line.number, game_id.column + offset)
        if side < 1:
            raise game_id.error(f"a grid side must be at least 1, not {side}", offset, False)
        check_side(side, game_id.source, game_id.line.number, game_id.column + offset)
        sides.append(side)
    return sides[0], sides[1], game_id.params[match.end():]


def numbered_cells(game_id: GameId, cells: int, largest: int,
                   description: str | None = None) -> list[int]:
    """The ``cells`` values of a description of numbers and runs of empty cells (0), in
    reading order; a number above ``largest``, another character, or a count of cells
    other than ``cells`` raises ``ParseError`` at its column. ``description`` is the part
    of the ID's description to read (by default all of it)."""
    text = game_id.description if description is None else description
    values: list[int] = []
    for piece in _PIECE.finditer(text):
        found, offset = piece.group(), piece.start()
        if "a" <= found <= "z" and len(found) == 1:
            values += [0] * (ord(found) - ord("a") + 1)
        elif found[0] in "123456789":
            number = integer(found, game_id.source, game_id.line.number,
                             game_id.description_column + offset)
            if number > largest:
                raise game_id.error(f"the number {number} is more than {largest}, the "
                                    f"largest this grid holds", offset)
            values.append(number)
        elif found != "_":
            raise game_id.error(f"unexpected {found!r} in the description: a cell is a "
                                f"number, a letter a-z is a run of 1-26 empty cells, '_' "
                                f"parts two numbers", offset)
        if len(values) > cells:
            raise game_id.error(f"the description goes on past the grid's {cells} cells",
                                offset)
    if len(values) < cells:
        raise game_id.error(f"the description gives {len(values)} of the grid's {cells} "
                            f"cells", len(text))
    return values


def run_letters(run: int) -> str:
    """``run`` empty cells as letters: ``z`` for each 26, then one for the rest.

    >>> run_letters(3), run_letters(26), run_letters(30)
    ('c', 'z', 'zd')
    """
    whole, rest = divmod(run, LONGEST_RUN)
    return "z" * whole + (chr(ord("a") - 1 + rest) if rest else "")


def numbered_description(values: Iterable[int]) -> str:
    """Cell values in reading order (0 empty) as Solo and Rect describe them: numbers in
    decimal, runs of empty cells as letters, ``_`` between two numbers side by side."""
    parts: list[str] = []
    run = 0
    for value in values:
        if not value:
            run += 1
            continue
        if run:
            parts.append(run_letters(run))
            run = 0
        elif parts:
            parts.append("_")
        parts.append(str(value))
    if run:
        parts.append(run_letters(run))
    return "".join(parts)
