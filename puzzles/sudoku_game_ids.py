"""Sudoku as Solo's game IDs (``sgt-solo``): ``3x3:`` then the givens, read and written.

Solo's parameters are its box shape ``CxR`` (``3x3``; ``3`` alone is ``3x3``), then flags:
``j`` jigsaw (irregular boxes), ``k`` killer (cages with sums), ``x`` X (both diagonals
hold every digit), which add rules PuzzleLab's Sudoku does not have and are refused;
symmetry (``r2``, ``m4``, ``a`` ...) and difficulty (``dt`` ... ``du``) only say how a puzzle
was made and are passed over. Boxes of C x R cells with C and R different (``2x3``, a
6x6 grid) are refused too: PuzzleLab's Sudoku has square boxes. The description is the
grid in reading order, givens as numbers and runs of empty cells as letters
(:func:`puzzles.game_ids.numbered_cells`). Solo holds at most 31 digits, so boxes of 2x2 to
5x5 (4x4 to 25x25 grids) have game IDs.

>>> solo_game_id(2, ((1, 0, 0, 0), (0, 0, 0, 0), (0, 0, 4, 0), (0, 0, 0, 0)))
'2x2:1i4e'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from puzzlelab.errors import UnsupportedCombination
from puzzles.game_ids import GameId, numbered_cells, numbered_description, size_of

MOST_DIGITS = 31
"""The most digits (grid side) Solo plays: boxes up to 5x5."""

_FLAGS = re.compile(r"(?P<rule>[jkx])|(?P<symmetry>(?:md?|r)[0-9]*|a)|(?P<grade>d[tbiaeu])")
_RULES = {"j": "a jigsaw Sudoku (irregular boxes, flag j)",
          "k": "a killer Sudoku (cages with sums, flag k)",
          "x": "an X Sudoku (both diagonals hold every digit, flag x)"}


def read_solo(game_id: GameId) -> list[list[int]]:
    """The givens (rows, 0 empty) of a Solo game ID; a variant PuzzleLab's Sudoku lacks,
    or a bad description, raises ``ParseError`` naming the ID's line."""
    columns, rows, flags = size_of(game_id, "Solo's")
    position = len(game_id.params) - len(flags)
    while position < len(game_id.params):
        flag = _FLAGS.match(game_id.params, position)
        if flag is None:
            raise game_id.error(f"unexpected {game_id.params[position]!r} in Solo's "
                                f"parameters (the box shape CxR, then j, k, x, a symmetry "
                                f"or a difficulty)", position, False)
        if flag.group("rule"):
            raise game_id.error(f"this is {_RULES[flag.group('rule')]}, a rule PuzzleLab's "
                                f"Sudoku does not have", position, False)
        position = flag.end()
    if columns != rows:
        raise game_id.error(f"boxes of {columns}x{rows} cells: PuzzleLab's Sudoku has "
                            f"square boxes (2x2 to 5x5)", 0, False)
    side = columns * rows
    if columns < 2 or side > MOST_DIGITS:
        raise game_id.error(f"Solo's boxes are 2x2 to 5x5 (at most {MOST_DIGITS} digits), "
                            f"not {columns}x{rows}", 0, False)
    if "," in game_id.description:
        raise game_id.error("a second part after ',' belongs to a jigsaw or killer Sudoku, "
                            "whose flag the parameters lack", game_id.description.index(","))
    values = numbered_cells(game_id, side * side, side)
    return [values[row * side:(row + 1) * side] for row in range(side)]


def solo_game_id(box: int, givens: Sequence[Sequence[int]]) -> str:
    """The Solo game ID of a Sudoku with ``box`` x ``box`` boxes; a grid wider than Solo's
    raises ``UnsupportedCombination``."""
    if box * box > MOST_DIGITS:
        raise UnsupportedCombination(
            f"Solo plays grids of at most {MOST_DIGITS} digits (boxes up to 5x5): a "
            f"{box * box}x{box * box} Sudoku has no game ID")
    return f"{box}x{box}:" + numbered_description(value for row in givens for value in row)
