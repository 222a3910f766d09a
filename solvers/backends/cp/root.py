"""The domains left at the root of the classic CP solver's search, after propagation alone.

Studies of propagation strength (how much does a redundant constraint, or probing,
decide before any choice is made?) need the root domains, not a solution. The model is
lowered and posted exactly as :class:`~solvers.backends.cp.ClassicCpBackend` does for a
search, so the domains are those every search of that model starts from.

>>> from solvers import Model, linear
>>> model = Model("two")
>>> x, y = model.int_var(0, 3, "x"), model.int_var(0, 3, "y")
>>> _ = model.add(linear([(1, x), (1, y)], ">=", 5))
>>> root_domains(model)[x]
(2, 3)
>>> _ = model.add(linear([(1, x)], "<=", 1))
>>> root_domains(model) is None
True
"""

from __future__ import annotations

from typing import Any

from ortools.constraint_solver import pywrapcp

from solvers.backends.base import SolveRequest
from solvers.backends.cp import ClassicCpBackend
from solvers.heuristics import Heuristic, plan_search
from solvers.limits import SearchLimits
from solvers.model import Model
from solvers.solve_loop import lower
from solvers.variables import IntVar

Domains = dict[IntVar, tuple[int, ...]]


def _domain(variable: Any) -> tuple[int, ...]:
    """The values left in a ``pywrapcp`` variable's domain, in increasing order."""
    return tuple(v for v in range(variable.Min(), variable.Max() + 1) if variable.Contains(v))


class _ReadDomains(pywrapcp.PyDecisionBuilder):
    """Reads every domain at its first call and ends the search there (a "solution")."""

    def __init__(self, variables: dict[IntVar, Any]) -> None:
        super().__init__()
        self.variables = variables
        self.domains: Domains | None = None

    def Next(self, solver: pywrapcp.Solver) -> None:  # noqa: N802 (OR-tools' name)
        self.domains = {variable: _domain(cp_variable)
                        for variable, cp_variable in self.variables.items()}

    def DebugString(self) -> str:  # noqa: N802 (OR-tools' name)
        return "ReadDomains"


def root_domains(model: Model, probing: bool = False) -> Domains | None:
    """Each variable of ``model`` with the values left after the root propagation, or
    None when that propagation fails (the model has no solution).

    With ``probing``, the root is first probed as ``+probe`` does (singleton consistency
    with merging on the model's decision variables, to a fixpoint), so the domains are
    those the search under ``input/min+probe`` starts from.
    """
    backend = ClassicCpBackend()
    heuristic = Heuristic.parse("input/min+probe" if probing else "input/min")
    request = SolveRequest(plan=plan_search(model, heuristic), heuristic=heuristic)
    compiled = backend.compile(model, lower(model, backend), request, SearchLimits(None))
    reader = _ReadDomains({variable: compiled.cp_vars[variable] for variable in model.variables})
    solver = compiled.solver
    builder = reader if compiled.probing is None else solver.Compose([compiled.probing, reader])
    solver.NewSearch(builder)
    try:
        reached = solver.NextSolution()
    finally:
        solver.EndSearch()
    return reader.domains if reached else None
