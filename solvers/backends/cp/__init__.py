"""Backend ``cp``: OR-tools' classic CP solver (``pywrapcp``), depth-first with exact counts.

This package is the only code that touches ``pywrapcp``: OR-tools replaced that
wrapper on its main branch, and moving to the new one must change this package alone.
Constraints are posted by :mod:`.posting`, probing runs in :mod:`.probing_search`.

Statistics: ``backtracks`` is the solver's ``Failures()`` (failed nodes), ``branches``
its ``Branches()``; the solver counts neither conflicts nor propagations (None).
"""

from __future__ import annotations

import time
import weakref
from typing import Any

from ortools.constraint_solver import pywrapcp

from solvers.backends import BACKENDS
from solvers.backends.base import Backend, LoweredModel, SolveRequest
from solvers.backends.cp.posting import POSTERS, CpVars
from solvers.backends.cp.probing_search import ProbingSearch
from solvers.backends.interrupt import interruptible
from solvers.backends.timing import Deadline
from solvers.constraints import Connected
from solvers.heuristics import Heuristic, SearchPlan
from solvers.memory import PeakMemory
from solvers.model import Model
from solvers.probing import ProbeGroups
from solvers.record import SolveResult, Statistics
from solvers.variables import IntVar


def _impact_search_parameters(seed: int) -> pywrapcp.DefaultPhaseParameters:
    """The solver's own impact-based search, without its side dives.

    The periodic side heuristics find solutions outside the search tree, which
    would count some solutions twice when enumerating; they also log to stderr.
    """
    parameters = pywrapcp.DefaultPhaseParameters()
    parameters.run_all_heuristics = False
    parameters.heuristic_period = -1
    parameters.display_level = parameters.NONE
    parameters.random_seed = seed
    return parameters


def _decision_builder(solver: pywrapcp.Solver, cp_vars: CpVars, plan: SearchPlan,
                      everything: list[IntVar], seed: int,
                      probing: ProbingSearch | None = None) -> Any:
    """The plan's phase on the decision variables, then a plain phase on what is left."""
    decision = [cp_vars[v] for v in plan.variables]
    if probing is not None and probing.every_node:
        first = probing
    elif plan.auto:
        first = solver.DefaultPhase(decision, _impact_search_parameters(seed))
    else:
        selection = {"first-unbound": solver.CHOOSE_FIRST_UNBOUND,
                     "smallest-domain": solver.CHOOSE_MIN_SIZE}[plan.selection]
        if plan.value_choice == "ranked":
            assert plan.value_rank is not None
            ranks = [plan.value_rank[v] for v in plan.variables]
            first = solver.VarStrValEvalPhase(decision, selection,
                                              lambda i, value: ranks[i][value])
        else:
            value = {"min": solver.ASSIGN_MIN_VALUE, "max": solver.ASSIGN_MAX_VALUE}
            first = solver.Phase(decision, selection, value[plan.value_choice])
    phases = [first]
    if probing is not None and not probing.every_node:
        phases.insert(0, probing)
    chosen = set(plan.variables)
    rest = [cp_vars[v] for v in everything if v not in chosen]
    if rest:
        phases.append(solver.Phase(rest, solver.CHOOSE_FIRST_UNBOUND, solver.ASSIGN_MIN_VALUE))
    return phases[0] if len(phases) == 1 else solver.Compose(phases)


@BACKENDS.register("cp")
class ClassicCpBackend(Backend):
    """OR-tools' classic CP solver: depth-first search with exact failure and branch counts."""

    name = "cp"
    native = frozenset(POSTERS)
    summary = ("OR-tools classic CP solver (pywrapcp): DFS, exact backtrack and branch counts; "
               "auto = its impact-based search")

    def unsupported_reason(self, heuristic: Heuristic, plan: SearchPlan) -> str | None:
        if plan.auto and plan.probing == "nodes":
            return "probing at every node makes the decisions itself; name a heuristic"
        return None

    def search_refusal(self, lowered: LoweredModel, plan: SearchPlan) -> str | None:
        # Probing changes domains from Python; a Python propagator (``connected``) that
        # then prunes or fails inside that change crashes the interpreter (OR-tools
        # keeps one failure handler per solver, and the inner Python call clears the
        # outer one's, so the failure unwinds the Python stack).
        if plan.probing != "none" and any(isinstance(c, Connected)
                                          for c in lowered.constraints):
            return ("probing cannot run beside a constraint propagated in Python "
                    "(connected); leave out +probe")
        return None

    def solve(self, model: Model, lowered: LoweredModel,
              request: SolveRequest) -> SolveResult:
        started = time.perf_counter()
        solver = pywrapcp.Solver(model.name)
        cp_vars: CpVars = {}
        for variable in lowered.variables:
            if variable.is_contiguous:
                cp_vars[variable] = solver.IntVar(variable.lb, variable.ub, variable.name)
            else:
                cp_vars[variable] = solver.IntVar(list(variable.domain), variable.name)
        for constraint in lowered.constraints:
            POSTERS[type(constraint)](solver, cp_vars, constraint)
        deadline = Deadline(request.time_limit)
        probing = None
        if request.plan.probing != "none":
            probing = ProbingSearch(solver, [cp_vars[v] for v in request.plan.variables],
                                    request.plan, request.plan.probing == "nodes", deadline,
                                    ProbeGroups(lowered.constraints, request.plan.variables))
        builder = _decision_builder(solver, cp_vars, request.plan, lowered.variables,
                                    request.seed, probing)
        build_s = lowered.lowering_s + time.perf_counter() - started

        first: dict[IntVar, int] | None = None
        first_branches: int | None = None
        found = 0
        with PeakMemory() as memory, interruptible() as stop:
            monitors = []
            # the counters when a limit stops the search: OR-tools counts a failure for
            # every choice point it unwinds afterwards, which no search step caused
            stopped_at: list[tuple[int, int]] = []
            # the solver keeps the limit's callback alive from C++, out of Python's
            # garbage collector's sight: a callback holding the solver itself would keep
            # every solver of a worker process alive, megabytes a run
            solver_ref = weakref.ref(solver)

            def limit_reached() -> bool:
                if deadline.passed() or stop.is_set():
                    searching = solver_ref()
                    if not stopped_at and searching is not None:
                        stopped_at.append((searching.Failures(), searching.Branches()))
                    return True
                return False

            if request.time_limit or stop.watched:  # a limit costs a Python call per check
                monitors.append(solver.CustomLimit(limit_reached))
            request.searching()
            deadline.restart()
            search_started = time.perf_counter()
            solver.NewSearch(builder, monitors)
            exhausted = True
            while solver.NextSolution():
                found += 1
                if first is None:
                    first = {v: cp_vars[v].Value() for v in model.variables}
                    first_branches = solver.Branches() - (probing.branches if probing else 0)
                if request.max_solutions is not None and found >= request.max_solutions:
                    exhausted = False
                    break
            solve_s = time.perf_counter() - search_started
            failures, all_branches = (stopped_at[0] if stopped_at
                                      else (solver.Failures(), solver.Branches()))
            # a probe is a branch and a failure to the solver, not a step of the search
            if probing is not None:
                probing.settle(failures, all_branches)
            backtracks = failures - (probing.failures if probing else 0)
            branches = all_branches - (probing.branches if probing else 0)
            solver.EndSearch()
        complete = exhausted and not deadline.crossed
        status = deadline.outcome(found, request.max_solutions)
        statistics = Statistics(build_s=build_s, solve_s=solve_s, backtracks=backtracks,
                                branches=branches, conflicts=None, propagations=None,
                                solutions=found, peak_memory_mb=memory.value,
                                first_branches=first_branches,
                                probes=probing.probes if probing else None,
                                probe_fixed=probing.fixed if probing else None)
        return SolveResult(status, first, statistics, complete, self.name, str(request.heuristic))
