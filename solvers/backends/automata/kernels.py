"""The compiled kernels of the automata backend (numba): propagation and probing.

Each kernel takes the network's arrays first (:meth:`Network.kernel_arguments`),
then the search state. A domain is a bit set: bit 0 for value 0, bit 1 for value 1.
``counters`` is shared by all kernels: ``[revisions, probes, probe_fixed]``.

Revising a constraint is one forward-backward pass over its layered automaton: the
values left on a supported path are exactly the values with a support, so one
revision makes the constraint domain-consistent. The belief pass, the same walk with
weights, is in :mod:`~solvers.backends.automata.belief_kernels`.
"""

from __future__ import annotations

from numba import types

from solvers.backends.automata.kernel_cache import compiled

# Each kernel is compiled for one signature, given here, when this module is imported
# (or loaded from the disk cache, see kernel_cache.py). Lazy compilation, as before,
# compiled a kernel again for each literal argument another kernel passes it
# (``propagate`` three times, ``_enqueue_variable`` four): 5.5 s cold against 2.7 s.
INDEX, SMALL, REAL, FLAG = types.int64, types.int8, types.float64, types.boolean
INDICES, SMALLS, FLAGS = types.int64[::1], types.int8[::1], types.boolean[::1]
REALS, REAL_PAIRS, TRANSITIONS = types.float64[::1], types.float64[:, ::1], types.int32[:, ::1]
#: the network's arrays, every exported kernel's first arguments (Network.kernel_arguments)
NETWORK = (INDICES, INDICES, INDICES, INDICES, INDICES, INDICES, TRANSITIONS, FLAGS, INDICES,
           INDICES)
#: the work arrays of :func:`propagate`: forward, backward, support, in_queue, queue,
#: changed, changed_count, counters
PROPAGATION = (FLAGS, FLAGS, SMALLS, FLAGS, INDICES, INDICES, INDICES, INDICES)

REVISIONS, PROBES, PROBE_FIXED = 0, 1, 2
DONE, FAILED, PAUSED = 0, 1, 2


@compiled(INDEX, INDEX, INDICES, INDICES, INDICES)
def layer_stop(e, c, edge_start, layer_start, final_start):
    """Where the states that edge ``e`` reads from end (the next layer starts)."""
    return layer_start[e + 1] if e + 1 < edge_start[c + 1] else final_start[c]


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


@compiled(INDICES, INDEX, INDEX, INDICES, INDICES, INDICES, FLAGS)
def mark_constraints(variables, start, stop, var_edge_start, var_edges, edge_constraint,
                     marks):
    """Mark the constraints on ``variables[start:stop]``."""
    for k in range(start, stop):
        v = variables[k]
        for i in range(var_edge_start[v], var_edge_start[v + 1]):
            marks[edge_constraint[var_edges[i]]] = True


@compiled(*NETWORK, SMALLS, INDICES, FLAGS, FLAGS, FLAGS, INDICES, INDEX, FLAG, FLAGS, FLAGS,
          SMALLS, FLAGS, INDICES, INDICES, INDICES, SMALLS, INDICES, INDICES, SMALLS, INDICES,
          INDICES, INDICES, SMALLS, INDICES)
def probe(edge_start, edge_var, edge_constraint, layer_start, final_start, final_end,
          next_state, accepting, var_edge_start, var_edges, dom, decision, is_decision, dirty,
          mark, place, budget, merge, forward, backward, support, in_queue, queue, changed,
          changed_count, trial, trial_changed, trial_count, other, other_changed, other_count,
          seeds, known, counters):
    """Singleton consistency (with merging, when ``merge``) on the open decision variables of the
    constraints marked ``dirty``, pass after pass until no pass changes anything.

    Each probe tries one value of one variable on a copy of ``dom``. A value whose
    propagation fails is removed; with ``merge``, the decision variables both values
    fix alike are fixed too. Without ``merge``, a value that an earlier surviving probe of
    this domain reached (``known``, reset whenever ``dom`` shrinks) is not tried: that
    probe's fixpoint lies within this value's, so its propagation cannot fail (Faase: a
    sixth fewer probes, the same choices). Resumable: after about ``budget`` probes it
    returns PAUSED with its place kept in ``place[0]`` (-1: between passes) and ``mark``;
    then DONE or FAILED. Changes to ``dom`` are appended to ``changed`` as in
    :func:`propagate`.
    ``trial`` and ``other`` (the two probes' domains, with their change lists) and
    ``seeds`` are the caller's work arrays, kept from call to call.
    """
    size = len(decision)
    done = 0
    if place[0] < 0:  # a new probing, not one resumed
        for k in range(len(dom)):
            known[k] = 0
    while True:
        if place[0] < 0:  # a new pass: the decision variables the changes can reach
            anything = False
            for i in range(size):
                v = decision[i]
                mark[i] = False
                if dom[v] == 3:
                    for k in range(var_edge_start[v], var_edge_start[v + 1]):
                        if dirty[edge_constraint[var_edges[k]]]:
                            mark[i] = True
                            anything = True
                            break
            for c in range(len(dirty)):
                dirty[c] = False
            if not anything:
                return DONE
            place[0] = 0
        while place[0] < size:
            if done >= budget:
                return PAUSED
            i = place[0]
            place[0] += 1
            v = decision[i]
            if not mark[i] or dom[v] != 3:
                continue
            alive = 0
            for chosen in range(2):
                if not merge and known[v] & (1 << chosen):
                    alive |= 1 << chosen  # seen in a state a probe reached: it survives
                    continue
                work = trial if chosen == 0 else other
                work_changed = trial_changed if chosen == 0 else other_changed
                work_count = trial_count if chosen == 0 else other_count
                for k in range(len(dom)):  # a slice copy costs 1.3 s to compile
                    work[k] = dom[k]
                work[v] = 1 << chosen
                work_count[0] = 0
                seeds[0] = v
                counters[PROBES] += 1
                done += 1
                if propagate(edge_start, edge_var, edge_constraint, layer_start, final_start,
                             final_end, next_state, accepting, var_edge_start, var_edges,
                             work, seeds, 1, False, forward, backward, support, in_queue, queue,
                             work_changed, work_count, counters):
                    alive |= 1 << chosen
                    if not merge:
                        for k in range(work_count[0]):  # each fixed, 0/1 as they are
                            known[work_changed[k]] |= work[work_changed[k]]
            start = changed_count[0]
            count = 0
            if alive == 0:
                place[0] = -1
                return FAILED
            if alive != 3:  # one value refuted: the other is forced
                dom[v] = alive
                changed[changed_count[0]] = v
                changed_count[0] += 1
                counters[PROBE_FIXED] += 1
                seeds[0] = v
                count = 1
            elif merge:  # both alive: fix what both probes fixed alike
                for k in range(trial_count[0]):
                    w = trial_changed[k]
                    if (is_decision[w] and dom[w] == 3 and trial[w] != 3
                            and trial[w] == other[w]):
                        dom[w] = trial[w]
                        changed[changed_count[0]] = w
                        changed_count[0] += 1
                        counters[PROBE_FIXED] += 1
                        seeds[count] = w
                        count += 1
            if count:
                for k in range(len(dom)):  # what the probes saw held only in the old dom
                    known[k] = 0
                ok = propagate(edge_start, edge_var, edge_constraint, layer_start, final_start,
                               final_end, next_state, accepting, var_edge_start, var_edges,
                               dom, seeds, count, False, forward, backward, support, in_queue,
                               queue, changed, changed_count, counters)
                mark_constraints(changed, start, changed_count[0], var_edge_start, var_edges,
                                 edge_constraint, dirty)
                if not ok:
                    place[0] = -1
                    return FAILED
        place[0] = -1
