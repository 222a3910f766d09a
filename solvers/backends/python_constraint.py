"""Backend ``python-constraint``: the pure-Python baseline (``python-constraint2``).

The search is :class:`~solvers.backends.constraint_search.CountingSearch`, a
forward-checking DFS written on the library's domains and constraints. Sums of
variables use the library's sum constraints, ``all_different`` its value-based
constraint, 0/1 exactly-one / at-most-one its sum constraints; every other
constraint is a ``FunctionConstraint`` over the constraint's own meaning
(``holds``), checked as soon as its variables are assigned (and forward-checked
when one is left). ``regular`` is a propagator of its own (:class:`RegularConstraint`,
which filters every cell of its line at each check); ``inverse``, ``count`` and
``global_cardinality`` are decomposed first so that forward checking sees small scopes.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

import constraint as python_constraint

from solvers.backend_contract import Backend, LoweredModel, SolveRequest
from solvers.backends import BACKENDS
from solvers.backends.constraint_search import CountingSearch
from solvers.capabilities import (
    OWN_SEARCH,
    PROBING,
    ROOT_PROPAGATION,
    STRONG_ALL_DIFFERENT,
    Capabilities,
)
from solvers.constraints import (
    AllDifferent,
    AtMostOne,
    Clause,
    Connected,
    Constraint,
    Element,
    ExactlyOne,
    Linear,
    NoOverlap2D,
    Regular,
    ReifiedEquality,
    Table,
)
from solvers.limits import SearchLimits
from solvers.model import Model
from solvers.search_tree import SearchTree
from solvers.variables import IntVar

Posted = tuple[python_constraint.Constraint, list[IntVar]]


def _as_function(constraint: Constraint) -> Posted:
    scope = list(constraint.variables())

    def check(*values: int) -> bool:
        return constraint.holds(dict(zip(scope, values)))

    return python_constraint.FunctionConstraint(check), scope


def _all_different(constraint: AllDifferent) -> Posted:
    return python_constraint.AllDifferentConstraint(), list(constraint.items)


_SUMS: dict[str, Callable[[int], python_constraint.Constraint]] = {
    "==": python_constraint.ExactSumConstraint,
    "<=": python_constraint.MaxSumConstraint,
    ">=": python_constraint.MinSumConstraint,
}


def _linear(constraint: Linear) -> Posted:
    """Plain sums of non-negative variables go to the library; anything else is checked."""
    plain = all(c == 1 and v.lb >= 0 for c, v in constraint.terms)
    if plain and constraint.comparison in _SUMS:
        return _SUMS[constraint.comparison](constraint.rhs), list(constraint.variables())
    return _as_function(constraint)


class RegularConstraint(python_constraint.Constraint):
    """``regular`` as a propagator: keeps exactly the values on some accepted path (GAC).

    The library only checks constraints once their variables are assigned, so the
    decomposition into state tables prunes nothing until a line is complete; this
    filters every cell of the line on each check, forward then backward over the
    automaton's states.
    """

    def __init__(self, constraint: Regular) -> None:
        self.step = {(state, symbol): target for state, symbol, target in
                     constraint.transitions}
        self.initial = constraint.initial
        self.accepting = frozenset(constraint.accepting)

    def __call__(self, variables: list[Any], domains: dict, assignments: dict,
                 forwardcheck: Any = False, _unassigned: Any = None) -> bool:
        options = [[assignments[v]] if v in assignments else list(domains[v])
                   for v in variables]
        reachable = [{self.initial}]
        for values in options:
            following = {self.step[(state, value)] for state in reachable[-1]
                         for value in values if (state, value) in self.step}
            if not following:
                return False
            reachable.append(following)
        alive = reachable[-1] & self.accepting
        if not alive:
            return False
        if not forwardcheck:
            return True
        for index in reversed(range(len(variables))):
            kept, sources = set(), set()
            for state in reachable[index]:
                for value in options[index]:
                    if self.step.get((state, value)) in alive:
                        kept.add(value)
                        sources.add(state)
            variable = variables[index]
            if variable not in assignments:
                for value in options[index]:
                    if value not in kept:
                        domains[variable].hideValue(value)
                if not domains[variable]:
                    return False
            alive = sources
        return True


POSTERS: dict[type[Constraint], Callable[[Any], Posted]] = {
    Regular: lambda c: (RegularConstraint(c), list(c.items)),
    AllDifferent: _all_different,
    Linear: _linear,
    ExactlyOne: lambda c: (python_constraint.ExactSumConstraint(1), list(c.items)),
    AtMostOne: lambda c: (python_constraint.MaxSumConstraint(1), list(c.items)),
    Element: _as_function,
    Table: _as_function,
    ReifiedEquality: _as_function,
    Clause: _as_function,
    NoOverlap2D: _as_function,
    Connected: _as_function,
}


@dataclass
class _Compiled:
    """The library's problem, our search on it, and the variables a solution is read on;
    ``arguments``: the domains and constraint lists after the library's preprocessing."""

    problem: python_constraint.Problem
    search: CountingSearch
    model_variables: list[IntVar]
    arguments: tuple[Any, Any, Any]


@BACKENDS.register("python-constraint")
class PythonConstraintBackend(Backend[_Compiled]):
    """python-constraint's domains and constraints under a counting, plan-following DFS."""

    name = "python-constraint"
    capabilities = Capabilities(
        library="python-constraint2 (`constraint`)",
        summary="the pure-Python baseline: our forward-checking DFS on the library's "
                "domains and constraints",
        native=frozenset(POSTERS),
        all_different=frozenset({"weak"}),
        dway=True,
        search_tree=True,
        statistics=frozenset({"backtracks", "branches", "propagations", "deep_backtracks"}),
        statistic_notes={"backtracks": "failed value tries (a root that fails before any "
                                       "try counts none)", "branches": "value tries",
                         "propagations": "constraint checks",
                         "deep_backtracks": "under +dway, which also assigns a variable "
                                            "left with one value at once, as ic does"},
        reasons={
            ROOT_PROPAGATION: "the library's constraints prune only inside its search, as "
                              "each variable is assigned: there is no propagation at the root",
            STRONG_ALL_DIFFERENT: "the library has only value-based (weak) all_different; "
                                  "use the option alldiff=weak or another solver",
            OWN_SEARCH: "the library has no search of its own that honours a time limit; "
                        "name a heuristic",
            PROBING: "probing needs nested propagation inside the search"})

    def compile(self, model: Model, lowered: LoweredModel, request: SolveRequest,
                limits: SearchLimits) -> _Compiled:
        problem = python_constraint.Problem()
        for variable in lowered.variables:
            problem.addVariable(variable, list(variable.domain))
        for constraint in lowered.constraints:
            posted, scope = POSTERS[type(constraint)](constraint)
            if not scope and lowered.variables:  # the library skips constraints on no variable
                holds = constraint.holds({})
                posted, scope = (python_constraint.FunctionConstraint(lambda _, h=holds: h),
                                 [lowered.variables[0]])
            problem.addConstraint(posted, scope)
        tree = (None if request.tree_cap is None else
                SearchTree([v.name for v in lowered.variables], request.tree_cap))
        search = CountingSearch(request.plan, lowered.variables, limits, tree)
        problem.setSolver(search)
        # the library's preprocessing (each constraint's preProcess over the domains) is
        # part of building: run inside getSolutionIter it would sit in the search time,
        # out of reach of the deadline (9 s under a 2 s limit on a 40x30 Shikaku with gcc)
        arguments = problem._getArgs()  # the library's own first step of getSolutionIter
        return _Compiled(problem, search, list(model.variables), arguments)

    def search(self, compiled: _Compiled) -> Generator[tuple[int, ...], None, None]:
        domains, constraints, vconstraints = compiled.arguments
        if not domains:  # preprocessing emptied a domain: no solution
            compiled.search.root_failed()
            return
        for solution in compiled.search.getSolutionIter(domains, constraints, vconstraints):
            yield tuple(solution[v] for v in compiled.model_variables)

    def search_tree(self, compiled: _Compiled) -> SearchTree | None:
        return compiled.search.tree

    def counters(self, compiled: _Compiled) -> dict[str, int | None]:
        search = compiled.search
        return {"backtracks": search.backtracks, "branches": search.branches,
                "propagations": search.propagations,
                "deep_backtracks": search.deep_backtracks}
