"""Arithmetic constraints: linear (in)equalities, element, count and global cardinality."""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from puzzlelab.errors import ModelError
from solvers.constraints.base import Constraint, unique_variables
from solvers.variables import Assignment, IntOrVar, IntVar, value_of

Comparison = Literal["==", "!=", "<=", ">="]
COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<=": operator.le, ">=": operator.ge,
}


@dataclass(frozen=True, eq=False)
class Linear(Constraint):
    """``sum(coefficient * variable) <op> rhs`` with integer coefficients."""

    terms: tuple[tuple[int, IntVar], ...]
    comparison: Comparison
    rhs: int

    def __post_init__(self) -> None:
        if self.comparison not in COMPARISONS:
            raise ModelError(f"linear comparison must be one of {list(COMPARISONS)}, "
                             f"not {self.comparison!r}")
        if len({variable for _, variable in self.terms}) != len(self.terms):
            raise ModelError("linear: merge the terms of a variable that appears twice")

    def variables(self) -> tuple[IntVar, ...]:
        return tuple(variable for _, variable in self.terms)

    def holds(self, assignment: Assignment) -> bool:
        total = sum(coefficient * assignment[v] for coefficient, v in self.terms)
        return COMPARISONS[self.comparison](total, self.rhs)


@dataclass(frozen=True, eq=False)
class Element(Constraint):
    """``array[index] == value`` with a 0-based ``index``; entries are constants or variables."""

    array: tuple[IntOrVar, ...]
    index: IntVar
    value: IntVar

    def __post_init__(self) -> None:
        if not self.array:
            raise ModelError("element needs a non-empty array")

    def variables(self) -> tuple[IntVar, ...]:
        return unique_variables(self.index, self.value, self.array)

    def holds(self, assignment: Assignment) -> bool:
        position = assignment[self.index]
        if not 0 <= position < len(self.array):
            return False
        return value_of(self.array[position], assignment) == assignment[self.value]


@dataclass(frozen=True, eq=False)
class Count(Constraint):
    """Exactly ``count`` of ``items`` take the value ``value``."""

    items: tuple[IntVar, ...]
    value: int
    count: IntOrVar

    def variables(self) -> tuple[IntVar, ...]:
        return unique_variables(self.items, self.count)

    def holds(self, assignment: Assignment) -> bool:
        occurrences = sum(1 for item in self.items if assignment[item] == self.value)
        return occurrences == value_of(self.count, assignment)


@dataclass(frozen=True, eq=False)
class GlobalCardinality(Constraint):
    """For each ``(value, count)`` pair, exactly ``count`` of ``items`` equal ``value``.

    Values not listed are unconstrained (the open form of the global constraint).
    """

    items: tuple[IntVar, ...]
    counts: tuple[tuple[int, IntOrVar], ...]

    def __post_init__(self) -> None:
        values = [value for value, _ in self.counts]
        if len(set(values)) != len(values):
            raise ModelError("global_cardinality lists a value twice")

    def variables(self) -> tuple[IntVar, ...]:
        return unique_variables(self.items, tuple(count for _, count in self.counts))

    def holds(self, assignment: Assignment) -> bool:
        values = [assignment[item] for item in self.items]
        return all(values.count(value) == value_of(count, assignment)
                   for value, count in self.counts)
