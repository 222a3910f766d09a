"""Nonograms as Pattern's game IDs (``sgt-pattern``): ``WxH:`` then the clues.

Pattern's parameters are the picture's width and height (``10x5``: 10 columns, 5 rows;
``10`` alone is ``10x10``). The description gives the clue of each column, left to right,
then of each row, top to bottom, separated by ``/``; a clue is its block lengths
separated by ``.``, an empty line's clue nothing at all. After a ``,`` Pattern may fix
some cells of the picture as extra clues, which PuzzleLab's nonograms do not have: such
an ID is refused.

>>> pattern_game_id(((1,), (2,)), ((2,), (1,)))
'2x2:2/1/1/2'
"""

from __future__ import annotations

from collections.abc import Sequence

from puzzles.game_ids import GameId, size_of
from puzzles.nonogram_formats import Clue, ClueFile
from puzzles.text_input import integer, shortened

_DIGITS = frozenset("0123456789")


def read_pattern(game_id: GameId) -> ClueFile:
    """The clues of a Pattern game ID, each on the ID's line; a bad one raises
    ``ParseError`` naming the line and, where one character is wrong, its column."""
    width, height, rest = size_of(game_id, "Pattern's")
    if rest:
        raise game_id.error(f"unexpected {shortened(rest)} in Pattern's parameters (the "
                            f"size WxH alone)", len(game_id.params) - len(rest), False)
    text = game_id.description
    if "," in text:
        raise game_id.error("cells fixed after ',' as extra clues: PuzzleLab's nonograms "
                            "have the lines' clues alone", text.index(","))
    lines = text.split("/")
    if len(lines) != width + height:
        raise game_id.error(f"{len(lines)} clues separated by '/', expected {width + height} "
                            f"({width} columns, then {height} rows)", len(text))
    clues: list[Clue] = []
    offset = 0
    for line_text in lines:
        clues.append(_clue(game_id, line_text, offset))
        offset += len(line_text) + 1
    number = game_id.line.number
    return ClueFile(rows=clues[width:], columns=clues[:width], row_lines=[number] * height,
                    column_lines=[number] * width)


def _clue(game_id: GameId, text: str, offset: int) -> Clue:
    """One line's block lengths, from ``text`` (at ``offset`` in the description)."""
    if not text:
        return ()
    blocks = []
    for block in text.split("."):
        if not block or not set(block) <= _DIGITS:
            wrong = next((place for place, char in enumerate(block) if char not in _DIGITS),
                         len(block))
            raise game_id.error(f"a clue is block lengths separated by '.', not "
                                f"{shortened(text)}", offset + wrong)
        length = integer(block, game_id.source, game_id.line.number,
                         game_id.description_column + offset)
        if length < 1:
            raise game_id.error(f"a block is at least 1 cell long, not {length}", offset)
        blocks.append(length)
        offset += len(block) + 1
    return tuple(blocks)


def pattern_game_id(rows: Sequence[Clue], columns: Sequence[Clue]) -> str:
    """The Pattern game ID of a nonogram's row and column clues (any size has one)."""
    described = "/".join(".".join(map(str, clue)) for clue in (*columns, *rows))
    return f"{len(columns)}x{len(rows)}:{described}"
