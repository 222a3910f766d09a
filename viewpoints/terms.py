"""A puzzle's own words for what a model's variables say, declared beside its viewpoints:
``r3c4`` for ``cell[2][3]``, ``7`` for its value 6, the grid cells a variable is about.

Explanations (:mod:`experiments.reasoning.explaining`) state every fact in these words and
mark these cells on the page that steps through them; nothing there names a puzzle. A
puzzle module declares its terms with :func:`set_terms`, beside ``set_ladder``: one
:class:`Terms` for every array any of its viewpoints names
(:meth:`solvers.model.Model.name_array`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from puzzlelab.registry import Registry

Cell = tuple[int, int]
"""A cell of the puzzle's grid as its pictures draw it: (row, column), 0-based."""


@dataclass(frozen=True)
class Subject:
    """What one variable is about, in the puzzle's words.

    Attributes:
        name: the thing that takes the value (``r3c4``, ``digit 7 in row 3``, ``the
            bridges between (1,1) and (1,4)``).
        cells: the grid cells it concerns, to mark on a picture.
    """

    name: str
    cells: tuple[Cell, ...]


class Terms(Protocol):
    """A puzzle's words for its models' arrays (values are the puzzle's own: an array's
    model value plus its offset)."""

    def subject(self, instance: Any, array: str, index: tuple[int, ...]) -> Subject:
        """What ``array[index]`` is about."""
        ...

    def fact(self, subject: Subject, array: str, values: Sequence[int],
             removed: Sequence[int]) -> str:
        """The fact that ``subject`` now takes one of ``values``, its ``removed`` values
        ruled out (``r3c4 = 7``; ``r3c4 is not 5 or 6``)."""
        ...

    def mark(self, array: str, index: tuple[int, ...], value: int) -> str:
        """What a picture writes in the subject's cell once ``array[index]`` is fixed at
        ``value`` (a digit, a filled square; empty: nothing)."""
        ...


def plain_fact(name: str, values: Sequence[int], removed: Sequence[int],
               word: str = "{}") -> str:
    """The usual wording: ``name is not a or b`` for the values ruled out, and what is
    left once one value is (each value through ``word``, as ``"{} bridges"``).

    >>> plain_fact("r3c4", [1, 7], [5, 6])
    'r3c4 is not 5 or 6'
    >>> plain_fact("r3c4", [7], [5])
    'r3c4 is not 5, so r3c4 = 7'
    >>> plain_fact("r3c4", [7], [])
    'r3c4 = 7'
    """
    fixed = f"{name} = {word.format(values[0])}" if len(values) == 1 else ""
    if not removed:
        return fixed or f"{name} is {' or '.join(word.format(v) for v in values)}"
    words = [word.format(value) for value in removed]
    listed = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
    return f"{name} is not {listed}" + (f", so {fixed}" if fixed else "")


TERMS: Registry[Terms] = Registry("explained puzzle")
"""Every puzzle's terms, by puzzle name (named from the viewpoint modules' sources)."""


RULED_OUT_WEIGHTS: dict[str, int] = {}
"""The puzzles that declare what an explanation's premise costs for each value it rules
out (:mod:`experiments.reasoning.explain_units` weighs the others alike)."""


def set_terms(puzzle: str, terms: Terms, ruled_out_weight: int | None = None) -> None:
    """Declare ``puzzle``'s words for its arrays (once), and, where its values say more
    than one another's, what a premise costs for each value it rules out."""
    TERMS.add(puzzle, terms)
    if ruled_out_weight is not None:
        RULED_OUT_WEIGHTS[puzzle] = ruled_out_weight
