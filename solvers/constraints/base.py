"""The base of every model-language constraint: its variables and its meaning."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from solvers.variables import Assignment, IntVar


@dataclass(frozen=True, eq=False)
class Constraint(ABC):
    """A constraint knows its scope and its meaning (``holds``), nothing about solvers.

    ``holds`` is the reference semantics: backends and decompositions are tested
    against it, and the python-constraint backend checks constraints with it.
    """

    @abstractmethod
    def variables(self) -> tuple[IntVar, ...]:
        """Every variable the constraint mentions, each once, in a fixed order."""

    @abstractmethod
    def holds(self, assignment: Assignment) -> bool:
        """Whether a full assignment of ``variables()`` satisfies the constraint."""

    @classmethod
    def load(cls) -> None:
        """Import the libraries ``holds`` needs. The solve loop calls it while building,
        so that a check made during search (after search, or lazily) does not charge a
        first import to the search time. Most constraints need none."""
        return None

    @property
    def kind(self) -> str:
        """Kebab-case name of the constraint type, as in error messages."""
        name = type(self).__name__
        return "".join("-" + c.lower() if c.isupper() else c for c in name).lstrip("-")


def unique_variables(*groups: object) -> tuple[IntVar, ...]:
    """The variables among ``groups`` (vars, ints, nested tuples), first occurrence order."""
    seen: dict[IntVar, None] = {}

    def visit(item: object) -> None:
        if isinstance(item, IntVar):
            seen.setdefault(item, None)
        elif isinstance(item, tuple | list):
            for element in item:
                visit(element)

    for group in groups:
        visit(group)
    return tuple(seen)
