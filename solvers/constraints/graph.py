"""Graph constraints: ``connected``, for puzzles whose solution must be one piece."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import cached_property

from puzzlelab.errors import ModelError
from solvers.constraints.arithmetic import Linear
from solvers.constraints.base import Constraint
from solvers.variables import Assignment, IntVar


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

    def variables(self) -> tuple[IntVar, ...]:
        return self._weights

    @cached_property
    def _weights(self) -> tuple[IntVar, ...]:
        """The weights, each once (asked for at every node of a search that filters)."""
        return tuple(dict.fromkeys(weight for _, _, weight in self.edges))

    @cached_property
    def _ends(self) -> list[tuple[int, int, IntVar]]:
        """Each edge as the positions of its two nodes in ``nodes``, and its weight."""
        position = {node: index for index, node in enumerate(self.nodes)}
        return [(position[u], position[v], weight) for u, v, weight in self.edges]

    def components(self, assignment: Assignment) -> list[int]:
        """For each node (by position), the smallest position in its component of the
        graph of the edges of positive weight (a union-find, in plain Python: a solution
        of a 400-island Hashi is checked in a fraction of a millisecond)."""
        parent = list(range(len(self.nodes)))
        for u, v, weight in self._ends:
            if assignment[weight] > 0:
                while parent[u] != u:
                    parent[u] = u = parent[parent[u]]
                while parent[v] != v:
                    parent[v] = v = parent[parent[v]]
                if u != v:
                    parent[max(u, v)] = min(u, v)
        for node, above in enumerate(parent):  # roots are smallest: one pass in order
            parent[node] = parent[above]
        return parent

    def holds(self, assignment: Assignment) -> bool:
        return not any(self.components(assignment))

    def cuts(self, assignment: Assignment) -> list[Constraint]:
        """For a disconnected ``assignment``, one cut per connected component ``S``:
        at least one edge with exactly one end in ``S`` has a positive weight.

        Every connected solution satisfies each cut; ``assignment`` breaks them all.
        Two components that the same edges leave (always so with two) give one cut. A
        component that no edge leaves gives an empty sum ``>= 1``: a constraint on no
        variable that never holds, so the model becomes unsatisfiable, as it is. The
        cuts come in the order of each component's first node.

        >>> from solvers.model import Model
        >>> model = Model("path")
        >>> ab, bc = model.bool_var("ab"), model.bool_var("bc")
        >>> graph = Connected(("a", "b", "c"), (("a", "b", ab), ("b", "c", bc)))
        >>> [[v.name for _, v in cut.terms] for cut in graph.cuts({ab: 1, bc: 0})]
        [['bc']]
        >>> [[v.name for _, v in cut.terms] for cut in graph.cuts({ab: 0, bc: 0})]
        [['ab'], ['ab', 'bc'], ['bc']]
        """
        component = self.components(assignment)
        if not any(component):
            return []
        leaving: dict[int, dict[IntVar, int]] = {root: {} for root in component}
        for u, v, weight in self._ends:  # an edge between two components is absent
            if component[u] != component[v]:
                for end in (component[u], component[v]):
                    leaving[end][weight] = leaving[end].get(weight, 0) + 1
        cuts: dict[tuple[tuple[int, IntVar], ...], Constraint] = {}
        for weights in leaving.values():
            terms = tuple((count, weight) for weight, count in weights.items())
            cuts.setdefault(terms, Linear(terms, ">=", 1))
        return list(cuts.values())


@dataclass(frozen=True, eq=False)
class ConnectedByFlow(Connected):
    """``connected``, always posted as its single-commodity flow decomposition (no
    backend takes it natively), so a model can compare the flow with a native
    propagator on the same solver. The flow's variables are the lowering's, not the
    model's: two flows of one layout are one solution."""
