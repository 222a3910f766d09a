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


def filter_connected(constraint: Connected, domains: Domains) -> Filtered:
    """Fail when the possible edges leave the nodes apart; else remove 0 from exactly the
    weights whose edges the possible graph cannot do without."""
    scope = constraint.variables()
    result = {weight: domains[weight] for weight in scope}
    if not all(result.values()):
        return None
    size = len(constraint.nodes)
    if size <= 1:
        return result
    position = {node: number for number, node in enumerate(constraint.nodes)}
    possible = [(position[u], position[v], weight) for u, v, weight in constraint.edges
                if u != v and max(domains[weight]) > 0]
    if not _connected(size, possible, None):
        return None
    uses: dict[IntVar, int] = {}
    for _, _, weight in possible:
        uses[weight] = uses.get(weight, 0) + 1
    optional = {weight for weight in uses if 0 in domains[weight]}
    if not optional:
        return result
    bridges = _bridges(size, possible)
    for number, (_, _, weight) in enumerate(possible):
        if weight in optional and uses[weight] == 1 and number in bridges:
            result[weight] = domains[weight] - {0}
    for weight in optional:
        if uses[weight] > 1 and not _connected(size, possible, weight):
            result[weight] = domains[weight] - {0}
    return result
