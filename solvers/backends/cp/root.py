"""The domains left at the root of the classic CP solver's search, after propagation alone.

Studies of propagation strength (how much does a redundant constraint, or probing,
decide before any choice is made?) need the root domains, not a solution. The model is
compiled exactly as for a search, so the domains are those every search of that model
starts from; :func:`solvers.solving.propagate_root` is the way in.
"""

from __future__ import annotations

from typing import Any

from ortools.constraint_solver import pywrapcp

from solvers.backends.cp.probing_search import ProbingSearch
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


def read_root(solver: pywrapcp.Solver, probing: ProbingSearch | None,
              variables: dict[IntVar, Any]) -> Domains | None:
    """The domains of ``variables`` (model variable: solver variable) once the root has
    propagated, after ``probing`` has probed it when given; None when the root fails."""
    reader = _ReadDomains(variables)
    builder = reader if probing is None else solver.Compose([probing, reader])
    solver.NewSearch(builder)
    try:
        reached = solver.NextSolution()
    finally:
        solver.EndSearch()
    return reader.domains if reached else None
