"""What every automata kernel shares: the network's numba types, its walks, the counters.

The layout itself (edges, layers, states) is described by
:class:`~solvers.backends.automata.network.Network`; here are its arrays' numba types,
the compiled walks over them that several passes take, and the places in the counters
array the kernels add to.
"""

from __future__ import annotations

from numba import types

from solvers.backends.automata.kernel_cache import compiled

# Each kernel is compiled for one signature, given with these types, when its module is
# imported (or loaded from the disk cache, see kernel_cache.py). Lazy compilation, as
# before, compiled a kernel again for each literal argument another kernel passes it
# (``propagate`` three times, ``_enqueue_variable`` four): docs/defaults.md has the cost.
INDEX, SMALL, REAL, FLAG = types.int64, types.int8, types.float64, types.boolean
INDICES, SMALLS, FLAGS = types.int64[::1], types.int8[::1], types.boolean[::1]
REALS, REAL_PAIRS, TRANSITIONS = types.float64[::1], types.float64[:, ::1], types.int32[:, ::1]
#: the network's arrays, every exported kernel's first arguments (Network.kernel_arguments)
NETWORK = (INDICES, INDICES, INDICES, INDICES, INDICES, INDICES, TRANSITIONS, FLAGS, INDICES,
           INDICES)

#: ``counters``, the array the propagation and the probing add to: its places
REVISIONS, PROBES, PROBE_FIXED = 0, 1, 2
#: the length of ``counters``
COUNTERS = 3


@compiled(INDEX, INDEX, INDICES, INDICES, INDICES)
def layer_stop(e, c, edge_start, layer_start, final_start):
    """Where the states that edge ``e`` reads from end (the next layer starts)."""
    return layer_start[e + 1] if e + 1 < edge_start[c + 1] else final_start[c]


@compiled(INDICES, INDEX, INDEX, INDICES, INDICES, INDICES, FLAGS)
def mark_constraints(variables, start, stop, var_edge_start, var_edges, edge_constraint,
                     marks):
    """Mark the constraints on ``variables[start:stop]``."""
    for k in range(start, stop):
        v = variables[k]
        for i in range(var_edge_start[v], var_edge_start[v + 1]):
            marks[edge_constraint[var_edges[i]]] = True
