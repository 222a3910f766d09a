"""The exact filter of any constraint, or of a conjunction: by enumeration when the
domains are small, else by a CP-SAT support search.

The support search asks CP-SAT for one solution, marks its values supported, then
asks again for a solution that uses at least one value still unsupported, until none
exists: each answer settles many values at once, and what is left has no support.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence

from puzzlelab.errors import SolverError
from solvers.constraints import Constraint
from solvers.filtering.base import Domains, Filtered, FilteringTimeout, check_deadline, kept
from solvers.variables import IntVar

ENUMERATION_LIMIT = 20_000
"""Largest product of domain sizes enumerated with ``holds``; past it CP-SAT searches."""


def scope_of(constraints: Sequence[Constraint]) -> tuple[IntVar, ...]:
    """Every variable of ``constraints``, each once, in order of first mention."""
    return tuple(dict.fromkeys(v for constraint in constraints for v in constraint.variables()))


def assignment_count(scope: Sequence[IntVar], domains: Domains) -> int:
    """How many assignments of ``scope`` the domains allow (stops counting past the limit)."""
    count = 1
    for variable in scope:
        count *= len(domains[variable])
        if count > ENUMERATION_LIMIT:
            return count
    return count


def filter_generic(constraint: Constraint, domains: Domains) -> Filtered:
    """The exact filter of a constraint with no rule of its own."""
    scope = constraint.variables()
    if assignment_count(scope, domains) <= ENUMERATION_LIMIT:
        return filter_by_enumeration([constraint], domains)
    return filter_by_solver([constraint], domains)


def _supported(scope: Sequence[IntVar], domains: Domains,
               supports: list[set[int]]) -> dict[IntVar, frozenset[int]]:
    return {variable: kept(domains, variable, values) for variable, values in zip(scope, supports)}


def filter_by_enumeration(constraints: Sequence[Constraint], domains: Domains,
                          deadline: float | None = None) -> Filtered:
    """Every assignment of the scope tried with ``holds``, stopping once all values are
    supported. Exact by definition: the reference the other filters are tested against."""
    scope = scope_of(constraints)
    supports: list[set[int]] = [set() for _ in scope]
    missing = sum(len(domains[variable]) for variable in scope)
    found = False
    for number, values in enumerate(itertools.product(*(sorted(domains[v]) for v in scope))):
        if number % 1024 == 1023:
            check_deadline(deadline)
        assignment = dict(zip(scope, values))
        if all(constraint.holds(assignment) for constraint in constraints):
            found = True
            for support, value in zip(supports, values):
                if value not in support:
                    support.add(value)
                    missing -= 1
            if not missing:
                break
    return _supported(scope, domains, supports) if found else None


def filter_by_solver(constraints: Sequence[Constraint], domains: Domains,
                     deadline: float | None = None) -> Filtered:
    """The support search on CP-SAT, over the constraints lowered as the cpsat backend
    lowers them (its posting table, and PuzzleLab's decompositions for the rest)."""
    from ortools.sat.python import cp_model

    from solvers.backend_contract import LoweredModel
    from solvers.backends.cpsat import POSTERS
    from solvers.decompositions import decompose

    scope = scope_of(constraints)
    lowered = LoweredModel(list(scope))
    pending = list(reversed(constraints))
    while pending:
        constraint = pending.pop()
        if type(constraint) in POSTERS:
            lowered.constraints.append(constraint)
        else:
            pending.extend(reversed(decompose(constraint, lowered.new_var, "cpsat")))
    model = cp_model.CpModel()
    sat_vars = {}
    for variable in lowered.variables:
        values = sorted(domains[variable]) if variable in domains else list(variable.domain)
        sat_vars[variable] = model.new_int_var_from_domain(
            cp_model.Domain.from_values(values), variable.name)
    for constraint in lowered.constraints:
        POSTERS[type(constraint)](model, sat_vars, constraint)
    uses: dict[tuple[int, int], cp_model.IntVar] = {}  # (position, value) -> "is used"
    for position, variable in enumerate(scope):
        if len(domains[variable]) > 1:
            for value in domains[variable]:
                uses[position, value] = used = model.new_bool_var(f"{variable}={value}")
                model.add(sat_vars[variable] == value).only_enforce_if(used)
    supports: list[set[int]] = [set() for _ in scope]
    found = False
    while True:
        check_deadline(deadline)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.catch_sigint_signal = False
        if deadline is not None:
            solver.parameters.max_time_in_seconds = max(deadline - time.perf_counter(), 0.0)
        status = solver.solve(model)
        if status == cp_model.INFEASIBLE:
            break
        if status == cp_model.UNKNOWN and deadline is not None:
            raise FilteringTimeout("the CP-SAT support search ran past its deadline")
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise SolverError(f"CP-SAT ended the support search with status "
                              f"{solver.status_name(status)}")
        found = True
        for support, variable in zip(supports, scope):
            support.add(solver.value(sat_vars[variable]))
        unsupported = [used for (position, value), used in uses.items()
                       if value not in supports[position]]
        if not unsupported:
            break
        model.add_bool_or(unsupported)
    return _supported(scope, domains, supports) if found else None
