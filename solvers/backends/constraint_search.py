"""A depth-first search with forward checking on python-constraint's own objects.

The library's solvers fix their variable order and count nothing; this subclass of
its ``Solver`` extension point follows a :class:`~solvers.heuristics.SearchPlan`,
honours a deadline, and counts what the run record reports:

* ``branches``: values tried (each assignment of a value to a variable is one node);
* ``backtracks``: values tried that failed a constraint check or wiped out a domain;
* ``propagations``: calls of constraint checks (each one may prune domains);
* ``deep_backtracks`` (``+dway`` only): returns past a variable whose every value
  failed, counted as ECLiPSe's ``count_backtracks`` idiom counts them (see
  :mod:`solvers.backends.cp.dway`).

The search is d-way already: a variable's values are tried one branch each. Under
``+dway`` it also labels as ECLiPSe's ``ic`` does: a variable left with one value is
assigned at once, its constraints checked and its value forwarded, at the root too,
where the plain search leaves it until its turn.

When given a :class:`~solvers.search_tree.SearchTree`, it records its d-way tree: one
child per value tried (``x = v``), a failed try a failure leaf, so the tree's counts are
the figures above (a variable assigned as the last value of its domain is propagation,
no node). A failure before any value is tried (the root's) is no backtrack, and the
root is left a failure all the same.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import constraint as python_constraint

from solvers.heuristics import SearchPlan
from solvers.limits import SearchLimits
from solvers.search_tree import NodeKind, SearchTree
from solvers.variables import IntVar


class _Frame:
    """One node of the search: its variable, the values left, the domains it pruned,
    and its node in the recorded tree (-1 when none is recorded)."""

    __slots__ = ("active", "implied", "node", "pushed", "values", "variable")

    def __init__(self, variable: IntVar, values: list[int], pushed: list[Any],
                 node: int) -> None:
        self.variable = variable
        self.node = node
        self.values = values
        self.pushed = pushed
        self.active = False  # a value is assigned here and its pruning is in force
        self.implied: list[IntVar] = []  # assigned as the last value of their domain


class CountingSearch(python_constraint.Solver):
    """Forward-checking DFS following a search plan, with node counts and a deadline."""

    requires_pickling = False

    def __init__(self, plan: SearchPlan, every_variable: list[IntVar], deadline: SearchLimits,
                 tree: SearchTree | None = None):
        self.plan = plan
        self.tree = tree  # its variables: ``every_variable``, by position
        self.position = ({variable: i for i, variable in enumerate(every_variable)}
                         if tree is not None else {})
        self.deadline = deadline
        chosen = set(plan.variables)
        self.order = list(plan.variables) + [v for v in every_variable if v not in chosen]
        self.decision_count = len(plan.variables)
        self.branches = 0
        self.backtracks = 0
        self.propagations = 0
        self.deep_backtracks: int | None = 0 if plan.dway else None
        self._deep_fail = False

    def getSolutionIter(self, domains: dict, constraints: list,  # noqa: N802 (library name)
                        vconstraints: dict) -> Iterator[dict[IntVar, int]]:
        """Yield each solution; end early once the deadline passes or Ctrl-C comes."""
        assignments: dict[IntVar, int] = {}
        tree = self.tree
        if self.plan.dway:  # the values already known (givens) are forwarded first
            pushed = [domains[v] for v in self.order]
            for domain in pushed:
                domain.pushState()
            if not self._implied([], pushed, domains, assignments, vconstraints):
                self.root_failed()
                return
        first = self._select(domains, assignments)
        if first is None:
            if tree is not None:
                tree.end(0, NodeKind.SOLUTION)
            yield dict(assignments)
            return
        stack = [self._frame(first, domains, assignments, 0 if tree is not None else -1)]
        while stack:
            if self.deadline.passed():
                return
            frame = stack[-1]
            if frame.active:  # undo the value tried last at this node
                self._undo(frame.pushed)
                del assignments[frame.variable]
                for implied in frame.implied:
                    del assignments[implied]
                frame.implied.clear()
                frame.active = False
            if not frame.values:
                stack.pop()
                self._returned()  # every value of this variable failed
                continue
            value = frame.values.pop()
            self.branches += 1
            frame.active = True
            node = -1
            if tree is not None:
                node = tree.branch(frame.node, self.position[frame.variable], "=", value)
            if not (self._consistent(frame, value, domains, assignments, vconstraints)
                    and self._implied(frame.implied, frame.pushed, domains, assignments,
                                      vconstraints)):
                self.backtracks += 1
                if tree is not None:
                    tree.end(node, NodeKind.FAILURE)
                continue
            following = self._select(domains, assignments)
            if following is None:
                if tree is not None:
                    tree.end(node, NodeKind.SOLUTION)
                yield dict(assignments)
            else:
                stack.append(self._frame(following, domains, assignments, node))

    def root_failed(self) -> None:
        """The root failed before any value was tried: its node says so."""
        if self.tree is not None:
            self.tree.end(0, NodeKind.FAILURE)

    def _frame(self, variable: IntVar, domains: dict, assignments: dict[IntVar, int],
               node: int) -> _Frame:
        self._deep_fail = False  # the idiom's flag: a new variable is labelled
        values = self.plan.ordered_values(variable, list(domains[variable]))
        values.reverse()  # popped from the end
        pushed = [domains[other] for other in self.order
                  if other not in assignments and other is not variable]
        return _Frame(variable, values, pushed, node)

    def _consistent(self, frame: _Frame, value: int, domains: dict,
                    assignments: dict[IntVar, int], vconstraints: dict) -> bool:
        assignments[frame.variable] = value
        for domain in frame.pushed:
            domain.pushState()
        for checked, scope in vconstraints[frame.variable]:
            self.propagations += 1
            if not checked(scope, domains, assignments, frame.pushed):
                return False
        return True

    def _implied(self, implied: list[IntVar], pushed: list[Any], domains: dict,
                 assignments: dict[IntVar, int], vconstraints: dict) -> bool:
        """Under ``+dway``, assign every variable left with one value, as ``ic`` does,
        checking and forwarding its constraints (on the ``pushed`` domains), until none
        is left, noting each in ``implied``; False on a failure. The plain search leaves
        them to their turn."""
        if not self.plan.dway:
            return True
        changed = True
        while changed:
            changed = False
            for variable in self.order:
                if variable in assignments or len(domains[variable]) != 1:
                    continue
                assignments[variable] = domains[variable][0]
                implied.append(variable)
                changed = True
                for checked, scope in vconstraints[variable]:
                    self.propagations += 1
                    if not checked(scope, domains, assignments, pushed):
                        return False
        return True

    def _returned(self) -> None:
        """Count one return past a variable, unless one is counted since the last
        variable labelled (the ``count_backtracks`` idiom)."""
        if self.deep_backtracks is not None and not self._deep_fail:
            self._deep_fail = True
            self.deep_backtracks += 1

    @staticmethod
    def _undo(pushed: list[Any]) -> None:
        for domain in pushed:
            domain.popState()

    def _select(self, domains: dict, assignments: dict[IntVar, int]) -> IntVar | None:
        if self.plan.selection == "smallest-domain":
            best, best_size = None, 0
            for variable in self.order[:self.decision_count]:
                if variable not in assignments:
                    size = len(domains[variable])
                    if best is None or size < best_size:
                        best, best_size = variable, size
            if best is not None:
                return best
        for variable in self.order:
            if variable not in assignments:
                return variable
        return None
