"""The probing kernel of the automata backend: singleton consistency over propagation.

Each probe tries one value of one open decision variable on a copy of the domains and
propagates it (:mod:`.propagation`); a value whose propagation fails is removed. Pass
after pass, only the variables on the constraints the last pass changed are probed again.
"""

from __future__ import annotations

from solvers.backends.automata.kernel_cache import compiled
from solvers.backends.automata.kernels.layout import (
    FLAG,
    FLAGS,
    INDEX,
    INDICES,
    NETWORK,
    PROBE_FIXED,
    PROBES,
    SMALLS,
    mark_constraints,
)
from solvers.backends.automata.kernels.propagation import propagate

#: what :func:`probe` returns: probed to a fixpoint, a wipe-out, or its budget spent
DONE, FAILED, PAUSED = 0, 1, 2


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
