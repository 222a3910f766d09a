"""The compiled kernels of the automata backend (numba): propagation, probing, beliefs.

Each kernel takes the network's arrays first (:meth:`Network.kernel_arguments`),
then the search state. A domain is a bit set: bit 0 for value 0, bit 1 for value 1.
``counters`` is shared by all kernels: ``[revisions, probes, probe_fixed]``.

Revising a constraint is one forward-backward pass over its layered automaton: the
values left on a supported path are exactly the values with a support, so one
revision makes the constraint domain-consistent. The belief pass is the same walk
with weights: each item's message is the weight of the accepted words through each
of its values, given what the other constraints say of the other items.
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
#: the smallest message a value still in the domain gets: no value is ruled out by
#: beliefs alone (only propagation rules values out)
FLOOR = 1e-9


@compiled(INDEX, INDEX, INDICES, INDICES, INDICES)
def _layer_end(e, c, edge_start, layer_start, final_start):
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
        for s in range(layer_start[e], _layer_end(e, c, edge_start, layer_start, final_start)):
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
        for s in range(layer_start[e], _layer_end(e, c, edge_start, layer_start, final_start)):
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
          INDICES, INDICES, INDICES)
def probe(edge_start, edge_var, edge_constraint, layer_start, final_start, final_end,
          next_state, accepting, var_edge_start, var_edges, dom, decision, is_decision, dirty,
          mark, place, budget, merge, forward, backward, support, in_queue, queue, changed,
          changed_count, trial, trial_changed, trial_count, other, other_changed, other_count,
          seeds, counters):
    """Singleton consistency (with merging, when ``merge``) on the open decision variables of the
    constraints marked ``dirty``, pass after pass until no pass changes anything.

    Each probe tries one value of one variable on a copy of ``dom``. A value whose
    propagation fails is removed; with ``merge``, the decision variables both values
    fix alike are fixed too. Resumable: after about ``budget`` probes it returns PAUSED with
    its place kept in ``place[0]`` (-1: between passes) and ``mark``; then DONE or
    FAILED. Changes to ``dom`` are appended to ``changed`` as in :func:`propagate`.
    ``trial`` and ``other`` (the two probes' domains, with their change lists) and
    ``seeds`` are the caller's work arrays, kept from call to call.
    """
    size = len(decision)
    done = 0
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
                work = trial if chosen == 0 else other
                for k in range(len(dom)):  # a slice copy costs 1.3 s to compile
                    work[k] = dom[k]
                work[v] = 1 << chosen
                if chosen == 0:
                    trial_count[0] = 0
                else:
                    other_count[0] = 0
                seeds[0] = v
                counters[PROBES] += 1
                done += 1
                if propagate(edge_start, edge_var, edge_constraint, layer_start, final_start,
                             final_end, next_state, accepting, var_edge_start, var_edges,
                             work, seeds, 1, False, forward, backward, support, in_queue, queue,
                             trial_changed if chosen == 0 else other_changed,
                             trial_count if chosen == 0 else other_count, counters):
                    alive |= 1 << chosen
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


@compiled(INDEX, INDEX, INDICES, INDICES, REAL_PAIRS, SMALL)
def _incoming(e, v, var_edge_start, var_edges, messages, d):
    """What the variable's other constraints say of its two values (normalized)."""
    q0 = 1.0
    q1 = 1.0
    for k in range(var_edge_start[v], var_edge_start[v + 1]):
        other = var_edges[k]
        if other != e:
            q0 *= messages[other, 0]
            q1 *= messages[other, 1]
            total = q0 + q1
            if total > 0.0:
                q0 /= total
                q1 /= total
    q0 = max(q0, FLOOR) if d & 1 else 0.0
    q1 = max(q1, FLOOR) if d & 2 else 0.0
    return q0, q1


@compiled(INDEX, INDICES, INDICES, INDICES, INDICES, INDICES, TRANSITIONS, FLAGS, INDICES,
          INDICES, SMALLS, REAL_PAIRS, REALS, REALS, REAL_PAIRS, REALS, REAL_PAIRS)
def belief_messages(c, edge_start, edge_var, layer_start, final_start, final_end, next_state,
                    accepting, var_edge_start, var_edges, dom, messages, alpha, beta,
                    incoming, scale, fresh):
    """Sum-product messages of constraint ``c`` to its items, into ``fresh[i]``.

    Forward and backward weights are rescaled layer by layer (``scale``), so long
    constraints do not underflow. False when no weighted path is left.
    """
    first, last = edge_start[c], edge_start[c + 1]
    start = layer_start[first] if last > first else final_start[c]
    for s in range(start, final_end[c]):
        alpha[s] = 0.0
    alpha[start] = 1.0
    for e in range(first, last):
        i = e - first
        v = edge_var[e]
        q0, q1 = _incoming(e, v, var_edge_start, var_edges, messages, dom[v])
        incoming[i, 0] = q0
        incoming[i, 1] = q1
        total = 0.0
        for s in range(layer_start[e], _layer_end(e, c, edge_start, layer_start, final_start)):
            a = alpha[s]
            if a > 0.0:
                t = next_state[s, 0]
                if t >= 0 and q0 > 0.0:
                    alpha[t] += a * q0
                    total += a * q0
                t = next_state[s, 1]
                if t >= 0 and q1 > 0.0:
                    alpha[t] += a * q1
                    total += a * q1
        if total <= 0.0:
            return False
        scale[i] = 1.0 / total
        end = final_end[c] if e + 1 == last else _layer_end(e + 1, c, edge_start, layer_start,
                                                             final_start)
        for s in range(_layer_end(e, c, edge_start, layer_start, final_start), end):
            alpha[s] *= scale[i]
    ends = 0
    for s in range(final_start[c], final_end[c]):
        beta[s] = 1.0 if accepting[s] and alpha[s] > 0.0 else 0.0
        ends += beta[s] > 0.0
    if ends == 0:
        return False
    for e in range(last - 1, first - 1, -1):
        i = e - first
        q0 = incoming[i, 0]
        q1 = incoming[i, 1]
        out0 = 0.0
        out1 = 0.0
        total = 0.0
        layer_end = _layer_end(e, c, edge_start, layer_start, final_start)
        for s in range(layer_start[e], layer_end):
            b0 = 0.0
            b1 = 0.0
            t = next_state[s, 0]
            if t >= 0:
                b0 = beta[t]
            t = next_state[s, 1]
            if t >= 0:
                b1 = beta[t]
            a = alpha[s]
            out0 += a * b0
            out1 += a * b1
            beta[s] = b0 * q0 + b1 * q1
            total += beta[s]
        mass = out0 + out1
        if mass <= 0.0 or total <= 0.0:
            return False
        for s in range(layer_start[e], layer_end):
            beta[s] /= total
        d = dom[edge_var[e]]
        fresh[i, 0] = max(out0 / mass, FLOOR) if d & 1 else 0.0
        fresh[i, 1] = max(out1 / mass, FLOOR) if d & 2 else 0.0
    return True


@compiled(*NETWORK, SMALLS, REAL_PAIRS, FLAGS, INDEX, REAL, REALS, REALS, REAL_PAIRS, REALS,
          REAL_PAIRS)
def beliefs(edge_start, edge_var, edge_constraint, layer_start, final_start, final_end,
            next_state, accepting, var_edge_start, var_edges, dom, messages, dirty,
            rounds, tolerance, alpha, beta, incoming, scale, fresh):
    """Residual belief propagation: recompute the constraints marked ``dirty``; one whose
    message to a variable moves by more than ``tolerance`` marks that variable's other
    constraints. At most ``rounds`` rounds; returns the constraints recomputed."""
    constraints = len(edge_start) - 1
    evaluations = 0
    for _ in range(rounds):
        anything = False
        for c in range(constraints):
            if not dirty[c]:
                continue
            anything = True
            dirty[c] = False
            evaluations += 1
            if not belief_messages(c, edge_start, edge_var, layer_start, final_start,
                                   final_end, next_state, accepting, var_edge_start, var_edges,
                                   dom,
                                   messages, alpha, beta, incoming, scale, fresh):
                continue  # numerically empty: keep the old messages
            first = edge_start[c]
            for e in range(first, edge_start[c + 1]):
                i = e - first
                if abs(messages[e, 1] - fresh[i, 1]) > tolerance:
                    v = edge_var[e]
                    for k in range(var_edge_start[v], var_edge_start[v + 1]):
                        other = edge_constraint[var_edges[k]]
                        if other != c:
                            dirty[other] = True
                messages[e, 0] = fresh[i, 0]
                messages[e, 1] = fresh[i, 1]
        if not anything:
            break
    return evaluations


@compiled(INDICES, SMALLS, REAL_PAIRS, INDICES, INDICES)
def most_biased(decision, dom, messages, var_edge_start, var_edges):
    """The open decision variable (its position in ``decision``) whose belief is
    furthest from one half, and its likelier value; (-1, 0) when none is open.
    Ties go to the earlier variable."""
    best = -1.0
    chosen = -1
    chosen_value = 0
    for i in range(len(decision)):
        v = decision[i]
        if dom[v] != 3:
            continue
        p0 = 1.0
        p1 = 1.0
        for k in range(var_edge_start[v], var_edge_start[v + 1]):
            p0 *= messages[var_edges[k], 0]
            p1 *= messages[var_edges[k], 1]
            total = p0 + p1
            if total > 0.0:
                p0 /= total
                p1 /= total
        total = p0 + p1
        belief = p1 / total if total > 0.0 else 0.5
        bias = abs(belief - 0.5)
        if bias > best:
            best = bias
            chosen = i
            chosen_value = 1 if belief >= 0.5 else 0
    return chosen, chosen_value
