"""Boolean constraints: reified equality, clauses, exactly-one and at-most-one."""

from __future__ import annotations

from dataclasses import dataclass

from puzzlelab.errors import ModelError
from solvers.constraints.base import Constraint, unique_variables
from solvers.variables import Assignment, IntVar


def _require_booleans(kind: str, variables: tuple[IntVar, ...]) -> None:
    for variable in variables:
        if not variable.is_boolean:
            raise ModelError(f"{kind}: {variable} must be a 0/1 variable, "
                             f"its domain is {variable.lb}..{variable.ub}")


@dataclass(frozen=True, eq=False)
class ReifiedEquality(Constraint):
    """``flag <-> (variable == value)``: the flag is 1 exactly when the variable takes the value."""

    flag: IntVar
    variable: IntVar
    value: int

    def __post_init__(self) -> None:
        _require_booleans("reified equality", (self.flag,))

    def variables(self) -> tuple[IntVar, ...]:
        return unique_variables(self.flag, self.variable)

    def holds(self, assignment: Assignment) -> bool:
        return assignment[self.flag] == int(assignment[self.variable] == self.value)


@dataclass(frozen=True, eq=False)
class Clause(Constraint):
    """At least one of ``positive`` is 1 or one of ``negative`` is 0.

    An implication ``a -> b`` is ``Clause(positive=(b,), negative=(a,))``.
    """

    positive: tuple[IntVar, ...] = ()
    negative: tuple[IntVar, ...] = ()

    def __post_init__(self) -> None:
        if not self.positive and not self.negative:
            raise ModelError("an empty clause can never hold")
        _require_booleans("clause", self.positive + self.negative)

    def variables(self) -> tuple[IntVar, ...]:
        return unique_variables(self.positive, self.negative)

    def holds(self, assignment: Assignment) -> bool:
        return any(assignment[v] == 1 for v in self.positive) or any(
            assignment[v] == 0 for v in self.negative)


@dataclass(frozen=True, eq=False)
class ExactlyOne(Constraint):
    """Exactly one of the 0/1 ``items`` is 1."""

    items: tuple[IntVar, ...]

    def __post_init__(self) -> None:
        _require_booleans("exactly_one", self.items)

    def variables(self) -> tuple[IntVar, ...]:
        return unique_variables(self.items)

    def holds(self, assignment: Assignment) -> bool:
        return sum(assignment[item] for item in self.items) == 1


@dataclass(frozen=True, eq=False)
class AtMostOne(Constraint):
    """At most one of the 0/1 ``items`` is 1."""

    items: tuple[IntVar, ...]

    def __post_init__(self) -> None:
        _require_booleans("at_most_one", self.items)

    def variables(self) -> tuple[IntVar, ...]:
        return unique_variables(self.items)

    def holds(self, assignment: Assignment) -> bool:
        return sum(assignment[item] for item in self.items) <= 1
