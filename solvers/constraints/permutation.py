"""Constraints on distinct values: ``all_different`` and ``inverse`` (channeling permutations)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from puzzlelab.errors import ModelError
from solvers.constraints.base import Constraint
from solvers.variables import Assignment, IntVar

Strength = Literal["weak", "strong", "hall"]
STRENGTHS: tuple[Strength, ...] = ("weak", "strong", "hall")


@dataclass(frozen=True, eq=False)
class AllDifferent(Constraint):
    """All ``items`` take pairwise different values.

    ``strength`` asks for the propagation: ``weak`` removes an assigned value from
    the other domains (value consistency), ``strong`` also reasons on bounds or
    domains (Hall intervals / matchings), as far as the backend offers it, and
    ``hall`` is ECLiPSe's ``ic_global`` check of groups by bounds and the union of
    their domains (:mod:`solvers.backends.ic.propagation`).
    """

    items: tuple[IntVar, ...]
    strength: Strength = "weak"

    def __post_init__(self) -> None:
        if self.strength not in STRENGTHS:
            raise ModelError(f"all_different strength must be one of {STRENGTHS}, "
                             f"not {self.strength!r}")
        if len(set(self.items)) != len(self.items):
            raise ModelError("all_different lists a variable twice")

    def variables(self) -> tuple[IntVar, ...]:
        return self.items

    def holds(self, assignment: Assignment) -> bool:
        values = [assignment[item] for item in self.items]
        return len(set(values)) == len(values)


@dataclass(frozen=True, eq=False)
class Inverse(Constraint):
    """``forward[i] == j`` exactly when ``backward[j] == i`` (0-based), for channeling.

    Both sequences have length n and take values in ``0..n-1``: they are two
    permutations that undo each other.
    """

    forward: tuple[IntVar, ...]
    backward: tuple[IntVar, ...]

    def __post_init__(self) -> None:
        size = len(self.forward)
        if len(self.backward) != size:
            raise ModelError(f"inverse needs sequences of equal length, not {size} and "
                             f"{len(self.backward)}")
        for variable in self.forward + self.backward:
            if variable.lb < 0 or variable.ub >= size:
                raise ModelError(f"inverse: domain of {variable} must lie in 0..{size - 1}")

    def variables(self) -> tuple[IntVar, ...]:
        return self.forward + self.backward

    def holds(self, assignment: Assignment) -> bool:
        forward = [assignment[v] for v in self.forward]
        backward = [assignment[v] for v in self.backward]
        return all(backward[j] == i for i, j in enumerate(forward)) and all(
            forward[i] == j for j, i in enumerate(backward))
