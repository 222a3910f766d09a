"""A nonogram's instance and solution: the types every nonogram module shares."""

from __future__ import annotations

from dataclasses import dataclass, field

from puzzles.nonogram_formats import Clue, Grid
from puzzles.pictured import DrawnInstance, DrawnSolution


@dataclass(frozen=True)
class NonogramSolution(DrawnSolution):
    """A picture: ``grid[r][c]`` is 1 for a filled cell, 0 for a blank one."""

    grid: Grid


@dataclass(frozen=True)
class NonogramInstance(DrawnInstance):
    """The clues of a nonogram (an empty clue ``()`` is an empty line)."""

    name: str
    rows: tuple[Clue, ...]
    columns: tuple[Clue, ...]
    known_solution: NonogramSolution | None = field(default=None, compare=False)
    title: str = field(default="", compare=False)
    author: str = field(default="", compare=False)
    copyright: str = field(default="", compare=False)

    @property
    def height(self) -> int:
        """Number of rows."""
        return len(self.rows)

    @property
    def width(self) -> int:
        """Number of columns."""
        return len(self.columns)
