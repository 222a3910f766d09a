"""Exact filters of ``all_different`` and ``inverse``: Régin's matching-based reasoning.

A value keeps its support iff its edge (variable, value) lies in some matching that
covers every variable. With one such matching M in hand, an edge outside M lies in
another exactly when it is on an alternating cycle (both ends in one strongly
connected component of the oriented graph) or on an alternating path from a value M
leaves free (Berge). Inverse is all_different over the pairs both sides allow.
"""

from __future__ import annotations

from solvers.constraints import AllDifferent, Inverse
from solvers.filtering.base import Domains, Filtered, has_repeats, kept
from solvers.filtering.generic import filter_generic


def _augment(variable: int, options: list[list[int]], owner: dict[int, int],
             seen: set[int]) -> bool:
    """Find an augmenting path from the unmatched ``variable`` and flip it (Kuhn)."""
    for value in options[variable]:
        if value not in seen:
            seen.add(value)
            holder = owner.get(value)
            if holder is None or _augment(holder, options, owner, seen):
                owner[value] = variable
                return True
    return False


def _components(adjacency: list[list[int]]) -> list[int]:
    """The strongly connected component of each node (Tarjan's algorithm, iterative:
    a stack of the nodes on the path and of where each stands in its edges)."""
    size = len(adjacency)
    order, low, component = [-1] * size, [0] * size, [-1] * size
    stack: list[int] = []
    on_stack = [False] * size
    counter = found = 0
    for root in range(size):
        if order[root] != -1:
            continue
        order[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        path, edges = [root], [iter(adjacency[root])]
        while path:
            node = path[-1]
            for following in edges[-1]:
                if order[following] == -1:
                    order[following] = low[following] = counter
                    counter += 1
                    stack.append(following)
                    on_stack[following] = True
                    path.append(following)
                    edges.append(iter(adjacency[following]))
                    break
                if on_stack[following] and order[following] < low[node]:
                    low[node] = order[following]
            else:
                path.pop()
                edges.pop()
                if path and low[node] < low[path[-1]]:
                    low[path[-1]] = low[node]
                if low[node] == order[node]:
                    while True:
                        member = stack.pop()
                        on_stack[member] = False
                        component[member] = found
                        if member == node:
                            break
                    found += 1
    return component


def _without_fixed(domains: list[frozenset[int]]) -> list[frozenset[int]] | None:
    """``domains`` with the value of each fixed position removed from the others, until
    no new position becomes fixed: exact (no solution uses a fixed value twice), and
    it leaves the matching a smaller graph. None when two positions need one value."""
    current = list(domains)
    taken: set[int] = set()
    fresh = [p for p, values in enumerate(current) if len(values) == 1]
    while fresh:
        values = {next(iter(current[p])) for p in fresh}
        if len(values) < len(fresh) or not taken.isdisjoint(values):
            return None
        taken |= values
        fresh = []
        for position, domain in enumerate(current):
            if len(domain) > 1 and not domain.isdisjoint(values):
                current[position] = domain = domain - values
                if len(domain) <= 1:
                    if not domain:
                        return None
                    fresh.append(position)
    return current


def distinct_supports(domains: list[frozenset[int]]) -> list[set[int]] | None:
    """For each position, the values it takes in some assignment of pairwise different
    values within ``domains``; None when there is none (no matching covers them all)."""
    reduced = _without_fixed(domains) if all(domains) else None
    if reduced is None:
        return None
    open_positions = [p for p, values in enumerate(reduced) if len(values) > 1]
    supports: list[set[int]] = [set(values) for values in reduced]
    if open_positions:
        opened = _open_supports([reduced[p] for p in open_positions])
        if opened is None:
            return None
        for position, values in zip(open_positions, opened):
            supports[position] = values
    return supports


def _open_supports(domains: list[frozenset[int]]) -> list[set[int]] | None:
    """Régin's filter proper, on positions that are not fixed."""
    count = len(domains)
    values = sorted(set().union(*domains))
    if len(values) < count:
        return None
    number = {value: count + k for k, value in enumerate(values)}  # value nodes after vars
    options = [[number[value] for value in domain] for domain in domains]
    owner: dict[int, int] = {}  # value node -> the variable it is matched to
    for variable, nodes in enumerate(options):  # a greedy start, then augmenting paths
        free = next((node for node in nodes if node not in owner), None)
        if free is not None:
            owner[free] = variable
        elif not _augment(variable, options, owner, set()):
            return None
    partner = [0] * count
    for node, variable in owner.items():
        partner[variable] = node
    # oriented graph: variable -> its matched value; value -> every other variable of it
    adjacency: list[list[int]] = [[node] for node in partner]
    adjacency += [[] for _ in values]
    for variable, nodes in enumerate(options):
        for node in nodes:
            if owner.get(node) != variable:
                adjacency[node].append(variable)
    reached = [False] * len(adjacency)  # reached by an alternating path from a free value
    frontier = [node for node in range(count, len(adjacency)) if node not in owner]
    for node in frontier:
        reached[node] = True
    while frontier:
        node = frontier.pop()
        for following in adjacency[node]:
            if not reached[following]:
                reached[following] = True
                frontier.append(following)
    component = _components(adjacency)
    return [{values[node - count] for node in nodes
             if node == partner[variable] or reached[node]
             or component[node] == component[variable]}
            for variable, nodes in enumerate(options)]


def filter_all_different(constraint: AllDifferent, domains: Domains) -> Filtered:
    """All values that some assignment of pairwise different values uses (any strength:
    the strength is a propagation request to solvers, not part of the meaning)."""
    items = constraint.items
    supports = distinct_supports([domains[item] for item in items])
    if supports is None:
        return None
    return {item: kept(domains, item, values) for item, values in zip(items, supports)}


def filter_inverse(constraint: Inverse, domains: Domains) -> Filtered:
    """``forward[i] == j`` is supported iff the edge (i, j), allowed by both sides, lies in
    a perfect matching of the positions to the values; ``backward`` mirrors it."""
    forward, backward = constraint.forward, constraint.backward
    if has_repeats(forward + backward):  # a variable on both sides: no matching view
        return filter_generic(constraint, domains)
    size = len(forward)
    allowed = [frozenset(j for j in domains[item] if 0 <= j < size and i in domains[backward[j]])
               for i, item in enumerate(forward)]
    supports = distinct_supports(allowed)
    if supports is None:
        return None
    mirrored: list[set[int]] = [set() for _ in backward]
    for i, values in enumerate(supports):
        for j in values:
            mirrored[j].add(i)
    result = {item: kept(domains, item, values) for item, values in zip(forward, supports)}
    result.update((item, kept(domains, item, values)) for item, values in zip(backward, mirrored))
    return result
