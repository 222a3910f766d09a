"""How each of our constraints is posted on ``pywrapcp``, one poster per constraint type.

``connected`` has no counterpart in the solver: it is a propagator written in Python
(:mod:`.connected`). This module does not import OR-tools itself (the solver it posts
on comes in), so that naming what ``cp`` can post costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

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
from solvers.variables import IntOrVar, IntVar

if TYPE_CHECKING:
    from ortools.constraint_solver import pywrapcp

CpVars = dict[IntVar, Any]


def post_connected(solver: pywrapcp.Solver, cp_vars: CpVars, constraint: Connected,
                   must_stop: Callable[[], bool] | None = None) -> None:
    """``connected`` as a Python propagator, failing once ``must_stop()``."""
    from solvers.backends.cp.connected import post  # the graph propagator: Hashi only

    post(solver, cp_vars, constraint, must_stop)


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
    Connected: lambda s, m, c: post_connected(s, m, c),
}
