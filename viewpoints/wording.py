"""Words every puzzle's terms share: ``r3c4`` for a cell, ``5, 6 or 7`` for a list, and
the one-instance cache that keeps a puzzle's terms cheap to ask for every variable.

>>> cell_name(2, 3), listed(["5", "6", "7"])
('r3c4', '5, 6 or 7')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

T = TypeVar("T")


def cell_name(row: int, column: int) -> str:
    """A 0-based cell as a solver of the puzzle reads it, 1-based: ``r3c4``."""
    return f"r{row + 1}c{column + 1}"


def listed(words: Sequence[str], joiner: str = "or") -> str:
    """``a``, ``a or b``, ``a, b or c``: the alternatives a fact leaves or rules out."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {joiner} {words[-1]}"


def truth(values: Sequence[int], true: str, false: str, undecided: str) -> str:
    """The word for a 0/1 variable's values left: ``true`` for 1 alone, ``false`` for
    0 alone, ``undecided`` for both."""
    if len(values) != 1:
        return undecided
    return true if values[0] == 1 else false


class PerInstance(Generic[T]):
    """What a puzzle's terms work out once per instance (room placements, pairs of
    islands), remade only when asked about another instance: an explanation asks
    about one instance thousands of times in a row."""

    def __init__(self, make: Callable[[Any], T]) -> None:
        self._make = make
        self._instance: Any = None
        self._made: T | None = None

    def __call__(self, instance: Any) -> T:
        if self._made is None or self._instance is not instance:
            self._made, self._instance = self._make(instance), instance
        return self._made
