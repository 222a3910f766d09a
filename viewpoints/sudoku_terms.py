"""Sudoku's words for its viewpoints' arrays: ``r3c4 = 7`` for a cell, ``digit 7 in row
3 goes in column 4`` for a value's position, ``r3c4 holds 7`` for a one-hot Boolean.

``cell``, ``pos`` and ``boxcol`` hold a digit, a column and a box column (the boxes side
by side, left to right), 1-based by their offset; ``x[r][c][v]`` and ``at[r][c][v]`` say
whether cell (r, c) holds digit v + 1.
"""

from __future__ import annotations

from collections.abc import Sequence

from puzzlelab.errors import UnknownName
from puzzles.sudoku import SudokuInstance
from viewpoints.terms import Cell, Subject, plain_fact
from viewpoints.wording import PerInstance, cell_name, listed, truth

ARRAYS = ("cell", "pos", "boxcol", "x", "at")


def _open_cells(instance: SudokuInstance) -> dict[tuple[int, int], tuple[Cell, ...]]:
    """For each digit (0-based) and row, the cells of the row the givens leave it: its
    given cell, else the empty cells that see no given of that digit."""
    size, box, givens = instance.size, instance.box, instance.givens
    seen: set[tuple[int, str, int]] = set()  # (digit, "row"/"column"/"box", which)
    for r in range(size):
        for c in range(size):
            if givens[r][c]:
                digit = givens[r][c] - 1
                seen |= {(digit, "row", r), (digit, "column", c),
                         (digit, "box", r // box * box + c // box)}
    open_cells = {}
    for digit in range(size):
        for r in range(size):
            given = tuple((r, c) for c in range(size) if givens[r][c] == digit + 1)
            free = tuple((r, c) for c in range(size) if not givens[r][c]
                         and (digit, "column", c) not in seen
                         and (digit, "box", r // box * box + c // box) not in seen)
            open_cells[digit, r] = given or free or tuple((r, c) for c in range(size))
    return open_cells


class SudokuTerms:
    """Cells as ``r3c4``, a value's position as ``digit 7 in row 3``, 1-based."""

    def __init__(self) -> None:
        self._open = PerInstance(_open_cells)

    def subject(self, instance: SudokuInstance, array: str, index: tuple[int, ...]) -> Subject:
        if array == "cell":
            r, c = index
            return Subject(cell_name(r, c), ((r, c),))
        if array in ("pos", "boxcol"):
            digit, r = index
            cells = self._open(instance)[digit, r]
            name = f"digit {digit + 1} in row {r + 1}"
            return Subject(name if array == "pos" else f"the box column of {name}", cells)
        if array in ("x", "at"):
            r, c, digit = index
            return Subject(f"{digit + 1} in {cell_name(r, c)}", ((r, c),))
        raise UnknownName("sudoku array", array, ARRAYS)

    def fact(self, subject: Subject, array: str, values: Sequence[int],
             removed: Sequence[int]) -> str:
        if array == "cell":
            return plain_fact(subject.name, values, removed)
        if array in ("x", "at"):
            digit, cell = subject.name.split(" in ")
            verb = truth(values, "holds", "does not hold", "may hold")
            return f"{cell} {verb} {digit}"
        if array == "pos":
            return _goes(subject.name, values, removed, "column {}")
        if array == "boxcol":
            return _goes(subject.name.removeprefix("the box column of "), values, removed,
                         "box column {}")
        raise UnknownName("sudoku array", array, ARRAYS)

    def mark(self, array: str, index: tuple[int, ...], value: int) -> str:
        if array == "cell":
            return str(value)
        if array in ("x", "at"):
            return str(index[2] + 1) if value else ""
        return ""  # a digit's place in a row is about several cells


def _goes(name: str, values: Sequence[int], removed: Sequence[int], word: str) -> str:
    """``digit 7 in row 3 goes in column 4`` / ``... does not go in column 4 or 5``."""
    if len(values) == 1:
        return f"{name} goes in {word.format(values[0])}"
    return f"{name} does not go in {listed([word.format(value) for value in removed])}"
