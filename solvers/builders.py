"""Short constructors for constraints, so models read like their mathematics."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

from solvers.constraints import (
    AllDifferent,
    AtMostOne,
    Clause,
    Comparison,
    Connected,
    ConnectedByFlow,
    Count,
    Element,
    ExactlyOne,
    GlobalCardinality,
    Inverse,
    Linear,
    NoOverlap2D,
    Rectangle,
    Regular,
    ReifiedEquality,
    Strength,
    Table,
)
from solvers.variables import IntOrVar, IntVar


def all_different(items: Iterable[IntVar], strength: Strength = "weak") -> AllDifferent:
    """All of ``items`` differ."""
    return AllDifferent(tuple(items), strength)


def inverse(forward: Iterable[IntVar], backward: Iterable[IntVar]) -> Inverse:
    """``forward[i] == j`` iff ``backward[j] == i``."""
    return Inverse(tuple(forward), tuple(backward))


def linear(terms: Iterable[tuple[int, IntVar]], comparison: Comparison, rhs: int) -> Linear:
    """``sum(c * x) <comparison> rhs``; repeated variables are merged."""
    merged: dict[IntVar, int] = {}
    for coefficient, variable in terms:
        merged[variable] = merged.get(variable, 0) + coefficient
    return Linear(tuple((c, v) for v, c in merged.items() if c != 0), comparison, rhs)


def sum_of(items: Iterable[IntVar], comparison: Comparison, rhs: int) -> Linear:
    """``sum(items) <comparison> rhs``."""
    return linear(((1, item) for item in items), comparison, rhs)


def element(array: Sequence[IntOrVar], index: IntVar, value: IntVar) -> Element:
    """``array[index] == value`` (0-based)."""
    return Element(tuple(array), index, value)


def count(items: Iterable[IntVar], value: int, occurrences: IntOrVar) -> Count:
    """Exactly ``occurrences`` of ``items`` equal ``value``."""
    return Count(tuple(items), value, occurrences)


def global_cardinality(items: Iterable[IntVar],
                       counts: dict[int, IntOrVar]) -> GlobalCardinality:
    """For each value, exactly ``counts[value]`` of ``items`` take it."""
    return GlobalCardinality(tuple(items), tuple(counts.items()))


def table(items: Iterable[IntVar], allowed: Iterable[Sequence[int]]) -> Table:
    """``items`` take one of the ``allowed`` tuples."""
    return Table(tuple(items), tuple(tuple(row) for row in allowed))


def regular(items: Iterable[IntVar], transitions: Iterable[tuple[int, int, int]], initial: int,
            accepting: Iterable[int]) -> Regular:
    """``items`` spell a word the DFA accepts."""
    return Regular(tuple(items), tuple(transitions), initial, tuple(accepting))


def equivalent_to_equality(flag: IntVar, variable: IntVar, value: int) -> ReifiedEquality:
    """``flag <-> (variable == value)``."""
    return ReifiedEquality(flag, variable, value)


def clause(positive: Iterable[IntVar] = (), negative: Iterable[IntVar] = ()) -> Clause:
    """``OR(positive) or OR(not negative)``."""
    return Clause(tuple(positive), tuple(negative))


def implies(premise: IntVar, conclusion: IntVar) -> Clause:
    """``premise -> conclusion`` for 0/1 variables."""
    return Clause((conclusion,), (premise,))


def exactly_one(items: Iterable[IntVar]) -> ExactlyOne:
    """Exactly one of the 0/1 ``items`` is 1."""
    return ExactlyOne(tuple(items))


def at_most_one(items: Iterable[IntVar]) -> AtMostOne:
    """At most one of the 0/1 ``items`` is 1."""
    return AtMostOne(tuple(items))


def no_overlap_2d(rectangles: Iterable[Rectangle]) -> NoOverlap2D:
    """No two rectangles share a cell."""
    return NoOverlap2D(tuple(rectangles))


def connected(nodes: Iterable[Hashable],
              edges: Iterable[tuple[Hashable, Hashable, IntVar]]) -> Connected:
    """The edges with positive weight connect all ``nodes``."""
    return Connected(tuple(nodes), tuple(edges))


def connected_by_flow(nodes: Iterable[Hashable],
                      edges: Iterable[tuple[Hashable, Hashable, IntVar]]) -> ConnectedByFlow:
    """``connected``, always posted as a single-commodity flow (see the constraint)."""
    return ConnectedByFlow(tuple(nodes), tuple(edges))
