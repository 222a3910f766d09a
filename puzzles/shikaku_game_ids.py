"""Shikaku as Rect's game IDs (``sgt-rect``): ``WxH:`` then the clues, read and written.

Rect's parameters are the grid's width and height (``7x5``: 7 columns, 5 rows; ``7``
alone is ``7x7``), then, as the program writes them when asked for all its parameters,
``e`` and an expansion factor and ``a`` (no uniqueness check), which only say how a
puzzle was made and are passed over. The description is the grid in reading order,
clues as numbers and runs of cells without one as letters
(:func:`puzzles.game_ids.numbered_cells`). Rect plays grids of two cells or more.

>>> rect_game_id(((2, 0, 0), (0, 0, 4)))
'3x2:2d4'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from puzzlelab.errors import UnsupportedCombination
from puzzles.game_ids import GameId, numbered_cells, numbered_description, size_of
from puzzles.text_input import shortened

_MADE_BY = re.compile(r"(?:e[0-9]*+(?:\.[0-9]*+)?)?a?")
"""The parameters after the size that say how a puzzle was made: ``e0.5``, ``a``."""


def read_rect(game_id: GameId) -> list[list[int]]:
    """The clues (rows, 0 no clue) of a Rect game ID; a bad one raises ``ParseError``
    naming the ID's line and, where one character is wrong, its column."""
    width, height, rest = size_of(game_id, "Rect's")
    made_by = _MADE_BY.fullmatch(rest)
    if made_by is None:
        offset = len(game_id.params) - len(rest)
        raise game_id.error(f"unexpected {shortened(rest)} in Rect's parameters (the size "
                            f"WxH, then e and an expansion factor, a)", offset, False)
    if width * height < 2:
        raise game_id.error("Rect's grid has two cells or more", 0, False)
    cells = width * height
    values = numbered_cells(game_id, cells, cells)
    return [values[row * width:(row + 1) * width] for row in range(height)]


def rect_game_id(clues: Sequence[Sequence[int]]) -> str:
    """The Rect game ID of a Shikaku's clues (rows, 0 no clue); a one-cell grid, which
    Rect does not play, raises ``UnsupportedCombination``."""
    height, width = len(clues), len(clues[0])
    if width * height < 2:
        raise UnsupportedCombination("Rect plays grids of two cells or more: a 1x1 Shikaku "
                                     "has no game ID")
    return f"{width}x{height}:" + numbered_description(clue for row in clues for clue in row)
