"""The layered automata of a 0/1 model's constraints (:mod:`.unrolling`) packed into flat
arrays for the compiled kernels."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from solvers.backends.automata.unrolling import UNROLLERS, Layered
from solvers.constraints import Constraint
from solvers.variables import IntVar


@dataclass
class Network:
    """The unrolled constraints packed into flat arrays for the compiled kernels.

    An *edge* is one item of one constraint: constraint ``c`` owns edges
    ``edge_start[c]`` to ``edge_start[c + 1]``, and ``edge_var`` is an edge's
    variable. States are numbered across all constraints, layer after layer: edge
    ``e`` reads from the states ``layer_start[e]`` up to the next layer's start
    (``layer_start[e + 1]``, or ``final_start[c]`` for a constraint's last edge); the
    last layer of constraint ``c`` runs from ``final_start[c]`` to ``final_end[c]``.
    ``next_state[s, v]`` is the state after reading ``v`` in ``s`` (-1: rejected);
    ``accepting[s]`` marks the accepting states. ``var_edge_start``/``var_edges`` list
    each variable's edges.
    """

    variables: int
    edge_start: np.ndarray
    edge_var: np.ndarray
    edge_constraint: np.ndarray
    layer_start: np.ndarray
    final_start: np.ndarray
    final_end: np.ndarray
    next_state: np.ndarray
    accepting: np.ndarray
    var_edge_start: np.ndarray
    var_edges: np.ndarray
    domains: np.ndarray  # bit 0: value 0 allowed, bit 1: value 1 allowed

    @property
    def constraints(self) -> int:
        return len(self.edge_start) - 1

    @property
    def states(self) -> int:
        return len(self.accepting)

    def kernel_arguments(self) -> tuple[np.ndarray, ...]:
        """The arrays every kernel takes first, in their order."""
        return (self.edge_start, self.edge_var, self.edge_constraint, self.layer_start,
                self.final_start, self.final_end, self.next_state, self.accepting,
                self.var_edge_start, self.var_edges)


def pack(variables: Sequence[IntVar], automata: Sequence[Layered]) -> Network:
    """The arrays of ``automata`` over ``variables`` (a variable's index is its position)."""
    position = {variable: index for index, variable in enumerate(variables)}
    edge_start, edge_var, edge_constraint, layer_start = [0], [], [], []
    final_start, final_end = [], []
    total = sum(automaton.states for automaton in automata)
    next_state = np.full((total, 2), -1, dtype=np.int32)
    accepting = np.zeros(total, dtype=np.bool_)
    offset = 0
    for number, automaton in enumerate(automata):
        for j, (item, layer) in enumerate(zip(automaton.items, automaton.layers)):
            edge_var.append(position[item])
            edge_constraint.append(number)
            layer_start.append(offset + automaton.bounds[j])
            for source, value, target in layer:
                next_state[offset + source, value] = offset + target
        edge_start.append(len(edge_var))
        final_start.append(offset + automaton.bounds[-2])
        final_end.append(offset + automaton.bounds[-1])
        accepting[[offset + state for state in automaton.accepting]] = True
        offset += automaton.states
    by_variable: list[list[int]] = [[] for _ in variables]
    for edge, variable in enumerate(edge_var):
        by_variable[variable].append(edge)
    var_edge_start = np.cumsum([0] + [len(edges) for edges in by_variable])
    domains = np.array([(1 if 0 in v.domain else 0) | (2 if 1 in v.domain else 0)
                        for v in variables], dtype=np.int8)
    return Network(
        len(variables), _int(edge_start), _int(edge_var), _int(edge_constraint),
        _int(layer_start), _int(final_start), _int(final_end), next_state, accepting,
        _int(var_edge_start), _int([e for edges in by_variable for e in edges]), domains)


def _int(values: Sequence[int] | np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


def compile_network(variables: Sequence[IntVar], constraints: Sequence[Constraint]) -> Network:
    """Unroll every constraint (each of a type in ``UNROLLERS``) and pack them."""
    return pack(variables, [UNROLLERS[type(c)](c) for c in constraints])
