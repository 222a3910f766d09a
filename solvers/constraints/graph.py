"""Graph constraints: ``connected``, for puzzles whose solution must be one piece."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from puzzlelab.errors import ModelError
from solvers.constraints.arithmetic import Linear
from solvers.constraints.base import Constraint
from solvers.variables import Assignment, IntVar

if TYPE_CHECKING:  # networkx is imported where a graph is built: a solve without
    import networkx as nx  # a connected constraint never pays for it


@dataclass(frozen=True, eq=False)
class Connected(Constraint):
    """The graph on ``nodes`` whose edges are those with a positive weight is connected.

    ``edges`` are ``(u, v, weight)`` with ``weight`` a variable of non-negative domain
    (a Hashiwokakero bridge count, say). Nodes are any hashable labels.
    """

    nodes: tuple[Hashable, ...]
    edges: tuple[tuple[Hashable, Hashable, IntVar], ...]

    def __post_init__(self) -> None:
        known = set(self.nodes)
        for u, v, weight in self.edges:
            if u not in known or v not in known:
                raise ModelError(f"connected: edge ({u}, {v}) names a node not in the graph")
            if weight.lb < 0:
                raise ModelError(f"connected: weight {weight} may be negative")

    @classmethod
    def load(cls) -> None:
        import networkx  # noqa: F401 (its first import is a build's cost, not a search's)

    def variables(self) -> tuple[IntVar, ...]:
        return tuple(dict.fromkeys(weight for _, _, weight in self.edges))

    def graph(self, edge_present: list[bool]) -> nx.Graph:
        """The graph of the nodes and the edges flagged present."""
        import networkx as nx

        graph = nx.Graph()
        graph.add_nodes_from(self.nodes)
        graph.add_edges_from((u, v) for (u, v, _), present in zip(self.edges, edge_present)
                             if present)
        return graph

    def holds(self, assignment: Assignment) -> bool:
        if len(self.nodes) <= 1:
            return True
        present = [assignment[weight] > 0 for _, _, weight in self.edges]
        import networkx as nx

        return nx.is_connected(self.graph(present))

    def cuts(self, assignment: Assignment) -> list[Constraint]:
        """For a disconnected ``assignment``, one cut per connected component ``S``:
        at least one edge with exactly one end in ``S`` has a positive weight.

        Every connected solution satisfies each cut; ``assignment`` breaks them all.
        Two components that the same edges leave (always so with two) give one cut. A
        component that no edge leaves gives an empty sum ``>= 1``: a constraint on no
        variable that never holds, so the model becomes unsatisfiable, as it is.

        >>> from solvers.model import Model
        >>> model = Model("path")
        >>> ab, bc = model.bool_var("ab"), model.bool_var("bc")
        >>> graph = Connected(("a", "b", "c"), (("a", "b", ab), ("b", "c", bc)))
        >>> [[v.name for _, v in cut.terms] for cut in graph.cuts({ab: 1, bc: 0})]
        [['bc']]
        >>> [[v.name for _, v in cut.terms] for cut in graph.cuts({ab: 0, bc: 0})]
        [['ab'], ['ab', 'bc'], ['bc']]
        """
        if self.holds(assignment):
            return []
        import networkx as nx

        present = [assignment[weight] > 0 for _, _, weight in self.edges]
        cuts: dict[tuple[tuple[int, IntVar], ...], Constraint] = {}
        for component in nx.connected_components(self.graph(present)):
            leaving: dict[IntVar, int] = {}
            for u, v, weight in self.edges:
                if (u in component) != (v in component):
                    leaving[weight] = leaving.get(weight, 0) + 1
            terms = tuple((count, weight) for weight, count in leaving.items())
            cuts.setdefault(terms, Linear(terms, ">=", 1))
        return list(cuts.values())


@dataclass(frozen=True, eq=False)
class ConnectedByFlow(Connected):
    """``connected``, always posted as its single-commodity flow decomposition (no
    backend takes it natively), so a model can compare the flow with a native
    propagator on the same solver. The flow's variables are the lowering's, not the
    model's: two flows of one layout are one solution."""
