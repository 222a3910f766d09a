"""Depth-first search over a compiled network: the decisions in Python, the work in kernels.

A node is a domain array. A choice sets one open variable to one value and
propagates; when that fails the choice is refuted (the other value) and, when the
refutation fails too, the search backtracks. The choice is the plan's (first open
decision variable, preferred value first) or, when guided, the open decision
variable whose belief is furthest from one half, likelier value first.
Counting follows the ``cp`` backend: a branch per choice or refutation applied,
a backtrack per one that fails (and one for a root that fails).

The loop is Python (the kernels propagate and probe), so recording the tree, when a
run asks, is a node appended per branch here, the kernels untouched: ``x = v`` for a
choice, ``x != v`` for its refutation, a failed one a failure leaf. Probes are no
branches, so no nodes; a probing that fails fails the branch it follows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from solvers.backends.automata.kernels import beliefs, layout, probing, propagation
from solvers.backends.automata.network import Network
from solvers.backends.automata.strategy import Strategy
from solvers.search_tree import NodeKind, SearchTree

#: probes between two looks at the clock and at Ctrl-C while probing
PROBE_BUDGET = 256


class Stopped(Exception):
    """The time limit passed, or Ctrl-C came, inside a node's work."""


@dataclass
class Tally:
    """The search's counters (see :mod:`solvers.record` for their meaning)."""

    branches: int = 0
    backtracks: int = 0
    first_branches: int | None = None
    #: constraints whose belief messages were recomputed
    belief_updates: int = 0
    counters: np.ndarray = field(default_factory=lambda: np.zeros(layout.COUNTERS, np.int64))

    @property
    def revisions(self) -> int:
        return int(self.counters[layout.REVISIONS])

    @property
    def probes(self) -> int:
        return int(self.counters[layout.PROBES])

    @property
    def probe_fixed(self) -> int:
        return int(self.counters[layout.PROBE_FIXED])


class Search:
    """One depth-first search of ``network`` under ``strategy``, recording its tree into
    ``tree`` when given one (its variables: the network's, by position)."""

    def __init__(self, network: Network, strategy: Strategy,
                 should_stop: Callable[[], bool], tree: SearchTree | None = None) -> None:
        self.network, self.strategy, self.should_stop = network, strategy, should_stop
        self.tree = tree
        self.arrays = network.kernel_arguments()
        self.tally = Tally()
        longest = int(np.diff(network.edge_start).max(initial=0))
        states = network.states
        constraints, variables = network.constraints, network.variables
        self.forward = np.zeros(states + 1, np.bool_)
        self.backward = np.zeros(states + 1, np.bool_)
        self.support = np.zeros(longest + 1, np.int8)
        self.in_queue = np.zeros(constraints + 1, np.bool_)
        self.queue = np.zeros(constraints + 1, np.int64)
        self.changed = np.zeros(variables + 1, np.int64)
        self.changed_count = np.zeros(1, np.int64)
        self.trial = np.zeros(variables, np.int8)
        self.other = np.zeros(variables, np.int8)
        self.trial_changed = np.zeros(variables + 1, np.int64)
        self.trial_count = np.zeros(1, np.int64)
        self.other_changed = np.zeros(variables + 1, np.int64)
        self.other_count = np.zeros(1, np.int64)
        self.probe_seeds = np.zeros(len(strategy.decision) + 1, np.int64)
        self.probe_known = np.zeros(variables, np.int8)
        self.probe_dirty = np.zeros(constraints, np.bool_)
        self.probe_mark = np.zeros(len(strategy.decision), np.bool_)
        self.is_decision = np.zeros(variables, np.bool_)
        self.is_decision[strategy.decision] = True
        self.seed = np.zeros(1, np.int64)
        self.messages = np.full((len(network.edge_var), 2), 0.5)
        self.belief_dirty = np.zeros(constraints, np.bool_)
        self.alpha = np.zeros(states + 1)
        self.beta = np.zeros(states + 1)
        self.incoming = np.zeros((longest + 1, 2))
        self.scale = np.zeros(longest + 2)
        self.fresh = np.zeros((longest + 1, 2))

    def solutions(self) -> Iterator[np.ndarray]:
        """Yield each solution's domains (valid until the next one is asked for) until
        the space is exhausted or ``should_stop`` says so."""
        try:
            yield from self._search()
        except Stopped:
            return

    def _search(self) -> Iterator[np.ndarray]:
        dom = self.network.domains.copy()
        tree = self.tree
        node = 0  # the current node's in the tree, when one is recorded
        if not self._root(dom):
            self.tally.backtracks += 1
            if tree is not None:
                tree.end(node, NodeKind.FAILURE)
            return
        stack: list[list] = []  # [domains before, variable, value, refuted, its node]
        while True:
            if self.should_stop():
                raise Stopped
            choice = self._choose(dom)
            if choice is None:
                if self.tally.first_branches is None:
                    self.tally.first_branches = self.tally.branches
                if tree is not None:
                    tree.end(node, NodeKind.SOLUTION)
                yield dom
                ok = False
            else:
                variable, value = choice
                stack.append([dom.copy(), variable, value, False, node])
                if tree is not None:
                    node = tree.branch(node, variable, "=", value)
                ok = self._apply(dom, variable, value, len(stack))
                if not ok:
                    self.tally.backtracks += 1
                    if tree is not None:
                        tree.end(node, NodeKind.FAILURE)
            while not ok:
                while stack and stack[-1][3]:
                    stack.pop()
                if not stack:
                    return
                entry = stack[-1]
                entry[3] = True
                self._restore(dom, entry[0])
                if tree is not None:
                    node = tree.branch(entry[4], entry[1], "!=", entry[2])
                ok = self._apply(dom, entry[1], 1 - entry[2], len(stack))
                if not ok:
                    self.tally.backtracks += 1
                    if tree is not None:
                        tree.end(node, NodeKind.FAILURE)

    def _root(self, dom: np.ndarray) -> bool:
        self.changed_count[0] = 0
        if not propagation.propagate(*self.arrays, dom, self.seed, 0, True, *self._propagation()):
            return False
        if self.strategy.probe_root:
            self.probe_dirty[:] = True
            if not self._probe(dom):
                return False
        if self.strategy.guided:
            self.belief_dirty[:] = True
            self._beliefs(dom)
        return True

    def _apply(self, dom: np.ndarray, variable: int, value: int, depth: int) -> bool:
        """Set ``variable`` to ``value`` and propagate (and probe, when due)."""
        self.tally.branches += 1
        dom[variable] = 1 << value
        self.changed[0] = variable  # changed like the variables it propagates to
        self.changed_count[0] = 1
        self.seed[0] = variable
        ok = propagation.propagate(*self.arrays, dom, self.seed, 1, False, *self._propagation())
        every = self.strategy.probe_every
        if ok and every and depth % every == 0:
            self.probe_dirty[:] = False  # what is left of a failed probing is not news
            self._mark(self.probe_dirty)
            ok = self._probe(dom)
        if ok and self.strategy.guided:
            self._mark(self.belief_dirty)
            self._beliefs(dom)
        return ok

    def _restore(self, dom: np.ndarray, saved: np.ndarray) -> None:
        """Go back to ``saved``; the beliefs about the variables reopened are stale."""
        if self.strategy.guided:
            reopened = np.flatnonzero(dom != saved)
            layout.mark_constraints(reopened, 0, len(reopened), self.network.var_edge_start,
                                    self.network.var_edges, self.network.edge_constraint,
                                    self.belief_dirty)
        dom[:] = saved

    def _propagation(self) -> tuple:
        return (self.forward, self.backward, self.support, self.in_queue, self.queue,
                self.changed, self.changed_count, self.tally.counters)

    def _mark(self, marks: np.ndarray) -> None:
        """Mark the constraints on the variables changed since ``changed_count`` was reset."""
        network = self.network
        layout.mark_constraints(self.changed, 0, int(self.changed_count[0]),
                                network.var_edge_start, network.var_edges,
                                network.edge_constraint, marks)

    def _probe(self, dom: np.ndarray) -> bool:
        """Probe to a fixpoint, looking at the clock between slices of probes."""
        place = np.full(1, -1, np.int64)
        while True:
            status = probing.probe(
                *self.arrays, dom, self.strategy.decision, self.is_decision, self.probe_dirty,
                self.probe_mark, place, PROBE_BUDGET, self.strategy.merge, self.forward,
                self.backward, self.support, self.in_queue, self.queue, self.changed,
                self.changed_count, self.trial, self.trial_changed, self.trial_count,
                self.other, self.other_changed, self.other_count, self.probe_seeds,
                self.probe_known, self.tally.counters)
            if status != probing.PAUSED:
                return bool(status == probing.DONE)
            if self.should_stop():
                raise Stopped

    def _beliefs(self, dom: np.ndarray) -> None:
        self.tally.belief_updates += beliefs.beliefs(
            *self.arrays, dom, self.messages, self.belief_dirty, self.strategy.belief_rounds,
            self.strategy.tolerance, self.alpha, self.beta, self.incoming, self.scale,
            self.fresh)

    def _choose(self, dom: np.ndarray) -> tuple[int, int] | None:
        decision = self.strategy.decision
        if self.strategy.guided:
            index, value = beliefs.most_biased(decision, dom, self.messages,
                                               self.network.var_edge_start,
                                               self.network.var_edges)
            if index >= 0:
                return int(decision[index]), int(value)
        else:
            open_ = np.flatnonzero(dom[decision] == 3)
            if len(open_):
                variable = int(decision[open_[0]])
                return variable, int(self.strategy.preferred[variable])
        rest = self.strategy.rest
        open_ = np.flatnonzero(dom[rest] == 3)
        if len(open_):
            return int(rest[open_[0]]), 0
        return None
