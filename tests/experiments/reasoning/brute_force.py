"""Reference answers for tiny models, by enumerating every assignment: exact filtering,
and the cheapest step among all sets of up to two units and all premise sets."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product

from experiments.reasoning.explain_units import Domains
from solvers.constraints import Constraint


def enumerated_filter(constraints: Sequence[Constraint], domains: Domains) -> Domains | None:
    """For each variable of ``domains``, the values some assignment within ``domains``
    satisfying every constraint gives it; None when there is none."""
    variables = list(domains)
    supported: dict = {v: set() for v in variables}
    found = False
    for values in product(*(sorted(domains[v]) for v in variables)):
        assignment = dict(zip(variables, values, strict=True))
        if all(c.holds(assignment) for c in constraints):
            found = True
            for variable, value in assignment.items():
                supported[variable].add(value)
    return {v: frozenset(s) for v, s in supported.items()} if found else None


def subsets(items: Sequence, most: int | None = None):
    """Every subset of ``items``, smallest first (up to ``most`` members)."""
    top = len(items) if most is None else min(most, len(items))
    for size in range(top + 1):
        yield from combinations(items, size)


def backtracking_filter(constraints: Sequence[Constraint], domains: Domains) -> Domains | None:
    """:func:`enumerated_filter` by a depth-first search that checks each constraint once
    its variables have values (for models too large to enumerate whole)."""
    variables = list(domains)
    position = {v: i for i, v in enumerate(variables)}
    due: dict[int, list[Constraint]] = {}
    for constraint in constraints:
        last = max(position[v] for v in constraint.variables())
        due.setdefault(last, []).append(constraint)
    supported: dict = {v: set() for v in variables}
    assignment: dict = {}

    def extend(depth: int) -> None:
        if depth == len(variables):
            for variable, value in assignment.items():
                supported[variable].add(value)
            return
        variable = variables[depth]
        for value in sorted(domains[variable]):
            assignment[variable] = value
            if all(c.holds(assignment) for c in due.get(depth, ())):
                extend(depth + 1)
            del assignment[variable]

    extend(0)
    if not any(supported.values()):
        return None
    return {v: frozenset(s) for v, s in supported.items()}
