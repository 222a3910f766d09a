"""Decompositions: each global constraint rewritten into simpler ones of the model language.

A backend posts natively what its solver has (the keys of its posting table) and
asks :func:`decompose` for the rest. Each decomposition is exact: on any assignment
of the original variables, some values of the new auxiliary variables satisfy the
decomposition exactly when the original constraint ``holds`` (tested exhaustively).
"""

from __future__ import annotations

from collections.abc import Callable

from puzzlelab.errors import UnsupportedCombination
from solvers.constraints import (
    Connected,
    ConnectedByFlow,
    Constraint,
    Count,
    GlobalCardinality,
    Inverse,
    Linear,
    Regular,
    ReifiedEquality,
    Table,
)
from solvers.variables import IntVar

#: makes an auxiliary variable: (lb, ub, name) -> variable
NewVariable = Callable[[int, int, str], IntVar]
Decomposition = Callable[[Constraint, NewVariable], list[Constraint]]


def count_to_reified_sum(constraint: Count, new_var: NewVariable) -> list[Constraint]:
    """``count`` as one flag per item (``flag <-> item == value``) and a sum of the flags."""
    flags = [new_var(0, 1, f"is_{item}_{constraint.value}") for item in constraint.items]
    posted: list[Constraint] = [ReifiedEquality(flag, item, constraint.value)
                                for flag, item in zip(flags, constraint.items)]
    terms = [(1, flag) for flag in flags]
    if isinstance(constraint.count, int):
        posted.append(Linear(tuple(terms), "==", constraint.count))
    else:
        posted.append(Linear((*terms, (-1, constraint.count)), "==", 0))
    return posted


def cardinality_to_counts(constraint: GlobalCardinality, _: NewVariable) -> list[Constraint]:
    """``global_cardinality`` as one ``count`` per listed value."""
    return [Count(constraint.items, value, occurrences)
            for value, occurrences in constraint.counts]


def regular_to_state_tables(constraint: Regular, new_var: NewVariable) -> list[Constraint]:
    """``regular`` as a chain of state variables with one ternary transition table per item.

    State ``s[0]`` is the initial state, ``s[i+1]`` the state after reading item ``i``,
    and the last state is accepting (Pesant's decomposition of the DFA unrolled).
    """
    states = constraint.states()
    size = len(constraint.items)
    chain = [new_var(constraint.initial, constraint.initial, "state_0")]
    chain += [new_var(states[0], states[-1], f"state_{i + 1}") for i in range(size)]
    posted: list[Constraint] = []
    for position, item in enumerate(constraint.items):
        allowed = tuple((state, symbol, target) for state, symbol, target in constraint.transitions
                        if symbol in item.domain)
        posted.append(Table((chain[position], item, chain[position + 1]), allowed))
    posted.append(Table((chain[-1],), tuple((state,) for state in constraint.accepting)))
    return posted


def inverse_to_pair_tables(constraint: Inverse, _: NewVariable) -> list[Constraint]:
    """``inverse`` as binary tables: ``forward[i] == j`` iff ``backward[j] == i``, for all i, j."""
    posted: list[Constraint] = []
    for i, forward in enumerate(constraint.forward):
        for j, backward in enumerate(constraint.backward):
            allowed = tuple((a, b) for a in forward.domain for b in backward.domain
                            if (a == j) == (b == i))
            posted.append(Table((forward, backward), allowed))
    return posted


def connected_to_flow(constraint: Connected, new_var: NewVariable) -> list[Constraint]:
    """``connected`` as a single-commodity flow from the first node.

    The root sends one unit to every other node; an edge carries flow only when
    its weight is positive. A flow exists exactly when every node is reachable.
    """
    nodes = constraint.nodes
    if len(nodes) <= 1:
        return []
    capacity = len(nodes) - 1
    outflow: dict[object, list[tuple[int, IntVar]]] = {node: [] for node in nodes}
    posted: list[Constraint] = []
    for number, (u, v, weight) in enumerate(constraint.edges):
        if u == v:
            continue  # a loop joins a node to itself: it carries no flow anywhere
        absent = new_var(0, 1, f"edge_{number}_absent")
        posted.append(ReifiedEquality(absent, weight, 0))
        forward = new_var(0, capacity, f"flow_{number}_forward")
        backward = new_var(0, capacity, f"flow_{number}_backward")
        posted.append(Linear(((1, forward), (1, backward), (capacity, absent)), "<=", capacity))
        outflow[u] += [(1, forward), (-1, backward)]
        outflow[v] += [(1, backward), (-1, forward)]
    root, *others = nodes
    posted.append(Linear(tuple(outflow[root]), "==", capacity))
    posted.extend(Linear(tuple(outflow[node]), "==", -1) for node in others)
    return posted


DECOMPOSITIONS: dict[type[Constraint], Decomposition] = {
    Count: count_to_reified_sum,  # type: ignore[dict-item]
    GlobalCardinality: cardinality_to_counts,  # type: ignore[dict-item]
    Regular: regular_to_state_tables,  # type: ignore[dict-item]
    Inverse: inverse_to_pair_tables,  # type: ignore[dict-item]
    Connected: connected_to_flow,  # type: ignore[dict-item]
    ConnectedByFlow: connected_to_flow,  # type: ignore[dict-item]
}


def decompose(constraint: Constraint, new_var: NewVariable, backend: str) -> list[Constraint]:
    """Rewrite ``constraint`` for a backend that lacks it natively, or say that none exists."""
    try:
        decomposition = DECOMPOSITIONS[type(constraint)]
    except KeyError:
        raise UnsupportedCombination(
            f"backend {backend!r} lacks the {constraint.kind} constraint, and PuzzleLab has "
            f"no decomposition of it") from None
    return decomposition(constraint, new_var)
