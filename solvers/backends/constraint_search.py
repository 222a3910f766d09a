"""A depth-first search with forward checking on python-constraint's own objects.

The library's solvers fix their variable order and count nothing; this subclass of
its ``Solver`` extension point follows a :class:`~solvers.heuristics.SearchPlan`,
honours a deadline, and counts what the run record reports:

* ``branches``: values tried (each assignment of a value to a variable is one node);
* ``backtracks``: values tried that failed a constraint check or wiped out a domain;
* ``propagations``: calls of constraint checks (each one may prune domains).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import constraint as python_constraint

from solvers.heuristics import SearchPlan
from solvers.limits import SearchLimits
from solvers.variables import IntVar


class _Frame:
    """One node of the search: its variable, the values left, the domains it pruned."""

    __slots__ = ("active", "pushed", "values", "variable")

    def __init__(self, variable: IntVar, values: list[int], pushed: list[Any]) -> None:
        self.variable = variable
        self.values = values
        self.pushed = pushed
        self.active = False  # a value is assigned here and its pruning is in force


class CountingSearch(python_constraint.Solver):
    """Forward-checking DFS following a search plan, with node counts and a deadline."""

    requires_pickling = False

    def __init__(self, plan: SearchPlan, every_variable: list[IntVar], deadline: SearchLimits):
        self.plan = plan
        self.deadline = deadline
        chosen = set(plan.variables)
        self.order = list(plan.variables) + [v for v in every_variable if v not in chosen]
        self.decision_count = len(plan.variables)
        self.branches = 0
        self.backtracks = 0
        self.propagations = 0

    def getSolutionIter(self, domains: dict, constraints: list,  # noqa: N802 (library name)
                        vconstraints: dict) -> Iterator[dict[IntVar, int]]:
        """Yield each solution; end early once the deadline passes or Ctrl-C comes."""
        assignments: dict[IntVar, int] = {}
        first = self._select(domains, assignments)
        if first is None:
            yield {}
            return
        stack = [self._frame(first, domains, assignments)]
        while stack:
            if self.deadline.passed():
                return
            frame = stack[-1]
            if frame.active:  # undo the value tried last at this node
                self._undo(frame.pushed)
                del assignments[frame.variable]
                frame.active = False
            if not frame.values:
                stack.pop()
                continue
            value = frame.values.pop()
            self.branches += 1
            frame.active = True
            if not self._consistent(frame, value, domains, assignments, vconstraints):
                self.backtracks += 1
                continue
            following = self._select(domains, assignments)
            if following is None:
                yield dict(assignments)
            else:
                stack.append(self._frame(following, domains, assignments))

    def _frame(self, variable: IntVar, domains: dict, assignments: dict[IntVar, int]) -> _Frame:
        values = self.plan.ordered_values(variable, list(domains[variable]))
        values.reverse()  # popped from the end
        pushed = [domains[other] for other in self.order
                  if other not in assignments and other is not variable]
        return _Frame(variable, values, pushed)

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
