"""The exact filter of a conjunction: a support search by depth-first search that
maintains each constraint's exact filter to a fixpoint.

One solution supports every value it uses, so the search first looks for any solution
(preferring values not yet supported), then, for each value still unsupported, for a
solution that uses it. Hidden auxiliary variables are variables of the search like
any other.
"""

from __future__ import annotations

from collections.abc import Sequence

from solvers.constraints import Constraint
from solvers.filtering.base import Domains, Filter, Filtered, check_deadline, kept
from solvers.filtering.dispatch import FILTERS, filter_constraint, filter_for
from solvers.filtering.generic import (
    ENUMERATION_LIMIT,
    assignment_count,
    filter_by_solver,
)
from solvers.variables import IntVar

Solution = dict[IntVar, int]


class _SupportSearch:
    """The constraints, who watches each variable, and the supports found so far."""

    def __init__(self, constraints: Sequence[Constraint], deadline: float | None) -> None:
        self.constraints = list(constraints)
        self.filters: list[Filter] = [filter_for(c) for c in constraints]
        self.watchers: dict[IntVar, list[int]] = {}
        for number, constraint in enumerate(constraints):
            for variable in constraint.variables():
                self.watchers.setdefault(variable, []).append(number)
        self.supports: dict[IntVar, set[int]] = {v: set() for v in self.watchers}
        self.deadline = deadline

    def propagate(self, domains: dict[IntVar, frozenset[int]], queue: list[int]
                  ) -> dict[IntVar, frozenset[int]] | None:
        """``domains`` narrowed in place to the fixpoint of every constraint's filter,
        starting with ``queue``; None on a failure."""
        queued = [False] * len(self.constraints)
        for number in queue:
            queued[number] = True
        while queue:
            number = queue.pop()
            queued[number] = False
            filtered = self.filters[number](self.constraints[number], domains)
            if filtered is None:
                return None
            for variable, values in filtered.items():
                if len(values) != len(domains[variable]):
                    domains[variable] = values
                    for other in self.watchers[variable]:
                        if not queued[other] and other != number:
                            queued[other] = True
                            queue.append(other)
        return domains

    def solve(self, domains: dict[IntVar, frozenset[int]]) -> Solution | None:
        """A solution within the propagated ``domains``, trying unsupported values first."""
        check_deadline(self.deadline)
        branch, smallest = None, 0
        for variable, values in domains.items():
            if len(values) > 1 and (branch is None or len(values) < smallest):
                branch, smallest = variable, len(values)
        if branch is None:  # every filter is exact, so a fixed fixpoint is a solution
            return {variable: next(iter(values)) for variable, values in domains.items()}
        known = self.supports[branch]
        for value in sorted(domains[branch], key=lambda value: value in known):
            child = dict(domains)
            child[branch] = frozenset((value,))
            if self.propagate(child, list(self.watchers[branch])) is not None:
                solution = self.solve(child)
                if solution is not None:
                    return solution
        return None

    def support(self, solution: Solution) -> None:
        for variable, value in solution.items():
            self.supports[variable].add(value)

    def root(self, domains: Domains) -> dict[IntVar, frozenset[int]] | None:
        """The constraints' scope within ``domains``, propagated by every filter."""
        return self.propagate({variable: domains[variable] for variable in self.watchers},
                              list(range(len(self.constraints))))

    def solution_with(self, root: dict[IntVar, frozenset[int]], variable: IntVar,
                      value: int) -> Solution | None:
        """A solution within ``root`` giving ``variable`` the ``value`` (its values then
        supported), or None when there is none."""
        child = dict(root)
        child[variable] = frozenset((value,))
        if self.propagate(child, list(self.watchers[variable])) is None:
            return None
        solution = self.solve(child)
        if solution is not None:
            self.support(solution)
        return solution


def _needs_solver(constraints: Sequence[Constraint], domains: Domains) -> bool:
    """Whether a constraint has no rule of its own and too many assignments to enumerate,
    which sends the whole conjunction to the CP-SAT support search."""
    return any(type(c) not in FILTERS and assignment_count(c.variables(), domains) >
               ENUMERATION_LIMIT for c in constraints)


def removes_any(constraints: Sequence[Constraint], domains: Domains,
                asked: Domains, deadline: float | None = None,
                pool: list[Solution] | None = None) -> bool:
    """Whether the conjunction, within ``domains``, has no solution or leaves some value
    of ``asked`` (values of some of its variables, within ``domains``) without one: what
    :func:`filter_conjunction` would say of those values, found without looking for
    supports of any other value, and given up at the first value without one.

    ``pool`` holds solutions of these constraints found before (under any domains): those
    within ``domains`` support their values without a search, and each solution found
    now joins it (the newest :data:`POOL_SIZE` are kept).
    """
    check_deadline(deadline)
    if len(constraints) == 1 or _needs_solver(constraints, domains):
        filtered = filter_conjunction(constraints, domains, deadline)
        return filtered is None or any(values - filtered[variable]
                                       for variable, values in asked.items())
    search = _SupportSearch(constraints, deadline)
    root = search.root(domains)
    if root is None or any(values - root[variable] for variable, values in asked.items()):
        return True
    pool = [] if pool is None else pool
    for earlier in pool:
        if all(value in root[variable] for variable, value in earlier.items()):
            search.support(earlier)
    if not any(search.supports.values()):
        first = search.solve(root)
        if first is None:
            return True
        _keep(pool, first)
        search.support(first)
    for variable, values in asked.items():
        for value in values:
            if value in search.supports[variable]:
                continue
            solution = search.solution_with(root, variable, value)
            if solution is None:
                return True
            _keep(pool, solution)
    return False

POOL_SIZE = 64
"""How many solutions :func:`removes_any` keeps in a pool."""


def _keep(pool: list[Solution], solution: Solution) -> None:
    pool.append(solution)
    if len(pool) > POOL_SIZE:
        del pool[0]


def filter_conjunction(constraints: Sequence[Constraint], domains: Domains,
                       deadline: float | None = None) -> Filtered:
    """For every variable of every constraint, the values of its domain in some assignment
    within ``domains`` that satisfies all the constraints at once; None when there is none.

    Exact (not the fixpoint of the single filters). ``deadline`` is a
    ``time.perf_counter()`` time; past it :class:`FilteringTimeout` is raised. A
    constraint with no rule of its own and too many assignments to enumerate sends the
    whole conjunction to the CP-SAT support search.
    """
    check_deadline(deadline)
    if len(constraints) == 1:
        return filter_constraint(constraints[0], domains)
    if _needs_solver(constraints, domains):
        return filter_by_solver(constraints, domains, deadline)
    search = _SupportSearch(constraints, deadline)
    root = search.root(domains)
    if root is None:
        return None
    first = search.solve(root)
    if first is None:
        return None
    search.support(first)
    for variable, values in root.items():
        for value in values:
            if value not in search.supports[variable]:
                search.solution_with(root, variable, value)
    return {variable: kept(domains, variable, search.supports[variable])
            for variable in search.watchers}
