"""Exact filters of ``table`` (the tuples still inside the domains) and ``regular``
(the automaton's states reachable from the start and able to reach acceptance)."""

from __future__ import annotations

from weakref import WeakKeyDictionary

from solvers.constraints import Regular, Table
from solvers.filtering.base import Domains, Filtered, has_repeats, kept
from solvers.filtering.generic import filter_generic

_ARCS: WeakKeyDictionary[Regular, dict[int, dict[int, int]]] = WeakKeyDictionary()
"""Each automaton's transitions as state -> symbol -> next state, made once per constraint."""


def filter_table(constraint: Table, domains: Domains) -> Filtered:
    """A value is supported iff some allowed tuple inside the domains uses it."""
    items = constraint.items
    if has_repeats(items):  # positions of one variable must agree: left to holds
        return filter_generic(constraint, domains)
    current = [domains[item] for item in items]
    supports: list[set[int]] = [set() for _ in items]
    found = False
    for row in constraint.allowed:
        if all(map(frozenset.__contains__, current, row)):
            found = True
            for support, value in zip(supports, row):
                support.add(value)
    if not found:
        return None
    return {item: kept(domains, item, values) for item, values in zip(items, supports)}


def _arcs(constraint: Regular) -> dict[int, dict[int, int]]:
    arcs = _ARCS.get(constraint)
    if arcs is None:
        arcs = {}
        for state, symbol, target in constraint.transitions:
            arcs.setdefault(state, {})[symbol] = target
        _ARCS[constraint] = arcs
    return arcs


def filter_regular(constraint: Regular, domains: Domains) -> Filtered:
    """The layered automaton: forward, the states reachable after each item; backward,
    those of them from which an accepting state stays reachable. A value is supported
    iff it labels a transition between two such states of consecutive layers."""
    items = constraint.items
    if has_repeats(items):  # one variable read twice: the layers are not independent
        return filter_generic(constraint, domains)
    arcs = _arcs(constraint)
    current = [domains[item] for item in items]
    layers: list[set[int]] = [{constraint.initial}]
    for values in current:
        following: set[int] = set()
        for state in layers[-1]:
            out = arcs.get(state)
            if out:
                following.update(out[v] for v in values if v in out)
        if not following:
            return None
        layers.append(following)
    alive = layers[-1].intersection(constraint.accepting)
    if not alive:
        return None
    supports: list[set[int]] = [set() for _ in items]
    for position in range(len(items) - 1, -1, -1):
        support = supports[position]
        before: set[int] = set()
        for state in layers[position]:
            out = arcs.get(state)
            if out:
                for value in current[position]:
                    target = out.get(value)
                    if target is not None and target in alive:
                        before.add(state)
                        support.add(value)
        alive = before
    return {item: kept(domains, item, values) for item, values in zip(items, supports)}
