"""The soundness check of a step, by a solver that did not find it: CP-SAT, given only
the step's constraints and premises, must find no solution in which one of its facts is
false (for a contradiction: no solution at all).

The puzzle's other variables keep every value of their arrays, so nothing the step does
not name can help the check along.
"""

from __future__ import annotations

from collections.abc import Sequence

from experiments.reasoning.explain_engine import Found
from experiments.reasoning.explain_units import Domains
from solvers import IntVar, Model
from solvers.constraints import Constraint


def refuted(model: Model, found: Found, known: Domains, universe: Domains,
            time_limit: float = 60.0) -> bool:
    """Whether CP-SAT proves that ``found``'s units and premises (each within its
    premise domain, which holds its ``known`` values) leave none of its facts false;
    the visible variables it does not take as premises keep their ``universe`` values."""
    constraints = [c for unit in found.units for c in unit.constraints]
    domains = dict(universe)
    given = found.given()
    if any(not known[v] <= values for v, values in given.items()):
        return False  # a premise narrower than what is known is no earlier fact
    domains.update(given)
    falsified = [(variable, removed) for variable, removed in found.removed]
    return has_no_solution(model, constraints, domains, falsified, time_limit)


def has_no_solution(model: Model, constraints: Sequence[Constraint], domains: Domains,
                    falsified: Sequence[tuple[IntVar, frozenset[int]]],
                    time_limit: float = 60.0) -> bool:
    """Whether ``constraints``, each variable within ``domains`` (its model's domain when
    absent), and, when ``falsified`` is not empty, some variable of it taking one of its
    values, have no solution: CP-SAT's proof (a timeout is no proof)."""
    from ortools.sat.python import cp_model

    from solvers.backends.cpsat import POSTERS
    from solvers.lowering import lower
    from solvers.solving import get_backend

    backend = get_backend("cpsat")
    lowered = lower(Model(model.name, variables=list(model.variables),
                          constraints=list(constraints)), backend)
    sat = cp_model.CpModel()
    sat_vars = {}
    for variable in lowered.variables:
        values = sorted(domains.get(variable, frozenset(variable.domain)))
        if not values:
            return True
        sat_vars[variable] = sat.new_int_var_from_domain(
            cp_model.Domain.from_values(values), variable.name)
    for constraint in lowered.constraints:
        POSTERS[type(constraint)](sat, sat_vars, constraint)
    if falsified:
        some = []
        for variable, ruled_out in falsified:
            inside = sat.new_bool_var(f"{variable.name}_falsified")
            sat.add_linear_expression_in_domain(
                sat_vars[variable], cp_model.Domain.from_values(sorted(ruled_out))
            ).only_enforce_if(inside)
            some.append(inside)
        sat.add_bool_or(some)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = time_limit
    return bool(solver.solve(sat) == cp_model.INFEASIBLE)
