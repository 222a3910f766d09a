"""Every constraint of a 0/1 model unrolled into a layered automaton (:mod:`.network`
packs them into arrays).

A layered automaton has one layer of transitions per item of the constraint's scope;
its states are numbered so that each belongs to one layer (state 0 is the initial
state). Forward-backward over such a layer stack is both domain-consistent
propagation (Pesant's ``regular`` filtering) and, with weights, the sum-product
message of the constraint to each item, so one representation serves the whole
engine. States that cannot reach an accepting one are pruned while unrolling.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import cast

from puzzlelab.errors import UnsupportedCombination
from solvers.constraints import (
    COMPARISONS,
    AtMostOne,
    Clause,
    Constraint,
    ExactlyOne,
    Linear,
    Regular,
    ReifiedEquality,
    Table,
)
from solvers.variables import IntVar

#: the most states one constraint may unroll into before the backend refuses it
MAX_STATES = 2_000_000

Step = Callable[[int, Hashable, int], Hashable | None]


@dataclass
class Layered:
    """One constraint as layers of ``(source, value, target)`` transitions.

    ``bounds[j]`` is the first state of layer ``j`` (after ``j`` items), once pruned:
    the states of a layer are numbered together.
    """

    items: tuple[IntVar, ...]
    layers: list[list[tuple[int, int, int]]]
    accepting: list[int]
    states: int
    bounds: list[int] = field(default_factory=list)


def unroll(items: Sequence[IntVar], initial: Hashable, step: Step,
           accepts: Callable[[Hashable], bool], kind: str) -> Layered:
    """The layered automaton of ``step`` over ``items``, without dead states.

    ``step(position, state, value)`` is the next state, or None when the value is
    not allowed there; states are any hashable keys, numbered layer by layer.
    """
    frontier: dict[Hashable, int] = {initial: 0}
    count = 1
    layers: list[list[tuple[int, int, int]]] = []
    for position, item in enumerate(items):
        following: dict[Hashable, int] = {}
        layer = []
        for key, state in frontier.items():
            for value in item.domain:
                target = step(position, key, value)
                if target is None:
                    continue
                if target not in following:
                    following[target] = count
                    count += 1
                layer.append((state, value, following[target]))
        if count > MAX_STATES:
            raise UnsupportedCombination(f"backend 'automata': a {kind} constraint over "
                                         f"{len(items)} variables unrolls into more than "
                                         f"{MAX_STATES:,} automaton states")
        layers.append(layer)
        frontier = following
    accepting = [state for key, state in frontier.items() if accepts(key)]
    return _pruned(Layered(tuple(items), layers, accepting, count))


def _pruned(automaton: Layered) -> Layered:
    """Keep the transitions that lie on a path to an accepting state; renumber densely."""
    alive = set(automaton.accepting)
    kept: list[list[tuple[int, int, int]]] = []
    for layer in reversed(automaton.layers):
        layer = [t for t in layer if t[2] in alive]
        alive = {source for source, _, _ in layer}
        kept.append(layer)
    kept.reverse()
    number = {0: 0}
    bounds = [0]
    for layer in kept:
        bounds.append(len(number))
        for _, _, target in layer:
            number.setdefault(target, len(number))
    bounds.append(len(number))
    layers = [[(number[s], v, number[t]) for s, v, t in layer] for layer in kept]
    accepting = sorted(number[s] for s in automaton.accepting if s in number)
    return Layered(automaton.items, layers, accepting, len(number), bounds)


def _regular(c: Regular) -> Layered:
    return unroll(c.items, c.initial,
                  lambda _, state, value: c.next_state(state, value),  # type: ignore[arg-type]
                  lambda state: state in c.accepting, c.kind)


def _table(c: Table) -> Layered:
    """A trie over the allowed tuples: a state is the range of sorted tuples it still allows."""
    rows = sorted(row for row in c.allowed
                  if all(value in item.domain for value, item in zip(row, c.items)))

    def step(position: int, state: Hashable, value: int) -> Hashable | None:
        low, high = cast(tuple[int, int], state)
        start = bisect_left(rows, value, low, high, key=lambda row: row[position])
        end = bisect_left(rows, value + 1, start, high, key=lambda row: row[position])
        return (start, end) if start < end else None

    return unroll(c.items, (0, len(rows)), step, lambda state: True, c.kind)


def _clause(c: Clause) -> Layered:
    wanted = [1] * len(c.positive) + [0] * len(c.negative)
    return unroll(c.positive + c.negative, False,
                  lambda position, met, value: bool(met) or value == wanted[position],
                  bool, c.kind)


def _at_most_one(c: ExactlyOne | AtMostOne, exactly: bool) -> Layered:
    return unroll(c.items, 0,
                  lambda _, count, value: count + value if count + value <= 1 else None,  # type: ignore[operator]
                  lambda count: count == 1 or not exactly, c.kind)


def _linear(c: Linear) -> Layered:
    """Partial sums as states, cut where the rest can no longer meet the right-hand side."""
    coefficients = [coefficient for coefficient, _ in c.terms]
    items = tuple(variable for _, variable in c.terms)
    low_rest, high_rest = [0], [0]  # the least and most the items after a position add
    for coefficient, item in zip(reversed(coefficients), reversed(items)):
        low_rest.append(low_rest[-1] + min(coefficient * item.lb, coefficient * item.ub))
        high_rest.append(high_rest[-1] + max(coefficient * item.lb, coefficient * item.ub))
    low_rest.reverse()
    high_rest.reverse()
    holds = COMPARISONS[c.comparison]
    settled = "settled"  # every completion holds: one state is enough

    def step(position: int, total: Hashable, value: int) -> Hashable | None:
        if total == settled:
            return settled
        reached = total + coefficients[position] * value  # type: ignore[operator]
        low, high = reached + low_rest[position + 1], reached + high_rest[position + 1]
        if all(holds(sum_, c.rhs) for sum_ in (low, high)) and c.comparison != "!=":
            return settled
        if c.comparison == "==" and not low <= c.rhs <= high:
            return None
        if (c.comparison == "<=" and low > c.rhs) or (c.comparison == ">=" and high < c.rhs):
            return None
        return reached

    return unroll(items, 0, step,
                  lambda total: total == settled or holds(total, c.rhs),  # type: ignore[arg-type]
                  c.kind)


def _reified(c: ReifiedEquality) -> Layered:
    allowed = tuple((int(value == c.value), value) for value in c.variable.domain)
    return _table(Table((c.flag, c.variable), allowed))


UNROLLERS: dict[type[Constraint], Callable[[Constraint], Layered]] = {
    Regular: _regular,  # type: ignore[dict-item]
    Table: _table,  # type: ignore[dict-item]
    Clause: _clause,  # type: ignore[dict-item]
    ExactlyOne: lambda c: _at_most_one(c, exactly=True),  # type: ignore[arg-type]
    AtMostOne: lambda c: _at_most_one(c, exactly=False),  # type: ignore[arg-type]
    Linear: _linear,  # type: ignore[dict-item]
    ReifiedEquality: _reified,  # type: ignore[dict-item]
}
