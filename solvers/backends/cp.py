"""Backend ``cp``: OR-tools' classic CP solver (``pywrapcp``), depth-first with exact counts.

This is the only module that touches ``pywrapcp``: OR-tools replaced that wrapper on
its main branch, and moving to the new one must change this file alone.

Statistics: ``backtracks`` is the solver's ``Failures()`` (failed nodes), ``branches``
its ``Branches()``; the solver counts neither conflicts nor propagations (None).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import networkx as nx
from ortools.constraint_solver import pywrapcp

from solvers.backends import BACKENDS
from solvers.backends.base import Backend, SolveRequest
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


class ProbingSearch(pywrapcp.PyDecisionBuilder):
    """Singleton consistency on the decision variables, at the root or at every node.

    Each value of each unbound decision variable is tried with ``CheckConstraint``
    (a nested propagation that is undone afterwards); a value whose propagation
    fails is removed, and passes repeat until nothing changes. At the root only,
    this builder then hands over to the plan's phase; at every node it also makes
    the plan's decision itself, so it can probe again below it.
    """

    def __init__(self, decision: list[Any], plan: SearchPlan, every_node: bool,
                 deadline: Deadline) -> None:
        super().__init__()
        self.decision, self.plan, self.every_node = decision, plan, every_node
        self.model_vars = list(plan.variables)
        self.deadline = deadline
        self.probes = self.fixed = self.failed_probes = 0
        self.probed_root = False

    def Next(self, solver: pywrapcp.Solver) -> Any:  # noqa: N802 (OR-tools' name)
        if self.every_node or not self.probed_root:
            self.probed_root = True
            self._probe(solver)
        if not self.every_node:
            return None
        return self._decide(solver)

    def _probe(self, solver: pywrapcp.Solver) -> None:
        changed = True
        while changed and not self.deadline.passed():
            changed = False
            for variable in self.decision:
                if variable.Bound():
                    continue
                for value in [v for v in range(variable.Min(), variable.Max() + 1)
                              if variable.Contains(v)]:
                    self.probes += 1
                    if not solver.CheckConstraint(variable == value):
                        self.failed_probes += 1
                        variable.RemoveValue(value)  # an emptied domain fails this node
                        changed = True
                        if variable.Bound():
                            self.fixed += 1
                            break

    def _decide(self, solver: pywrapcp.Solver) -> Any:
        unbound = [i for i, v in enumerate(self.decision) if not v.Bound()]
        if not unbound:
            return None
        index = unbound[0]
        if self.plan.selection == "smallest-domain":
            index = min(unbound, key=lambda i: self.decision[i].Size())
        variable = self.decision[index]
        values = [v for v in range(variable.Min(), variable.Max() + 1) if variable.Contains(v)]
        value = self.plan.ordered_values(self.model_vars[index], values)[0]
        return solver.AssignVariableValue(variable, value)


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

    def solve(self, model: Model, request: SolveRequest) -> SolveResult:
        started = time.perf_counter()
        lowered = self.lower(model)
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
            probing = ProbingSearch([cp_vars[v] for v in request.plan.variables], request.plan,
                                    request.plan.probing == "nodes", deadline)
        builder = _decision_builder(solver, cp_vars, request.plan, lowered.variables,
                                    request.seed, probing)
        build_s = time.perf_counter() - started

        monitors = [solver.CustomLimit(deadline.passed)] if request.time_limit else []
        first: dict[IntVar, int] | None = None
        first_branches: int | None = None
        found = 0
        with PeakMemory() as memory:
            search_started = time.perf_counter()
            solver.NewSearch(builder, monitors)
            exhausted = True
            while solver.NextSolution():
                found += 1
                if first is None:
                    first = {v: cp_vars[v].Value() for v in model.variables}
                    first_branches = solver.Branches()
                if request.max_solutions is not None and found >= request.max_solutions:
                    exhausted = False
                    break
            solve_s = time.perf_counter() - search_started
            # a failed probe is a failure to the solver, not a dead end of the search
            backtracks = solver.Failures() - (probing.failed_probes if probing else 0)
            branches = solver.Branches()
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
