"""A Shikaku's instance and solution: the types every Shikaku module shares."""

from __future__ import annotations

from dataclasses import dataclass, field

from puzzles.pictured import DrawnInstance, DrawnSolution

Clues = tuple[tuple[int, ...], ...]
Labels = tuple[tuple[int | None, ...], ...]


@dataclass(frozen=True)
class ShikakuSolution(DrawnSolution):
    """A room label per cell: two cells share a room when their labels are equal (the
    labels themselves mean nothing, so two solutions are equal when they cut the grid
    alike); None marks a cell in no room (yet)."""

    rooms: Labels

    def partition(self) -> Labels:
        """The labels renumbered 1, 2, ... in row-major order of first appearance: the
        same for any two labellings of one partition."""
        renumbered: dict[int, int] = {}
        return tuple(tuple(None if label is None
                           else renumbered.setdefault(label, len(renumbered) + 1)
                           for label in row) for row in self.rooms)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ShikakuSolution):
            return NotImplemented
        return self.rooms == other.rooms or self.partition() == other.partition()

    def __hash__(self) -> int:
        return hash(self.partition())


@dataclass(frozen=True)
class ShikakuInstance(DrawnInstance):
    """A Shikaku: ``clues`` rows, 0 for a cell without a clue."""

    name: str
    clues: Clues
    known_solution: ShikakuSolution | None = None
    source: str = field(default="", compare=False)  # the file read: not part of the puzzle

    @property
    def rows(self) -> int:
        """Number of rows of the grid."""
        return len(self.clues)

    @property
    def columns(self) -> int:
        """Number of columns of the grid."""
        return len(self.clues[0])
