"""Nonogram's words for its viewpoints' one array, ``cell[r][c]`` (1 filled, 0 blank):
``r3c4 is black``, ``r3c4 is white``. Block starts and the order encoding's flags are
auxiliaries, stated through the cells they fill."""

from __future__ import annotations

from collections.abc import Sequence

from puzzlelab.errors import UnknownName
from puzzles.nonogram import NonogramInstance
from viewpoints.terms import Subject
from viewpoints.wording import cell_name

COLOURS = {0: "white", 1: "black"}


class NonogramTerms:
    """A cell as ``r3c4``, 1-based; its values as black and white."""

    def subject(self, instance: NonogramInstance, array: str,
                index: tuple[int, ...]) -> Subject:
        if array != "cell":
            raise UnknownName("nonogram array", array, ["cell"])
        r, c = index
        return Subject(cell_name(r, c), ((r, c),))

    def fact(self, subject: Subject, array: str, values: Sequence[int],
             removed: Sequence[int]) -> str:
        if len(values) == 1:
            return f"{subject.name} is {COLOURS[values[0]]}"
        return f"{subject.name} may be black or white"

    def mark(self, array: str, index: tuple[int, ...], value: int) -> str:
        return "\u25a0" if value else "\u00b7"  # a filled square; a dot for white
