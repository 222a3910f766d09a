"""Exact filters of ``table`` (the tuples still inside the domains) and ``regular``
(the automaton's states reachable from the start and able to reach acceptance)."""

from __future__ import annotations

from weakref import WeakKeyDictionary

from solvers.constraints import Regular, Table
from solvers.filtering.base import Domains, Filtered, has_repeats, kept
from solvers.filtering.generic import filter_generic
from solvers.variables import IntVar

_AUTOMATA: WeakKeyDictionary[Regular, tuple[dict[int, dict[int, int]], list[set[int]]]] = (
    WeakKeyDictionary())
"""Each automaton's transitions as state -> symbol -> next state, and the states each
layer can hold at all (over the variables' full domains), made once per constraint."""


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


def _automaton(constraint: Regular) -> tuple[dict[int, dict[int, int]], list[set[int]]]:
    """The constraint's transitions and layers, from the cache or made now."""
    cached = _AUTOMATA.get(constraint)
    if cached is None:
        arcs: dict[int, dict[int, int]] = {}
        for state, symbol, target in constraint.transitions:
            arcs.setdefault(state, {})[symbol] = target
        symbols = frozenset(symbol for _, symbol, _ in constraint.transitions)
        full = dict.fromkeys(constraint.items, symbols)  # any domain an item may be given
        layers = _layers(constraint.items, full, arcs, constraint.initial,
                         constraint.accepting, None)
        cached = arcs, layers[0] if layers else []
        _AUTOMATA[constraint] = cached
    return cached


def _layers(items: tuple[IntVar, ...], domains: Domains, arcs: dict[int, dict[int, int]],
            initial: int, accepting: tuple[int, ...], band: list[set[int]] | None
            ) -> tuple[list[set[int]], list[set[int]]] | None:
    """The states each layer keeps (reached from ``initial``, reaching ``accepting``)
    within ``band``, and the supported values of each item; None when no word fits."""
    layers: list[set[int]] = [{initial}]
    for position, item in enumerate(items):
        allowed = band[position + 1] if band is not None else None
        following: set[int] = set()
        for state in layers[-1]:
            out = arcs.get(state)
            if out:
                for value in domains[item]:
                    target = out.get(value)
                    if target is not None and (allowed is None or target in allowed):
                        following.add(target)
        if not following:
            return None
        layers.append(following)
    alive = layers[-1].intersection(accepting)
    if not alive:
        return None
    layers[-1] = alive
    supports: list[set[int]] = [set() for _ in items]
    for position in range(len(items) - 1, -1, -1):
        support = supports[position]
        before: set[int] = set()
        for state in layers[position]:
            out = arcs.get(state, {})
            for value in domains[items[position]]:
                target = out.get(value)
                if target is not None and target in alive:
                    before.add(state)
                    support.add(value)
        layers[position] = alive = before
    return layers, supports


def filter_regular(constraint: Regular, domains: Domains) -> Filtered:
    """The layered automaton: forward, the states reachable after each item; backward,
    those of them from which an accepting state stays reachable. A value is supported
    iff it labels a transition between two such states of consecutive layers."""
    items = constraint.items
    if has_repeats(items):  # one variable read twice: the layers are not independent
        return filter_generic(constraint, domains)
    arcs, band = _automaton(constraint)
    if not band:  # no word of this length is accepted, whatever the domains
        return None
    found = _layers(items, domains, arcs, constraint.initial, constraint.accepting, band)
    if found is None:
        return None
    return {item: kept(domains, item, values) for item, values in zip(items, found[1])}
