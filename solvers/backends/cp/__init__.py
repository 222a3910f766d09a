"""Backend ``cp``: OR-tools' classic CP solver (``pywrapcp``), depth-first with exact counts.

This package is the only code that touches ``pywrapcp``: OR-tools replaced that
wrapper on its main branch, and moving to the new one must change this package alone.
Constraints are posted by :mod:`.posting`, probing runs in :mod:`.probing_search`.

Statistics: ``backtracks`` is the solver's ``Failures()`` (failed nodes), ``branches``
its ``Branches()``, summed over the slices of ``auto`` (:mod:`.impact_slices`), whose
slices after the first are its ``restarts``; the solver counts neither conflicts nor
propagations (None).
"""

from __future__ import annotations

import weakref
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from solvers.backend_contract import LoweredModel, RootPropagator, SolveRequest
from solvers.backends import BACKENDS
from solvers.backends.cp.impact_slices import FIRST_SLICE_FAILURES, slices
from solvers.backends.cp.posting import POSTERS, CpVars, post_connected
from solvers.capabilities import (
    ALL_PROBING,
    DWAY_BESIDE_PYTHON,
    PROBING_BESIDE_PYTHON,
    PROBING_WITH_OWN_SEARCH,
    SEARCH_TREE_UNDER_OWN_SEARCH,
    Capabilities,
)
from solvers.constraints import Connected
from solvers.heuristics import SearchPlan
from solvers.limits import SearchLimits
from solvers.model import Model
from solvers.probing import ProbeGroups
from solvers.search_tree import SearchTree
from solvers.variables import IntVar

if TYPE_CHECKING:  # OR-tools is imported by the first cp solve, not by naming the backend
    from ortools.constraint_solver import pywrapcp

    from solvers.backends.cp.dway import DwayLabelling
    from solvers.backends.cp.probing_search import ProbingSearch
    from solvers.backends.cp.tree import TreeMonitor


def _impact_search_parameters(seed: int, by_value: bool = False
                              ) -> pywrapcp.DefaultPhaseParameters:
    """The solver's own impact-based search, without its side dives; choosing by the
    sum of a variable's value impacts, or by its strongest value's (``by_value``).

    The periodic side heuristics find solutions outside the search tree, which
    would count some solutions twice when enumerating; they also log to stderr.
    """
    from ortools.constraint_solver import pywrapcp

    parameters = pywrapcp.DefaultPhaseParameters()
    if by_value:
        parameters.var_selection_schema = parameters.CHOOSE_MAX_VALUE_IMPACT
    parameters.run_all_heuristics = False
    parameters.heuristic_period = -1
    parameters.display_level = parameters.NONE
    parameters.random_seed = seed
    return parameters


def _decision_builder(solver: pywrapcp.Solver, cp_vars: CpVars, plan: SearchPlan,
                      everything: list[IntVar], seed: int,
                      probing: ProbingSearch | None = None,
                      labelling: DwayLabelling | None = None, by_value: bool = False) -> Any:
    """The plan's phase on the decision variables, then a plain phase on what is left."""
    decision = [cp_vars[v] for v in plan.variables]
    if probing is not None and probing.every_node:
        first = probing
    elif labelling is not None:
        first = labelling
    elif plan.auto:
        first = solver.DefaultPhase(decision, _impact_search_parameters(seed, by_value))
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


@dataclass
class _Compiled:
    """A classic-solver model ready to search, and what the hooks read of it."""

    solver: pywrapcp.Solver
    cp_vars: CpVars
    builder: Any
    limits: SearchLimits
    probing: ProbingSearch | None
    model_vars: list[Any]
    variables: list[IntVar]  # the model's own, in order, as model_vars holds them
    labelling: DwayLabelling | None = None  # the d-way labelling (+dway), if any
    tree: TreeMonitor | None = None  # the tree's recorder, when the run asks for one
    # auto's two impact measures, searched in turn in slices (impact_slices.py)
    alternatives: list[Any] | None = None
    # the counters of the slices cut, and where the current slice's counting starts
    spent: tuple[int, int] = (0, 0)
    slice_start: tuple[int, int] = (0, 0)
    # the counters when a limit stopped the search: OR-tools counts a failure for
    # every choice point it unwinds afterwards, which no search step caused
    stopped_at: list[tuple[int, int]] = field(default_factory=list)
    ended: bool = False
    restarts: int = 0  # the slices begun after the first


@BACKENDS.register("cp")
class ClassicCpBackend(RootPropagator[_Compiled]):
    """OR-tools' classic CP solver: depth-first search with exact failure and branch counts."""

    name = "cp"
    capabilities = Capabilities(
        library="OR-tools classic CP solver (`pywrapcp`)",
        summary="depth-first search with exact backtrack and branch counts; connected "
                "propagated in Python",
        native=frozenset(POSTERS),
        own_search="its impact-based search: two impact measures in turn, restarted in "
                   f"slices of {FIRST_SLICE_FAILURES:,} failures, doubled every two slices",
        probing=ALL_PROBING,
        probing_with_own_search=frozenset({"none", "root"}),
        python_propagated=frozenset({Connected}),
        dway=True,
        root_propagation=True,
        search_tree=True,
        statistics=frozenset({"backtracks", "branches", "deep_backtracks", "probes",
                              "probe_fixed", "restarts"}),
        statistic_notes={"backtracks": "the solver's Failures(); under auto, summed over "
                                       "its slices, each up to where it was cut",
                         "branches": "the solver's Branches(); under auto, summed over "
                                     "its slices, each up to where it was cut",
                         "deep_backtracks": "under +dway: its labelling counts them",
                         "restarts": "the slices of auto begun after the first (0 under a "
                                     "named heuristic: one search)"},
        reasons={
            PROBING_WITH_OWN_SEARCH: "probing at every node makes the decisions itself; "
                                     "name a heuristic (auto+probe probes at the root)",
            PROBING_BESIDE_PYTHON: "probing changes domains from Python, and a Python "
                                   "propagator (connected) failing inside that change "
                                   "crashes the interpreter; leave out +probe",
            SEARCH_TREE_UNDER_OWN_SEARCH: "its impact-based search probes values and "
                                          "restarts outside the decisions a monitor sees, "
                                          "so its tree would not hold its counts; name a "
                                          "heuristic",
            DWAY_BESIDE_PYTHON: "its d-way labelling sets values from Python, and a "
                                "Python propagator (connected) failing inside that "
                                "change crashes the interpreter; leave out +dway"})

    @classmethod
    def load(cls) -> None:
        import solvers.backends.cp.connected
        import solvers.backends.cp.dway
        import solvers.backends.cp.probing_search
        import solvers.backends.cp.tree  # noqa: F401 (each imports pywrapcp)

    def compile(self, model: Model, lowered: LoweredModel, request: SolveRequest,
                limits: SearchLimits) -> _Compiled:
        from ortools.constraint_solver import pywrapcp

        from solvers.backends.cp.dway import DwayLabelling
        from solvers.backends.cp.probing_search import ProbingSearch

        solver = pywrapcp.Solver(model.name)
        cp_vars: CpVars = {}
        for variable in lowered.variables:
            if variable.is_contiguous:
                cp_vars[variable] = solver.IntVar(variable.lb, variable.ub, variable.name)
            else:
                cp_vars[variable] = solver.IntVar(list(variable.domain), variable.name)
        for constraint in lowered.constraints:
            if type(constraint) is Connected:  # the only poster that needs the deadline
                post_connected(solver, cp_vars, constraint, limits.passed)
            else:
                POSTERS[type(constraint)](solver, cp_vars, constraint)
        probing = None
        if request.plan.probing != "none":
            probing = ProbingSearch(solver, [cp_vars[v] for v in request.plan.variables],
                                    request.plan, request.plan.probing == "nodes", limits,
                                    ProbeGroups(lowered.constraints, request.plan.variables))
        labelling = (DwayLabelling([cp_vars[v] for v in request.plan.variables], request.plan)
                     if request.plan.dway else None)
        builder = _decision_builder(solver, cp_vars, request.plan, lowered.variables,
                                    request.seed, probing, labelling)
        compiled = _Compiled(solver, cp_vars, builder, limits, probing,
                             [cp_vars[v] for v in model.variables], list(model.variables),
                             labelling)
        if request.plan.auto and probing is None and labelling is None:
            compiled.alternatives = [builder, _decision_builder(
                solver, cp_vars, request.plan, lowered.variables, request.seed, by_value=True)]
        if request.tree_cap is not None:
            from solvers.backends.cp.tree import TreeMonitor

            stopped_at = compiled.stopped_at
            compiled.tree = TreeMonitor(solver, lowered.variables, request.tree_cap,
                                        lambda: bool(stopped_at))
        return compiled

    def root_domains(self, compiled: _Compiled) -> dict[IntVar, tuple[int, ...]] | None:
        from solvers.backends.cp.root import read_root  # only studies of propagation ask

        return read_root(compiled.solver, compiled.probing,
                         dict(zip(compiled.variables, compiled.model_vars)))

    def search(self, compiled: _Compiled) -> Generator[tuple[int, ...], None, None]:
        solver, limits = compiled.solver, compiled.limits
        # the solver keeps the limit's callback alive from C++, out of Python's garbage
        # collector's sight: a callback holding the solver itself would keep every
        # solver of a worker process alive, megabytes a run
        solver_ref = weakref.ref(solver)
        stopped_at = compiled.stopped_at
        cut: list[tuple[int, int]] = []  # the counters when the slice's budget ran out
        budget: list[int | None] = [None]  # the failures the slice may reach

        def limit_reached() -> bool:  # asked at every node: the solver only when needed
            if limits.passed():
                searching = solver_ref()
                if not stopped_at and searching is not None:
                    stopped_at.append((searching.Failures(), searching.Branches()))
                return True
            if budget[0] is not None:
                searching = solver_ref()
                if searching is not None and searching.Failures() >= budget[0]:
                    if not cut:
                        cut.append((searching.Failures(), searching.Branches()))
                    return True
            return False

        monitors = []
        # a limit costs a Python call per check; Ctrl-C's handler runs in that call
        if limits.time_limit or limits.watched or compiled.alternatives:
            monitors.append(solver.CustomLimit(limit_reached))
        if compiled.tree is not None:
            monitors.append(compiled.tree)
        plan: Iterable[tuple[Any, int | None]] = [(compiled.builder, None)]
        if compiled.alternatives:
            alternatives = compiled.alternatives
            plan = ((alternatives[measure], failures)
                    for measure, failures in slices(len(alternatives)))
        try:
            for compiled.restarts, (builder, failures) in enumerate(plan):
                cut.clear()
                budget[0] = None if failures is None else solver.Failures() + failures
                solver.NewSearch(builder, monitors)
                while solver.NextSolution():
                    budget[0] = None  # a slice that found a solution runs on to its end
                    yield tuple(variable.Value() for variable in compiled.model_vars)
                if not cut:
                    break  # the whole search is done, or the time limit stopped it
                # cut: what it did up to its budget counts (OR-tools counts a failure
                # for every choice point it unwinds afterwards), then a new slice
                solver.EndSearch()
                compiled.spent = (
                    compiled.spent[0] + cut[0][0] - compiled.slice_start[0],
                    compiled.spent[1] + cut[0][1] - compiled.slice_start[1])
                compiled.slice_start = (solver.Failures(), solver.Branches())
        finally:
            if not stopped_at:
                stopped_at.append((solver.Failures(), solver.Branches()))
            if compiled.probing is not None:  # a probe is a branch and a failure to the
                compiled.probing.settle(*stopped_at[0])  # solver, not a search step
            solver.EndSearch()
            compiled.ended = True

    def search_tree(self, compiled: _Compiled) -> SearchTree | None:
        return None if compiled.tree is None else compiled.tree.tree

    def counters(self, compiled: _Compiled) -> dict[str, int | None]:
        failures, branches = (compiled.stopped_at[0] if compiled.ended else
                              (compiled.solver.Failures(), compiled.solver.Branches()))
        failures += compiled.spent[0] - compiled.slice_start[0]
        branches += compiled.spent[1] - compiled.slice_start[1]
        probing = compiled.probing
        return {"backtracks": failures - (probing.failures if probing else 0),
                "branches": branches - (probing.branches if probing else 0),
                "deep_backtracks": (compiled.labelling.deep_backtracks
                                    if compiled.labelling else None),
                "probes": probing.probes if probing else None,
                "probe_fixed": probing.fixed if probing else None,
                "restarts": compiled.restarts}
