"""``connected`` on ``pywrapcp``: a propagator written in Python, with networkx."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ortools.constraint_solver import pywrapcp

from solvers.backends.cp.posting import CpVars
from solvers.constraints import Connected


class ConnectedPropagator(pywrapcp.PyConstraint):
    """``connected`` in Python with networkx, on the edges that may still carry weight.

    Fails as soon as the possible edges leave some nodes cut off from the rest, and
    forces every bridge of the possible graph to be present (its removal would cut).
    Once ``must_stop()`` (the deadline, Ctrl-C), it fails at once: the solver's own
    limit is checked between nodes, not inside the impact-based search's probing at the
    root, where this propagator's networkx work would otherwise run past the limit.
    """

    def __init__(self, solver: pywrapcp.Solver, constraint: Connected, weights: list[Any],
                 must_stop: Callable[[], bool] | None = None) -> None:
        super().__init__(solver)
        self.constraint = constraint
        self.weights = weights
        self.must_stop = must_stop

    def Post(self) -> None:  # noqa: N802 (OR-tools' name)
        demon = self.DelayedDemon(ConnectedPropagator.propagate)
        for weight in self.weights:
            weight.WhenRange(demon)

    def InitialPropagate(self) -> None:  # noqa: N802 (OR-tools' name)
        self.propagate()

    def propagate(self) -> None:
        """Fail on a cut-off node set; make bridges of the possible graph present."""
        if self.must_stop is not None and self.must_stop():
            self.solver().Fail()
        nodes = self.constraint.nodes
        if len(nodes) <= 1:
            return
        import networkx as nx  # loaded by the first Hashi solve, not by every cp solve

        possible = [weight.Max() > 0 for weight in self.weights]
        graph = self.constraint.graph(possible)
        if not nx.is_connected(graph):
            self.solver().Fail()
        bridges = set(nx.bridges(graph))
        for (u, v, _), weight, present in zip(self.constraint.edges, self.weights, possible):
            if present and ((u, v) in bridges or (v, u) in bridges):
                weight.SetMin(1)


def post(solver: pywrapcp.Solver, cp_vars: CpVars, constraint: Connected,
         must_stop: Callable[[], bool] | None = None) -> None:
    """``connected`` as :class:`ConnectedPropagator`, failing once ``must_stop()``."""
    solver.Add(ConnectedPropagator(solver, constraint,
                                   [cp_vars[w] for _, _, w in constraint.edges], must_stop))
