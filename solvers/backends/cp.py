"""Backend ``cp``: OR-tools' classic CP solver (``pywrapcp``), depth-first with exact counts.

This is the only module that touches ``pywrapcp``: OR-tools replaced that wrapper on
its main branch, and moving to the new one must change this file alone.

Statistics: ``backtracks`` is the solver's ``Failures()`` (failed nodes), ``branches``
its ``Branches()``; the solver counts neither conflicts nor propagations (None).
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import networkx as nx
from ortools.constraint_solver import pywrapcp

from solvers.backends import BACKENDS
from solvers.backends.base import Backend, LoweredModel, SolveRequest
from solvers.backends.interrupt import interruptible
from solvers.backends.timing import Deadline
from solvers.constraints import (
    AllDifferent,
    AtMostOne,
    Clause,
    Connected,
    Constraint,
    Count,
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
from solvers.probing import ProbeGroups
from solvers.record import SolveResult, Statistics, Status
from solvers.variables import IntOrVar, IntVar

CpVars = dict[IntVar, Any]


class ConnectedPropagator(pywrapcp.PyConstraint):
    """``connected`` in Python with networkx, on the edges that may still carry weight.

    Fails as soon as the possible edges leave some nodes cut off from the rest, and
    forces every bridge of the possible graph to be present (its removal would cut).
    """

    def __init__(self, solver: pywrapcp.Solver, constraint: Connected, weights: list[Any]):
        super().__init__(solver)
        self.constraint = constraint
        self.weights = weights

    def Post(self) -> None:  # noqa: N802 (OR-tools' name)
        demon = self.Demon(ConnectedPropagator.propagate)
        for weight in self.weights:
            weight.WhenRange(demon)

    def InitialPropagate(self) -> None:  # noqa: N802 (OR-tools' name)
        self.propagate()

    def propagate(self) -> None:
        """Fail on a cut-off node set; make bridges of the possible graph present."""
        nodes = self.constraint.nodes
        if len(nodes) <= 1:
            return
        possible = [weight.Max() > 0 for weight in self.weights]
        graph = self.constraint.graph(possible)
        if not nx.is_connected(graph):
            self.solver().Fail()
        bridges = set(nx.bridges(graph))
        for (u, v, _), weight, present in zip(self.constraint.edges, self.weights, possible):
            if present and ((u, v) in bridges or (v, u) in bridges):
                weight.SetMin(1)


def _term(solver: pywrapcp.Solver, cp_vars: CpVars, term: IntOrVar) -> Any:
    return solver.IntConst(term) if isinstance(term, int) else cp_vars[term]


def _post_linear(solver: pywrapcp.Solver, cp_vars: CpVars, constraint: Linear) -> None:
    expression = solver.ScalProd([cp_vars[v] for _, v in constraint.terms],
                                 [c for c, _ in constraint.terms])
    comparison = {"==": expression == constraint.rhs, "!=": expression != constraint.rhs,
                  "<=": expression <= constraint.rhs, ">=": expression >= constraint.rhs}
    solver.Add(comparison[constraint.comparison])


def _post_element(solver: pywrapcp.Solver, cp_vars: CpVars, constraint: Element) -> None:
    if all(isinstance(entry, int) for entry in constraint.array):
        picked = solver.Element(list(constraint.array), cp_vars[constraint.index])
    else:
        picked = solver.Element([_term(solver, cp_vars, e) for e in constraint.array],
                                cp_vars[constraint.index])
    solver.Add(picked == cp_vars[constraint.value])


def _post_clause(solver: pywrapcp.Solver, cp_vars: CpVars, constraint: Clause) -> None:
    literals = [cp_vars[v] for v in constraint.positive + constraint.negative]
    signs = [1] * len(constraint.positive) + [-1] * len(constraint.negative)
    solver.Add(solver.ScalProd(literals, signs) >= 1 - len(constraint.negative))


def _post_no_overlap(solver: pywrapcp.Solver, cp_vars: CpVars, constraint: NoOverlap2D) -> None:
    def terms(attribute: str) -> list[Any]:
        return [_term(solver, cp_vars, getattr(r, attribute)) for r in constraint.rectangles]

    solver.Add(solver.NonOverlappingBoxesConstraint(terms("x"), terms("y"), terms("width"),
                                                    terms("height")))


def _vars(cp_vars: CpVars, items: tuple[IntVar, ...]) -> list[Any]:
    return [cp_vars[item] for item in items]


POSTERS: dict[type[Constraint], Callable[[pywrapcp.Solver, CpVars, Any], None]] = {
    AllDifferent: lambda s, m, c: s.Add(s.AllDifferent(_vars(m, c.items), c.strength == "strong")),
    Inverse: lambda s, m, c: s.Add(s.InversePermutationConstraint(_vars(m, c.forward),
                                                                  _vars(m, c.backward))),
    Linear: _post_linear,
    Element: _post_element,
    Count: lambda s, m, c: s.Add(s.Count(_vars(m, c.items), c.value, _term(s, m, c.count))),
    Table: lambda s, m, c: s.Add(s.AllowedAssignments(_vars(m, c.items),
                                                      [list(row) for row in c.allowed])),
    Regular: lambda s, m, c: s.Add(s.TransitionConstraint(
        _vars(m, c.items), [list(t) for t in c.transitions], c.initial, list(c.accepting))),
    ReifiedEquality: lambda s, m, c: s.Add(s.IsEqualCstCt(m[c.variable], c.value, m[c.flag])),
    Clause: _post_clause,
    ExactlyOne: lambda s, m, c: s.Add(s.SumEquality(_vars(m, c.items), 1)),
    AtMostOne: lambda s, m, c: s.Add(s.SumLessOrEqual(_vars(m, c.items), 1)),
    NoOverlap2D: _post_no_overlap,
    Connected: lambda s, m, c: s.Add(ConnectedPropagator(s, c, [m[w] for _, _, w in c.edges])),
}


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


class BoundRecorder(pywrapcp.PyConstraint):
    """Notes which decision variables become bound, in order, while probing is on.

    A demon per variable costs one Python call per binding, far less than reading
    every domain after every probe.
    """

    def __init__(self, solver: pywrapcp.Solver, variables: list[Any]) -> None:
        super().__init__(solver)
        self.variables = variables
        self.recording = True
        self.bound: list[int] = []

    def Post(self) -> None:  # noqa: N802 (OR-tools' name)
        for index, variable in enumerate(self.variables):
            variable.WhenBound(self.Demon(BoundRecorder.note, index))

    def InitialPropagate(self) -> None:  # noqa: N802 (OR-tools' name)
        """Nothing to prune: this constraint only watches."""

    def note(self, index: int) -> None:
        if self.recording:
            self.bound.append(index)


class Probe(pywrapcp.PyDecision):
    """One probe as a branch of the search tree, so no nested solve is needed.

    Left branch: ``variable = value``, propagated; the search's next call looks at
    what it bound and fails. Right branch: nothing, so the search is back at the
    same node with the probe's outcome noted (None when the propagation failed).
    """

    def __init__(self, search: ProbingSearch, index: int, value: int) -> None:
        super().__init__()
        self.search, self.index, self.value = search, index, value

    def Apply(self, solver: pywrapcp.Solver) -> None:  # noqa: N802 (OR-tools' name)
        self.search.start_probe()
        self.search.decision[self.index].SetValue(self.value)

    def Refute(self, solver: pywrapcp.Solver) -> None:  # noqa: N802 (OR-tools' name)
        self.search.end_probe()

    def DebugString(self) -> str:  # noqa: N802 (OR-tools' name)
        return f"Probe({self.search.decision[self.index].Name()} = {self.value})"


class ProbingSearch(pywrapcp.PyDecisionBuilder):
    """Singleton consistency with merging on the decision variables, at the root or
    at every node.

    Each value of each unbound decision variable is tried as a :class:`Probe`. A value
    whose propagation fails is removed; when every remaining value binds some other
    decision variable to the same value, that variable is fixed (what dedicated
    nonogram solvers call merging the probes). The first pass at a node probes the
    variables that the changes since the parent's probing can reach (all of them at
    the root, see :class:`ProbeGroups`), each later pass those that the previous
    pass's fixes can reach, until a pass changes nothing.
    At the root only, this builder then hands over to the plan's phase; at every node
    it also makes the plan's decision itself, so it can probe again below it. The
    search counters it moves (probe branches and failures) are kept apart, so that
    ``backtracks`` and ``branches`` stay those of the search proper.
    """

    def __init__(self, solver: pywrapcp.Solver, decision: list[Any], plan: SearchPlan,
                 every_node: bool, deadline: Deadline, groups: ProbeGroups) -> None:
        super().__init__()
        self.decision, self.plan, self.every_node = decision, plan, every_node
        self.groups = groups
        self.model_vars = list(plan.variables)
        self.deadline = deadline
        self.recorder = BoundRecorder(solver, decision)
        solver.Add(self.recorder)
        self.probes = self.fixed = 0
        self.failures = self.branches = 0  # the solver's counters spent on probes
        self._counters_at_probe: tuple[int, int] | None = None
        self._in_probe = self._resuming = self._probed_root = False
        self._outcome: frozenset[tuple[int, int]] | None = None
        self._mark = 0  # where the bindings of the probe under way start
        self._steps: Iterator[Any] = iter(())
        # the solver holds bare pointers to decisions: Python must keep them alive
        self._probe_decisions: dict[tuple[int, int], Probe] = {}

    def Next(self, solver: pywrapcp.Solver) -> Any:  # noqa: N802 (OR-tools' name)
        if self._in_probe:  # the probe propagated without failing: note it, go back
            self._outcome = frozenset((i, self.decision[i].Value())
                                      for i in self.recorder.bound[self._mark:])
            return solver.FailDecision()
        if self._resuming:
            self._resuming = False
            self._count_probe(solver.Failures(), solver.Branches())
        elif self.every_node or not self._probed_root:
            self._steps = self._node(solver)
        else:
            return None
        return next(self._steps)

    def start_probe(self) -> None:
        self._mark = len(self.recorder.bound)
        self._in_probe = True
        self._outcome = None

    def end_probe(self) -> None:
        del self.recorder.bound[self._mark:]  # the probe's bindings are undone
        self._in_probe = False
        self._resuming = True

    def settle(self, failures: int, branches: int) -> None:
        """Count a probe the search stopped in (a time limit) as probing work, up to the
        solver's counters ``failures`` and ``branches`` when it stopped."""
        if self._counters_at_probe is not None:
            self._count_probe(failures, branches)

    def _count_probe(self, failures_now: int, branches_now: int) -> None:
        assert self._counters_at_probe is not None
        failures, branches = self._counters_at_probe
        self.failures += failures_now - failures
        self.branches += branches_now - branches
        self._counters_at_probe = None

    def _node(self, solver: pywrapcp.Solver) -> Iterator[Any]:
        """Probe to a fixpoint, then yield the node's decision (None: nothing left)."""
        bound = self.recorder.bound
        if self._probed_root:
            to_probe = self.groups.reached_from(bound)
        else:
            to_probe = set(range(len(self.decision)))
            self._probed_root = True
        while to_probe and not self.deadline.passed():
            bound.clear()
            narrowed = []  # probed variables that lost values but stay open
            for index in sorted(to_probe):
                variable = self.decision[index]
                if variable.Bound():
                    continue
                outcomes: dict[int, frozenset[tuple[int, int]] | None] = {}
                for value in _values(variable):
                    self.probes += 1
                    self._counters_at_probe = (solver.Failures(), solver.Branches())
                    yield self._probe(index, value)
                    outcomes[value] = self._outcome
                if self._merge(variable, outcomes) and not variable.Bound():
                    narrowed.append(index)  # the cells a merge fixed are in ``bound``
            to_probe = self.groups.reached_from(bound + narrowed)
        if self.every_node:
            yield self._decide(solver)
        else:
            self.recorder.recording = False  # the plan's phase takes over
            bound.clear()
            yield None

    def _probe(self, index: int, value: int) -> Probe:
        key = (index, value)
        if key not in self._probe_decisions:
            self._probe_decisions[key] = Probe(self, index, value)
        return self._probe_decisions[key]

    def _merge(self, variable: Any,
               outcomes: dict[int, frozenset[tuple[int, int]] | None]) -> bool:
        """Remove the refuted values; fix what all surviving values agree on.

        Returns whether ``variable`` itself lost a value: the variables the merge
        fixes are noted by the recorder like any other binding.
        """
        alive = [outcome for outcome in outcomes.values() if outcome is not None]
        for value, outcome in outcomes.items():
            if outcome is None:
                variable.RemoveValue(value)  # an emptied domain fails this node
        narrowed = len(alive) < len(outcomes)
        if narrowed and variable.Bound():
            self.fixed += 1
        if len(alive) >= 2:
            for index, value in frozenset.intersection(*alive):
                if not self.decision[index].Bound():
                    self.decision[index].SetValue(value)
                    self.fixed += 1
        return narrowed

    def _decide(self, solver: pywrapcp.Solver) -> Any:
        unbound = [i for i, v in enumerate(self.decision) if not v.Bound()]
        if not unbound:
            return None
        index = unbound[0]
        if self.plan.selection == "smallest-domain":
            index = min(unbound, key=lambda i: self.decision[i].Size())
        variable = self.decision[index]
        value = self.plan.ordered_values(self.model_vars[index], _values(variable))[0]
        return solver.AssignVariableValue(variable, value)


def _values(variable: Any) -> list[int]:
    return [v for v in range(variable.Min(), variable.Max() + 1) if variable.Contains(v)]


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
        if deadline.crossed and (request.max_solutions is None or found < request.max_solutions):
            status = Status.TIMEOUT
        else:
            status = Status.SOLVED if found else Status.UNSATISFIABLE
        statistics = Statistics(build_s=build_s, solve_s=solve_s, backtracks=backtracks,
                                branches=branches, conflicts=None, propagations=None,
                                solutions=found, peak_memory_mb=memory.value,
                                first_branches=first_branches,
                                probes=probing.probes if probing else None,
                                probe_fixed=probing.fixed if probing else None)
        return SolveResult(status, first, statistics, complete, self.name, str(request.heuristic))
