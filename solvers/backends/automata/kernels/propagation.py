"""The propagation kernels of the automata backend: constraints revised to a fixpoint.

Revising a constraint is one forward-backward pass over its layered automaton: the
values left on a supported path are exactly the values with a support, so one
revision makes the constraint domain-consistent. :func:`propagate` revises, from the
variables that changed, every constraint they wake until none narrows a domain.
"""

from __future__ import annotations

from solvers.backends.automata.kernel_cache import compiled
from solvers.backends.automata.kernels.layout import (
    FLAG,
    FLAGS,
    INDEX,
    INDICES,
    NETWORK,
    REVISIONS,
    SMALLS,
    TRANSITIONS,
    layer_stop,
)

#: the work arrays of :func:`propagate`: forward, backward, support, in_queue, queue,
#: changed, changed_count, counters
PROPAGATION = (FLAGS, FLAGS, SMALLS, FLAGS, INDICES, INDICES, INDICES, INDICES)


@compiled(INDEX, INDICES, INDICES, INDICES, INDICES, INDICES, TRANSITIONS, FLAGS, SMALLS, FLAGS,
          FLAGS, SMALLS)
def revise(c, edge_start, edge_var, layer_start, final_start, final_end, next_state,
           accepting, dom, forward, backward, support):
    """Domain-consistency of constraint ``c``: ``support[i]`` gets the values of its
    i-th item that lie on an accepted path. False when no path is left."""
    first, last = edge_start[c], edge_start[c + 1]
    start = layer_start[first] if last > first else final_start[c]
    for s in range(start, final_end[c]):
        forward[s] = False
    forward[start] = True
    for e in range(first, last):
        d = dom[edge_var[e]]
        for s in range(layer_start[e], layer_stop(e, c, edge_start, layer_start, final_start)):
            if forward[s]:
                if d & 1 and next_state[s, 0] >= 0:
                    forward[next_state[s, 0]] = True
                if d & 2 and next_state[s, 1] >= 0:
                    forward[next_state[s, 1]] = True
    found = False
    for s in range(final_start[c], final_end[c]):
        backward[s] = forward[s] and accepting[s]
        found |= backward[s]
    if not found:
        return False
    for e in range(last - 1, first - 1, -1):
        d = dom[edge_var[e]]
        bits = 0
        for s in range(layer_start[e], layer_stop(e, c, edge_start, layer_start, final_start)):
            alive = False
            if forward[s]:
                t = next_state[s, 0]
                if d & 1 and t >= 0 and backward[t]:
                    alive = True
                    bits |= 1
                t = next_state[s, 1]
                if d & 2 and t >= 0 and backward[t]:
                    alive = True
                    bits |= 2
            backward[s] = alive
        support[e - first] = bits
    return True


@compiled(INDEX, INDICES, INDICES, INDICES, INDEX, FLAGS, INDICES, INDEX)
def _enqueue_variable(v, var_edge_start, var_edges, edge_constraint, skip, in_queue, queue,
                      tail):
    for k in range(var_edge_start[v], var_edge_start[v + 1]):
        c = edge_constraint[var_edges[k]]
        if c != skip and not in_queue[c]:
            in_queue[c] = True
            queue[tail % len(queue)] = c
            tail += 1
    return tail


@compiled(*NETWORK, SMALLS, INDICES, INDEX, FLAG, *PROPAGATION)
def propagate(edge_start, edge_var, edge_constraint, layer_start, final_start, final_end,
              next_state, accepting, var_edge_start, var_edges, dom, seeds, seed_count,
              every, forward, backward, support, in_queue, queue, changed, changed_count,
              counters):
    """Revise to a fixpoint the constraints on the first ``seed_count`` variables of
    ``seeds`` (all constraints when ``every``). Each variable whose domain shrinks is
    appended to ``changed`` (its count in ``changed_count[0]``). False on a wipe-out."""
    constraints = len(edge_start) - 1
    for c in range(constraints):
        in_queue[c] = False
    head = 0
    tail = 0
    if every:
        for c in range(constraints):
            in_queue[c] = True
            queue[tail] = c
            tail += 1
    else:
        for k in range(seed_count):
            tail = _enqueue_variable(seeds[k], var_edge_start, var_edges, edge_constraint, -1,
                                     in_queue, queue, tail)
    size = len(queue)
    while head < tail:
        c = queue[head % size]
        head += 1
        in_queue[c] = False
        counters[REVISIONS] += 1
        if not revise(c, edge_start, edge_var, layer_start, final_start, final_end,
                      next_state, accepting, dom, forward, backward, support):
            return False
        for e in range(edge_start[c], edge_start[c + 1]):
            v = edge_var[e]
            narrowed = dom[v] & support[e - edge_start[c]]
            if narrowed == dom[v]:
                continue
            if narrowed == 0:  # a variable read twice by one constraint
                return False
            dom[v] = narrowed
            changed[changed_count[0]] = v
            changed_count[0] += 1
            tail = _enqueue_variable(v, var_edge_start, var_edges, edge_constraint, c,
                                     in_queue, queue, tail)
    return True
