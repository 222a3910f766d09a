"""Which decision variables a probe must look at again after others change.

Probing at every node is costly (two probes per open Boolean, and passes to a
fixpoint), so after the first pass only the decision variables that a change can
reach are probed again: those sharing a constraint with a newly bound variable,
directly or through auxiliary (non-decision) variables, which belong to no one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from solvers.constraints import Constraint
from solvers.variables import IntVar


class ProbeGroups:
    """Decision-variable indices grouped by the constraints (and auxiliaries) linking them.

    >>> from solvers import Model, all_different
    >>> model = Model("m")
    >>> a, b, c, d = (model.int_var(0, 2, name) for name in "abcd")
    >>> groups = ProbeGroups([all_different([a, b]), all_different([c, d])], [a, b, c, d])
    >>> sorted(groups.reached_from([0]))
    [0, 1]
    """

    def __init__(self, constraints: Iterable[Constraint], decision: Sequence[IntVar]) -> None:
        import networkx as nx  # probing is rare: a solve without it never pays for networkx

        index = {variable: i for i, variable in enumerate(decision)}
        graph = nx.Graph()
        scopes = []
        for number, constraint in enumerate(constraints):
            scope = constraint.variables()
            scopes.append(scope)
            graph.add_node(number)
            graph.add_edges_from((number, variable) for variable in scope
                                 if variable not in index)
        self.groups: list[frozenset[int]] = []
        self.groups_of: list[list[int]] = [[] for _ in decision]
        for component in nx.connected_components(graph):
            members = frozenset(index[variable] for number in component
                                if isinstance(number, int) for variable in scopes[number]
                                if variable in index)
            if members:
                for member in members:
                    self.groups_of[member].append(len(self.groups))
                self.groups.append(members)

    def reached_from(self, changed: Iterable[int]) -> set[int]:
        """The decision variables sharing a group with any of ``changed``."""
        group_ids = {group for index in changed for group in self.groups_of[index]}
        return set().union(*(self.groups[group] for group in group_ids))
