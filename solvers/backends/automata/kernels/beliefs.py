"""The belief kernels of the automata backend: sum-product messages, the likeliest choice.

The belief pass is the propagation's forward-backward walk (:mod:`.propagation`) with
weights: each item's message is the weight of the accepted words through each of its
values, given what the other constraints say of the other items. ``most_biased`` then
picks the decision whose belief is furthest from one half.
"""

from __future__ import annotations

from solvers.backends.automata.kernel_cache import compiled
from solvers.backends.automata.kernels.layout import (
    FLAGS,
    INDEX,
    INDICES,
    NETWORK,
    REAL,
    REAL_PAIRS,
    REALS,
    SMALL,
    SMALLS,
    TRANSITIONS,
    layer_stop,
)

#: the smallest message a value still in the domain gets: no value is ruled out by
#: beliefs alone (only propagation rules values out)
FLOOR = 1e-9


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
        for s in range(layer_start[e], layer_stop(e, c, edge_start, layer_start, final_start)):
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
        end = final_end[c] if e + 1 == last else layer_stop(e + 1, c, edge_start, layer_start,
                                                             final_start)
        for s in range(layer_stop(e, c, edge_start, layer_start, final_start), end):
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
        layer_end = layer_stop(e, c, edge_start, layer_start, final_start)
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
