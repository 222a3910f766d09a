"""Decision variables of the model language: integers with a finite domain, and Booleans."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

#: A (partial or full) assignment of values to variables.
Assignment = Mapping["IntVar", int]


@dataclass(frozen=True, eq=False)
class IntVar:
    """An integer variable; ``index`` is its position in the model that made it.

    Variables compare by identity, so they key assignments cheaply. Create them
    with :meth:`solvers.model.Model.int_var` or :meth:`~solvers.model.Model.bool_var`.
    """

    index: int
    name: str
    domain: tuple[int, ...]

    @property
    def lb(self) -> int:
        """Smallest value of the domain."""
        return self.domain[0]

    @property
    def ub(self) -> int:
        """Largest value of the domain."""
        return self.domain[-1]

    @property
    def is_contiguous(self) -> bool:
        """True when the domain is the whole interval ``lb..ub``."""
        return len(self.domain) == self.ub - self.lb + 1

    @property
    def is_boolean(self) -> bool:
        """True for a 0/1 variable (one whose domain lies within {0, 1})."""
        return set(self.domain) <= {0, 1}

    def __repr__(self) -> str:
        return self.name


IntOrVar = int | IntVar


def value_of(term: IntOrVar, assignment: Assignment) -> int:
    """The value of a constant or of an assigned variable."""
    return term if isinstance(term, int) else assignment[term]
