"""Exact filter of ``connected``: every node must be joined by edges of positive weight.

Connectivity only grows with more edges, so each weight at its largest value is the
best the others can do for any one of them. A positive weight is therefore supported
iff the graph of the edges that may be present is connected; a zero weight iff that
graph stays connected without the weight's edges: for a weight on one edge, iff the
edge is no bridge.
"""

from __future__ import annotations

from solvers.constraints import Connected
from solvers.filtering.base import Domains, Filtered
from solvers.variables import IntVar


def _connected(size: int, edges: list[tuple[int, int, IntVar]], without: IntVar | None) -> bool:
    """Whether ``edges`` (except those weighted by ``without``) join all ``size`` nodes."""
    parent = list(range(size))
    pieces = size
    for u, v, weight in edges:
        if weight is without:
            continue
        while parent[u] != u:
            parent[u] = u = parent[parent[u]]
        while parent[v] != v:
            parent[v] = v = parent[parent[v]]
        if u != v:
            parent[u] = v
            pieces -= 1
    return pieces <= 1


def _bridges(size: int, edges: list[tuple[int, int, IntVar]]) -> set[int]:
    """The positions in ``edges`` of the bridges of a connected multigraph (Tarjan's
    low-link, iterative; a parallel edge is no bridge, so edges are told apart by position)."""
    adjacency: list[list[tuple[int, int]]] = [[] for _ in range(size)]
    for number, (u, v, _) in enumerate(edges):
        adjacency[u].append((v, number))
        adjacency[v].append((u, number))
    order, low = [-1] * size, [0] * size
    order[0] = low[0] = 0
    counter = 1
    bridges: set[int] = set()
    work = [(0, -1, 0)]  # node, the edge it was reached by, next neighbour to look at
    while work:
        node, via, position = work[-1]
        if position < len(adjacency[node]):
            work[-1] = (node, via, position + 1)
            following, number = adjacency[node][position]
            if number == via:
                continue
            if order[following] == -1:
                order[following] = low[following] = counter
                counter += 1
                work.append((following, number, 0))
            elif order[following] < low[node]:
                low[node] = order[following]
            continue
        work.pop()
        if work:
            parent = work[-1][0]
            low[parent] = min(low[parent], low[node])
            if low[node] > order[parent]:
                bridges.add(via)
    return bridges


_NEEDED: dict[Connected, dict[frozenset[IntVar], frozenset[IntVar] | None]] = {}
"""For each constraint and set of weights that are 0: the weights the other edges need
(None: they leave the nodes apart). The answer depends on nothing else, and a search
asks again and again."""
NEEDED_KEPT = 20_000
"""Answers kept per constraint before its memory is cleared."""


def _needed(constraint: Connected, absent: frozenset[IntVar]) -> frozenset[IntVar] | None:
    """The weights without whose edges the edges not ``absent`` leave the nodes apart;
    None when they already do."""
    size = len(constraint.nodes)
    possible = [(u, v, weight) for u, v, weight in constraint._ends
                if u != v and weight not in absent]
    if not _connected(size, possible, None):
        return None
    uses: dict[IntVar, int] = {}
    for _, _, weight in possible:
        uses[weight] = uses.get(weight, 0) + 1
    bridges = _bridges(size, possible)
    needed = {weight for number, (_, _, weight) in enumerate(possible)
              if uses[weight] == 1 and number in bridges}
    needed.update(weight for weight in uses
                  if uses[weight] > 1 and not _connected(size, possible, weight))
    return frozenset(needed)


def filter_connected(constraint: Connected, domains: Domains) -> Filtered:
    """Fail when the possible edges leave the nodes apart; else remove 0 from exactly the
    weights whose edges the possible graph cannot do without."""
    scope = constraint.variables()
    result = {weight: domains[weight] for weight in scope}
    if not all(result.values()):
        return None
    if len(constraint.nodes) <= 1:
        return result
    absent = frozenset(weight for weight in scope if max(result[weight]) == 0)
    known = _NEEDED.setdefault(constraint, {})
    if absent not in known:
        if len(known) >= NEEDED_KEPT:
            known.clear()
        known[absent] = _needed(constraint, absent)
    needed = known[absent]
    if needed is None:
        return None
    for weight in needed:
        if 0 in result[weight]:
            result[weight] = result[weight] - {0}
    return result
