"""Backend ``cpsat``: OR-tools CP-SAT, the fast default (snake_case API only).

One worker by default, so runs repeat exactly. A named heuristic runs CP-SAT's fixed
search over the decision variables, with presolve off so that the strategy meets the
model as written; ``auto`` leaves the search (and presolve) to CP-SAT.

Statistics: ``branches`` and ``conflicts`` are CP-SAT's own; ``propagations`` adds
its Boolean and integer propagations; ``backtracks`` is None: conflict-driven search
with restarts has no depth-first backtrack count that would compare with ``cp``'s.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ortools.sat.python import cp_model

from puzzlelab.errors import SolverError
from solvers.backends import BACKENDS
from solvers.backends.base import Backend, LoweredModel, SolveRequest
from solvers.backends.interrupt import interruptible
from solvers.constraints import (
    AllDifferent,
    AtMostOne,
    Clause,
    Constraint,
    Element,
    ExactlyOne,
    Inverse,
    Linear,
    NoOverlap2D,
    Regular,
    ReifiedEquality,
    Table,
)
from solvers.heuristics import Heuristic, SearchPlan
from solvers.memory import PeakMemory
from solvers.model import Model
from solvers.record import SolveResult, Statistics, Status
from solvers.variables import IntOrVar, IntVar

SatVars = dict[IntVar, cp_model.IntVar]


def _term(sat_vars: SatVars, term: IntOrVar) -> Any:
    return term if isinstance(term, int) else sat_vars[term]


def _post_all_different(model: cp_model.CpModel, sat_vars: SatVars, c: AllDifferent) -> None:
    items = [sat_vars[item] for item in c.items]
    if c.strength == "strong":
        model.add_all_different(items)
        return
    # weak: pairwise disequalities, the value-consistent decomposition
    for i, first in enumerate(items):
        for second in items[i + 1:]:
            model.add(first != second)


def _post_linear(model: cp_model.CpModel, sat_vars: SatVars, c: Linear) -> None:
    expression = sum(coefficient * sat_vars[v] for coefficient, v in c.terms)
    relation = {"==": expression == c.rhs, "!=": expression != c.rhs,
                "<=": expression <= c.rhs, ">=": expression >= c.rhs}
    model.add(relation[c.comparison])


def _post_reified(model: cp_model.CpModel, sat_vars: SatVars, c: ReifiedEquality) -> None:
    flag, variable = sat_vars[c.flag], sat_vars[c.variable]
    model.add(variable == c.value).only_enforce_if(flag)
    model.add(variable != c.value).only_enforce_if(~flag)


def _post_no_overlap(model: cp_model.CpModel, sat_vars: SatVars, c: NoOverlap2D) -> None:
    x_intervals: list[cp_model.IntervalVar] = []
    y_intervals: list[cp_model.IntervalVar] = []
    for number, r in enumerate(c.rectangles):
        for start, size, intervals, axis in ((r.x, r.width, x_intervals, "x"),
                                             (r.y, r.height, y_intervals, "y")):
            start_term, size_term = _term(sat_vars, start), _term(sat_vars, size)
            end = model.new_int_var(_bound(start, min) + _bound(size, min),
                                    _bound(start, max) + _bound(size, max), f"end_{axis}{number}")
            intervals.append(model.new_interval_var(start_term, size_term, end,
                                                    f"rect{number}_{axis}"))
    model.add_no_overlap_2d(x_intervals, y_intervals)


def _post_inverse(model: cp_model.CpModel, sat_vars: SatVars, c: Inverse) -> None:
    """``backward[forward[i]] == i`` and ``forward[backward[j]] == j``, as elements.

    Not ``add_inverse``: CP-SAT 9.15's presolve declares some feasible models with it
    infeasible (the channeled Sudoku of Norvig's top95 #1 under ``auto``;
    ``docs/solver-bugs.md``). The two element channels say the same thing.
    """
    forward, backward = _vars(sat_vars, c.forward), _vars(sat_vars, c.backward)
    for i, item in enumerate(forward):
        model.add_element(item, backward, i)
    for j, item in enumerate(backward):
        model.add_element(item, forward, j)


def _bound(term: IntOrVar, pick: Callable[..., int]) -> int:
    return term if isinstance(term, int) else pick(term.domain)


def _vars(sat_vars: SatVars, items: tuple[IntVar, ...]) -> list[cp_model.IntVar]:
    return [sat_vars[item] for item in items]


POSTERS: dict[type[Constraint], Callable[[cp_model.CpModel, SatVars, Any], object]] = {
    AllDifferent: _post_all_different,
    Inverse: _post_inverse,
    Linear: _post_linear,
    Element: lambda m, v, c: m.add_element(v[c.index], [_term(v, e) for e in c.array],
                                           v[c.value]),
    Table: lambda m, v, c: m.add_allowed_assignments(_vars(v, c.items), list(c.allowed)),
    Regular: lambda m, v, c: m.add_automaton(_vars(v, c.items), c.initial, list(c.accepting),
                                             list(c.transitions)),
    ReifiedEquality: _post_reified,
    Clause: lambda m, v, c: m.add_bool_or(_vars(v, c.positive) + [~v[n] for n in c.negative]),
    ExactlyOne: lambda m, v, c: m.add_exactly_one(_vars(v, c.items)),
    AtMostOne: lambda m, v, c: m.add_at_most_one(_vars(v, c.items)),
    NoOverlap2D: _post_no_overlap,
}


class _SolutionCounter(cp_model.CpSolverSolutionCallback):
    """Counts distinct solutions on the model's own variables (auxiliaries may repeat them)."""

    def __init__(self, sat_vars: list[cp_model.IntVar], limit: int | None) -> None:
        super().__init__()
        self.sat_vars = sat_vars
        self.limit = limit
        self.seen: set[tuple[int, ...]] = set()
        self.first: tuple[int, ...] | None = None
        self.first_branches: int | None = None
        self.stopped = False

    def on_solution_callback(self) -> None:
        values = tuple(self.value(variable) for variable in self.sat_vars)
        if values in self.seen:
            return
        self.seen.add(values)
        if self.first is None:
            self.first = values
            self.first_branches = self.num_branches
        if self.limit is not None and len(self.seen) >= self.limit:
            self.stopped = True
            self.stop_search()


def _add_fixed_search(model: cp_model.CpModel, sat_vars: SatVars, plan: SearchPlan) -> None:
    selection = {"first-unbound": cp_model.CHOOSE_FIRST,
                 "smallest-domain": cp_model.CHOOSE_MIN_DOMAIN_SIZE}[plan.selection]
    value = {"min": cp_model.SELECT_MIN_VALUE, "max": cp_model.SELECT_MAX_VALUE}[
        plan.value_choice]
    model.add_decision_strategy([sat_vars[v] for v in plan.variables], selection, value)


@BACKENDS.register("cpsat")
class CpSatBackend(Backend):
    """OR-tools CP-SAT: clause learning and its own search, or a fixed search for studies."""

    name = "cpsat"
    native = frozenset(POSTERS)
    summary = "OR-tools CP-SAT, 1 worker: fixed search for named heuristics, own search for auto"

    def unsupported_reason(self, heuristic: Heuristic, plan: SearchPlan) -> str | None:
        if plan.probing != "none":
            return ("probing needs nested propagation inside the search, which only the cp "
                    "and automata backends offer (CP-SAT probes on its own in presolve: use auto)")
        if plan.value_choice == "ranked":
            return ("CP-SAT's decision strategies pick the min, max, median or a half of a "
                    "domain, not a value ranking such as "
                    f"{heuristic.value_order!r}")
        return None

    def solve(self, model: Model, lowered: LoweredModel,
              request: SolveRequest) -> SolveResult:
        started = time.perf_counter()
        sat_model = cp_model.CpModel()
        sat_vars: SatVars = {}
        for variable in lowered.variables:
            domain = cp_model.Domain.from_values(list(variable.domain))
            sat_vars[variable] = sat_model.new_int_var_from_domain(domain, variable.name)
        for constraint in lowered.constraints:
            POSTERS[type(constraint)](sat_model, sat_vars, constraint)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        # left on, CP-SAT takes Ctrl-C from workers that ignore it, and resets it after
        solver.parameters.catch_sigint_signal = False
        solver.parameters.random_seed = request.seed
        if request.time_limit is not None:
            solver.parameters.max_time_in_seconds = request.time_limit
        if not request.plan.auto:
            _add_fixed_search(sat_model, sat_vars, request.plan)
            solver.parameters.search_branching = cp_model.FIXED_SEARCH
            # presolve would fix or merge variables behind the strategy's back
            solver.parameters.cp_model_presolve = False
        enumerate_all = request.max_solutions != 1
        solver.parameters.enumerate_all_solutions = enumerate_all
        counter = _SolutionCounter([sat_vars[v] for v in model.variables],
                                   request.max_solutions)
        build_s = lowered.lowering_s + time.perf_counter() - started

        with PeakMemory() as memory, interruptible(solver.stop_search):
            request.searching()
            search_started = time.perf_counter()
            status = solver.solve(sat_model, counter)
            solve_s = time.perf_counter() - search_started
        found = len(counter.seen)
        response = solver.response_proto
        statistics = Statistics(
            build_s=build_s, solve_s=solve_s, backtracks=None, branches=solver.num_branches,
            conflicts=solver.num_conflicts,
            propagations=response.num_binary_propagations + response.num_integer_propagations,
            solutions=found, peak_memory_mb=memory.value, first_branches=counter.first_branches)
        first = None if counter.first is None else dict(zip(model.variables, counter.first))
        run_status, message = self._status(status, found, sat_model, request, solve_s)
        complete = (status == cp_model.OPTIMAL and enumerate_all and not counter.stopped) or (
            status == cp_model.INFEASIBLE)
        return SolveResult(run_status, first, statistics, complete, self.name,
                           str(request.heuristic), message)

    @staticmethod
    def _status(status: cp_model.CpSolverStatus, found: int, sat_model: cp_model.CpModel,
                request: SolveRequest, solve_s: float) -> tuple[Status, str]:
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if found == 0:  # every solution the callback saw was a repeat: cannot happen
                raise SolverError("CP-SAT reported a solution but none was recorded")
            enumerating = request.max_solutions != 1
            timed_out = enumerating and status == cp_model.FEASIBLE and found < (
                request.max_solutions or found + 1)
            return (Status.TIMEOUT if timed_out else Status.SOLVED), ""
        if status == cp_model.INFEASIBLE:
            return (Status.SOLVED, "") if found else (Status.UNSATISFIABLE, "")
        if status == cp_model.UNKNOWN:
            if request.time_limit is not None and solve_s >= 0.9 * request.time_limit:
                return Status.TIMEOUT, ""
            return Status.ERROR, "CP-SAT stopped without an answer before its time limit"
        if status == cp_model.MODEL_INVALID:
            return Status.ERROR, f"CP-SAT rejected the model: {sat_model.validate()}"
        raise SolverError(f"unknown CP-SAT status {status}")
