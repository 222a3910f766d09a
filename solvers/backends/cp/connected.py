"""``connected`` on ``pywrapcp``: a propagator written in Python, incremental.

The graph work is in :mod:`.bridge_blocks`, in plain Python: profiling showed that
rebuilding a networkx graph and running ``is_connected`` and ``bridges`` on it at
every wake took over 90% of a 200-island Hashi solve, at about 10 ms a wake. This
module ties that structure to the solver: which events wake it, and how its state
follows the search back up.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from typing import Any

from ortools.constraint_solver import pywrapcp

from solvers.backends.cp.bridge_blocks import BridgeBlocks
from solvers.constraints import Connected
from solvers.variables import IntVar


class ConnectedPropagator(pywrapcp.PyConstraint):
    """``connected`` on the edges that may still carry weight (the possible graph).

    Fails as soon as the possible edges leave some nodes cut off from the rest, and
    forces every bridge of the possible graph to be present (its removal would cut).

    Only an edge's removal (its weight bound to 0) changes the possible graph, and an
    edge bound above 0 is there for good (contracted), so each weight wakes a demon when
    it is bound; a delayed demon then searches again only the blocks that lost edges.
    The blocks' changes go on a Python trail whose length a reversible integer of the
    solver keeps: on entry, a length shorter than the trail means that the search went
    back, and the entries past it are undone.

    Once ``must_stop()`` (the deadline, Ctrl-C), it fails at once: the solver's own
    limit is checked between nodes, not inside the impact-based search's probing at the
    root, where this propagator's work would otherwise run past the limit.
    """

    def __init__(self, solver: pywrapcp.Solver, constraint: Connected, weights: list[Any],
                 must_stop: Callable[[], bool] | None = None) -> None:
        super().__init__(solver)
        # the solver holds this constraint: a strong reference back would make a cycle
        self.solver_ref = weakref.ref(solver)
        self.must_stop = must_stop
        index = {node: position for position, node in enumerate(constraint.nodes)}
        self.blocks = BridgeBlocks(len(index), [(index[u], index[v])
                                                for u, v, _ in constraint.edges])
        self.weights = weights
        # a variable may weigh several edges: each distinct one, and the edges it weighs
        self.distinct: list[Any] = []
        self.edges_of: list[list[int]] = []
        seen: dict[IntVar, int] = {}
        for edge, ((_, _, variable), weight) in enumerate(zip(constraint.edges, weights)):
            if variable not in seen:
                seen[variable] = len(self.distinct)
                self.distinct.append(weight)
                self.edges_of.append([])
            self.edges_of[seen[variable]].append(edge)
        self.trail_length = pywrapcp.RevInteger(0)

    def Post(self) -> None:  # noqa: N802 (OR-tools' name)
        if self.blocks.node_count <= 1:
            return  # one node or none: always connected
        settle = self.DelayedDemon(ConnectedPropagator.settle)
        for position, weight in enumerate(self.distinct):
            weight.WhenBound(self.Demon(ConnectedPropagator.bound, position))
            weight.WhenBound(settle)

    def InitialPropagate(self) -> None:  # noqa: N802 (OR-tools' name)
        """Everything from scratch, on the domains at the root."""
        if self.must_stop is not None and self.must_stop():
            self.solver().Fail()
        if self.blocks.node_count <= 1:
            return
        self.trail_length.SetValue(self.solver(), 0)
        self.force(self.blocks.start([weight.Max() > 0 for weight in self.weights],
                                     [weight.Min() > 0 for weight in self.weights]))

    def catch_up(self) -> BridgeBlocks:
        """The blocks as they are at this node (undoing what the search went back on)."""
        blocks = self.blocks
        length = self.trail_length.Value()
        if len(blocks.trail) > length:
            blocks.undo_to(length)
        return blocks

    def bound(self, position: int) -> None:
        """A weight was bound: at 0, its edges are gone from the possible graph, else
        they are there for good."""
        blocks = self.catch_up()
        length = len(blocks.trail)
        if self.distinct[position].Max() > 0:
            for edge in self.edges_of[position]:
                blocks.join(edge)
        else:
            for edge in self.edges_of[position]:
                if not blocks.remove(edge):  # a bridge: the graph is cut
                    self.solver().Fail()
        if len(blocks.trail) > length:
            self.trail_length.SetValue(self.solver_ref(), len(blocks.trail))

    def settle(self) -> None:
        """Fail on a cut-off node set; make new bridges of the possible graph present."""
        if self.must_stop is not None and self.must_stop():
            self.solver().Fail()
        blocks = self.catch_up()
        if not blocks.pending:
            return
        bridges = blocks.settle()
        self.trail_length.SetValue(self.solver_ref(), len(blocks.trail))
        self.force(bridges)

    def force(self, bridges: list[int] | None) -> None:
        """Fail if the graph came apart (None), else make each bridge present."""
        if bridges is None:
            self.solver().Fail()
            return
        for edge in bridges:
            self.weights[edge].SetMin(1)


def post(solver: pywrapcp.Solver, cp_vars: Mapping[IntVar, Any], constraint: Connected,
         must_stop: Callable[[], bool] | None = None) -> None:
    """``connected`` as :class:`ConnectedPropagator`, failing once ``must_stop()``."""
    solver.Add(ConnectedPropagator(solver, constraint,
                                   [cp_vars[w] for _, _, w in constraint.edges], must_stop))
