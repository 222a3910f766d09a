"""Constraints given by their solutions: ``table`` (allowed tuples) and ``regular`` (automaton)."""

from __future__ import annotations

from dataclasses import dataclass, field

from puzzlelab.errors import ModelError
from puzzlelab.wording import counted
from solvers.constraints.base import Constraint
from solvers.variables import Assignment, IntVar


@dataclass(frozen=True, eq=False)
class Table(Constraint):
    """The values of ``items`` form one of the ``allowed`` tuples."""

    items: tuple[IntVar, ...]
    allowed: tuple[tuple[int, ...], ...]
    _allowed_set: frozenset[tuple[int, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        for row in self.allowed:
            if len(row) != len(self.items):
                raise ModelError(f"table: tuple {row} has {counted(len(row), 'value')} for "
                                 f"{counted(len(self.items), 'variable')}")
        object.__setattr__(self, "_allowed_set", frozenset(self.allowed))

    def variables(self) -> tuple[IntVar, ...]:
        return self.items

    def holds(self, assignment: Assignment) -> bool:
        return tuple(assignment[item] for item in self.items) in self._allowed_set


@dataclass(frozen=True, eq=False)
class Regular(Constraint):
    """The values of ``items``, read left to right, form a word a DFA accepts.

    ``transitions`` are ``(state, symbol, next_state)`` triples of a deterministic
    automaton; a missing transition rejects. Reading starts in ``initial`` and must
    end in one of ``accepting``.
    """

    items: tuple[IntVar, ...]
    transitions: tuple[tuple[int, int, int], ...]
    initial: int
    accepting: tuple[int, ...]
    _step: dict[tuple[int, int], int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        step: dict[tuple[int, int], int] = {}
        for state, symbol, target in self.transitions:
            if step.setdefault((state, symbol), target) != target:
                raise ModelError(f"regular: automaton is not deterministic in state {state} "
                                 f"on symbol {symbol}")
        object.__setattr__(self, "_step", step)

    def variables(self) -> tuple[IntVar, ...]:
        return self.items

    def states(self) -> tuple[int, ...]:
        """Every state the automaton mentions, sorted."""
        mentioned = {self.initial, *self.accepting}
        for state, _, target in self.transitions:
            mentioned.update((state, target))
        return tuple(sorted(mentioned))

    def next_state(self, state: int, symbol: int) -> int | None:
        """The state after reading ``symbol`` in ``state``, or None when the automaton rejects."""
        return self._step.get((state, symbol))

    def holds(self, assignment: Assignment) -> bool:
        state = self.initial
        for item in self.items:
            following = self.next_state(state, assignment[item])
            if following is None:
                return False
            state = following
        return state in self.accepting
