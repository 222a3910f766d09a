"""The automata backend's probing without merging skips values an earlier probe proved alive,
and reaches the very domains that trying every value reaches."""

from __future__ import annotations

import numpy as np
import pytest

from puzzles.nonogram import load
from solvers import Model, clause
from solvers.backends.automata.kernels import layout, propagation
from solvers.backends.automata.network import Network, compile_network
from solvers.backends.automata.search import Search
from solvers.backends.automata.strategy import Strategy
from tests.paths import NONOGRAM_DATA
from viewpoints.nonogram import regular_viewpoint

SURVEY = NONOGRAM_DATA / "webpbn_survey"


def propagated(network: Network, dom: np.ndarray, seeds: list[int],
               every: bool = False) -> tuple[bool, list[int]]:
    """Propagate ``dom`` in place from ``seeds``: whether it holds, and what changed."""
    states, constraints = network.states + 1, network.constraints + 1
    longest = int(np.diff(network.edge_start).max(initial=0)) + 1
    changed = np.zeros(network.variables + 1, np.int64)
    count = np.zeros(1, np.int64)
    ok = propagation.propagate(*network.kernel_arguments(), dom,
                               np.array([*seeds, 0], np.int64), len(seeds), every,
                               np.zeros(states, np.bool_), np.zeros(states, np.bool_),
                               np.zeros(longest, np.int8), np.zeros(constraints, np.bool_),
                               np.zeros(constraints, np.int64), changed, count,
                               np.zeros(layout.COUNTERS, np.int64))
    return bool(ok), changed[:count[0]].tolist()


def probed_trying_every_value(network: Network) -> tuple[np.ndarray | None, int]:
    """Root propagation, then passes of probing as the kernel makes them (the open
    variables of the lines changed in the pass before), every open value tried: the
    domains (None on a failure) and the probes made."""
    dom = network.domains.copy()
    assert propagated(network, dom, [], every=True)[0]

    def lines(v: int) -> set[int]:
        edges = network.var_edges[network.var_edge_start[v]:network.var_edge_start[v + 1]]
        return set(network.edge_constraint[edges].tolist())

    dirty, probes = set(range(network.constraints)), 0
    while True:
        marked = [v for v in range(len(dom)) if dom[v] == 3 and lines(v) & dirty]
        if not marked:
            return dom, probes
        dirty = set()
        for v in marked:
            if dom[v] != 3:
                continue
            alive = 0
            for value in (0, 1):
                trial = dom.copy()
                trial[v] = 1 << value
                probes += 1
                alive |= propagated(network, trial, [v])[0] << value
            if alive != 3:
                if alive == 0:
                    return None, probes
                dom[v] = alive
                ok, changed = propagated(network, dom, [v])
                if not ok:
                    return None, probes
                for w in [v, *changed]:
                    dirty |= lines(w)


def probed_by_the_kernel(model: Model) -> tuple[np.ndarray, int, Network]:
    """Root propagation and probing without merging, every variable a decision: the
    domains, the probes made, and the network (for the reference to probe)."""
    network = compile_network(model.variables, model.constraints)
    variables = np.arange(len(model.variables), dtype=np.int64)
    strategy = Strategy(variables, np.zeros(len(variables), np.int64), np.zeros(0, np.int64),
                        probe_root=True, merge=False)
    search = Search(network, strategy, lambda: False)
    dom = network.domains.copy()
    assert search._root(dom)
    return dom, search.tally.probes, network


@pytest.mark.parametrize(("name", "fewer"), [("webpbn-00065.non", True),
                                             ("webpbn-06574.non", True),
                                             ("knotty.non", True),
                                             ("webpbn-00027.non", False)])
def test_probing_without_merging_skips_values_seen_alive_and_fixes_the_same(
        name: str, fewer: bool) -> None:
    dom, made, network = probed_by_the_kernel(regular_viewpoint(load(SURVEY / name)).model)
    expected, probes = probed_trying_every_value(network)
    assert expected is not None and dom.tolist() == expected.tolist()
    assert (made < probes) if fewer else made == probes


def test_what_a_probe_saw_alive_is_forgotten_once_the_domains_shrink() -> None:
    """x = 0 forces w = 1, alive while y is open; probing y = 0 fails (c and d clash), so
    y = 1, under which w = 1 fails (a and b clash): w = 1 must be probed again."""
    model = Model("stale support")
    x, y, w, a, b, c, d = (model.bool_var(name) for name in "xywabcd")
    model.add(clause(positive=(x, w)))  # x = 0 -> w = 1
    model.add(clause(positive=(a,), negative=(y, w)))  # y = w = 1 -> a = 1
    model.add(clause(positive=(b,), negative=(y, w)))  # y = w = 1 -> b = 1
    model.add(clause(negative=(a, b)))
    model.add(clause(positive=(y, c)))  # y = 0 -> c = 1
    model.add(clause(positive=(y, d)))  # y = 0 -> d = 1
    model.add(clause(negative=(c, d)))
    dom, _, network = probed_by_the_kernel(model)
    expected, _ = probed_trying_every_value(network)
    assert expected is not None and dom.tolist() == expected.tolist()
    assert dom[model.variables.index(y)] == 2 and dom[model.variables.index(w)] == 1
