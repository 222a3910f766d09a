"""Hashiwokakero as Bridges' game IDs (``sgt-bridges``): ``WxHm2:`` then the islands.

Bridges' parameters are the grid's width and height (``10x8``: 10 columns, 8 rows; ``10``
alone is ``10x10``), then ``m`` and the most bridges between two islands (2 when not
given) and ``L`` when loops are forbidden; with all its parameters the program also
writes ``i`` (islands per hundred cells), ``e`` (expansion) and ``d`` (difficulty),
which only say how a puzzle was made and are passed over. PuzzleLab's Hashi is Bridges'
``m2`` with loops allowed: other ``m`` and ``L`` are rules it does not have, and are
refused. The description is the grid in reading order: an island is its number (``1``
to ``9``, then ``A`` to ``G`` for 10 to 16), a run of empty cells a letter (``a`` one cell
... ``z`` 26). Bridges plays grids of 3x3 or more with two islands or more, none of them
side by side.

>>> bridges_game_id(3, 3, {(0, 0): 2, (0, 2): 2})
'3x3m2:2a2f'
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from puzzlelab.errors import UnsupportedCombination
from puzzles.game_ids import GameId, run_letters, size_of
from puzzles.hashi_types import Cell, cell_name
from puzzles.text_input import Token, shortened

MOST_BRIDGES = 2
"""Bridges between two islands in PuzzleLab's Hashi: Bridges' ``m2``."""
MOST_ON_AN_ISLAND = 4 * MOST_BRIDGES
SMALLEST_SIDE = 3
"""Bridges plays grids of at least 3x3."""

_PARAMETERS = re.compile(r"(?:i[0-9]+)?(?:e[0-9]+)?(?:m(?P<most>[0-9]+))?(?P<no_loops>L)?"
                         r"(?:d[0-9]+)?")
_ISLANDS = {**{str(count): count for count in range(1, 10)},
            **{chr(ord("A") + count - 10): count for count in range(10, 17)}}


def read_bridges(game_id: GameId) -> tuple[int, int, dict[Cell, Token]]:
    """The rows, columns and islands (each as a token with its number and the column of
    its character) of a Bridges game ID; a rule PuzzleLab's Hashi lacks, or a bad
    description, raises ``ParseError`` naming the ID's line."""
    width, height, rest = size_of(game_id, "Bridges'")
    offset = len(game_id.params) - len(rest)
    parameters = _PARAMETERS.fullmatch(rest)
    if parameters is None:
        raise game_id.error(f"unexpected {shortened(rest)} in Bridges' parameters (the size "
                            f"WxH, then i, e, m, L, d, each but L with a number)", offset,
                            False)
    most = parameters.group("most")
    if most is not None and most.lstrip("0") != str(MOST_BRIDGES):
        shown = most if len(most) <= 6 else most[:6] + "..."
        raise game_id.error(f"m{shown} allows other than {MOST_BRIDGES} "
                            f"bridges between two islands: PuzzleLab's Hashi is Bridges' "
                            f"m{MOST_BRIDGES}",
                            offset + parameters.start("most") - 1, False)
    if parameters.group("no_loops"):
        raise game_id.error("loops forbidden (L): a rule PuzzleLab's Hashi does not have",
                            offset + parameters.start("no_loops"), False)
    if width < SMALLEST_SIDE or height < SMALLEST_SIDE:
        raise game_id.error(f"Bridges' grids are at least 3x3, not {width}x{height}", 0,
                            False)
    return height, width, _islands(game_id, width, height)


def _islands(game_id: GameId, width: int, height: int) -> dict[Cell, Token]:
    """Each island by its cell, from the description; islands side by side, or a count of
    cells other than the grid's, raise ``ParseError``."""
    islands: dict[Cell, Token] = {}
    place = 0
    for offset, char in enumerate(game_id.description):
        if place >= width * height:
            raise game_id.error(f"the description goes on past the grid's {width * height} "
                                f"cells", offset)
        if "a" <= char <= "z":
            place += ord(char) - ord("a") + 1
            continue
        count = _ISLANDS.get(char)
        if count is None:
            raise game_id.error(f"unexpected {char!r} in the description: an island is 1-9 "
                                f"or A-G (10-16), a letter a-z a run of 1-26 empty cells",
                                offset)
        if count > MOST_ON_AN_ISLAND:
            raise game_id.error(f"an island of {count}: with at most {MOST_BRIDGES} bridges "
                                f"each way an island has at most {MOST_ON_AN_ISLAND}", offset)
        cell = divmod(place, width)
        for beside in ((cell[0] - 1, cell[1]), (cell[0], cell[1] - 1)):
            if beside in islands:  # above, or to the left (never a cell of the row above)
                raise game_id.error(f"the islands at {cell_name(beside)} and "
                                    f"{cell_name(cell)} are side by side, which Bridges "
                                    f"does not allow", offset)
        islands[cell] = Token(str(count), game_id.line.number,
                              game_id.description_column + offset)
        place += 1
    if place > width * height:
        raise game_id.error(f"the description goes on past the grid's {width * height} "
                            f"cells", len(game_id.description) - 1)
    if place < width * height:
        raise game_id.error(f"the description gives {place} of the grid's "
                            f"{width * height} cells", len(game_id.description))
    if len(islands) < 2:
        raise game_id.error("Bridges' puzzles have two islands or more",
                            len(game_id.description))
    return islands


def bridges_game_id(rows: int, columns: int, islands: Mapping[Cell, int]) -> str:
    """The Bridges game ID of a Hashi (islands' numbers by cell); a grid narrower than 3
    cells or islands side by side, which Bridges refuses, raise
    ``UnsupportedCombination``."""
    if rows < SMALLEST_SIDE or columns < SMALLEST_SIDE:
        raise UnsupportedCombination(f"Bridges plays grids of at least 3x3: a {rows}x"
                                     f"{columns} Hashi has no game ID")
    for (row, column) in sorted(islands):
        for beside in ((row, column + 1), (row + 1, column)):
            if beside in islands:
                raise UnsupportedCombination(
                    f"Bridges does not allow islands side by side, as the islands at "
                    f"{cell_name((row, column))} and {cell_name(beside)} are: this Hashi "
                    f"has no game ID")
    parts: list[str] = []
    run = 0
    for cell in ((row, column) for row in range(rows) for column in range(columns)):
        if cell not in islands:
            run += 1
            continue
        parts += [run_letters(run), str(islands[cell])]
        run = 0
    parts.append(run_letters(run))
    return f"{columns}x{rows}m{MOST_BRIDGES}:" + "".join(parts)
