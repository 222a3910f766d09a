"""Probing (singleton consistency with merging) as a ``pywrapcp`` decision builder.

Each probe is a branch of the solver's own search tree, so probing needs no nested
solve, and the counters it moves are kept apart from the search's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ortools.constraint_solver import pywrapcp

from solvers.heuristics import SearchPlan
from solvers.limits import SearchLimits
from solvers.probing import ProbeGroups


def _values(variable: Any) -> list[int]:
    """The values left in a ``pywrapcp`` variable's domain, in increasing order."""
    return [v for v in range(variable.Min(), variable.Max() + 1) if variable.Contains(v)]


class BoundRecorder(pywrapcp.PyConstraint):
    """Notes which decision variables become bound, in order, while probing is on.

    A demon per variable costs one Python call per binding, far less than reading
    every domain after every probe.
    """

    def __init__(self, solver: pywrapcp.Solver, variables: list[Any]) -> None:
        super().__init__(solver)
        self.variables = variables
        self.recording = True
        self.bound: list[int] = []

    def Post(self) -> None:  # noqa: N802 (OR-tools' name)
        for index, variable in enumerate(self.variables):
            variable.WhenBound(self.Demon(BoundRecorder.note, index))

    def InitialPropagate(self) -> None:  # noqa: N802 (OR-tools' name)
        """Nothing to prune: this constraint only watches."""

    def note(self, index: int) -> None:
        if self.recording:
            self.bound.append(index)


class Probe(pywrapcp.PyDecision):
    """One probe as a branch of the search tree, so no nested solve is needed.

    Left branch: ``variable = value``, propagated; the search's next call looks at
    what it bound and fails. Right branch: nothing, so the search is back at the
    same node with the probe's outcome noted (None when the propagation failed).
    """

    def __init__(self, search: ProbingSearch, index: int, value: int) -> None:
        super().__init__()
        self.search, self.index, self.value = search, index, value

    def Apply(self, solver: pywrapcp.Solver) -> None:  # noqa: N802 (OR-tools' name)
        self.search.start_probe()
        self.search.decision[self.index].SetValue(self.value)

    def Refute(self, solver: pywrapcp.Solver) -> None:  # noqa: N802 (OR-tools' name)
        self.search.end_probe()

    def DebugString(self) -> str:  # noqa: N802 (OR-tools' name)
        return f"Probe({self.search.decision[self.index].Name()} = {self.value})"


class ProbingSearch(pywrapcp.PyDecisionBuilder):
    """Singleton consistency with merging on the decision variables, at the root or
    at every node.

    Each value of each unbound decision variable is tried as a :class:`Probe`. A value
    whose propagation fails is removed; when every remaining value binds some other
    decision variable to the same value, that variable is fixed (what dedicated
    nonogram solvers call merging the probes). The first pass at a node probes the
    variables that the changes since the parent's probing can reach (all of them at
    the root, see :class:`ProbeGroups`), each later pass those that the previous
    pass's fixes can reach, until a pass changes nothing.
    At the root only, this builder then hands over to the plan's phase; at every node
    it also makes the plan's decision itself, so it can probe again below it. The
    search counters it moves (probe branches and failures) are kept apart, so that
    ``backtracks`` and ``branches`` stay those of the search proper.
    """

    def __init__(self, solver: pywrapcp.Solver, decision: list[Any], plan: SearchPlan,
                 every_node: bool, deadline: SearchLimits, groups: ProbeGroups) -> None:
        super().__init__()
        self.decision, self.plan, self.every_node = decision, plan, every_node
        self.groups = groups
        self.model_vars = list(plan.variables)
        self.deadline = deadline
        self.recorder = BoundRecorder(solver, decision)
        solver.Add(self.recorder)
        self.probes = self.fixed = 0
        self.failures = self.branches = 0  # the solver's counters spent on probes
        self._counters_at_probe: tuple[int, int] | None = None
        self._in_probe = self._resuming = self._probed_root = False
        self._outcome: frozenset[tuple[int, int]] | None = None
        self._mark = 0  # where the bindings of the probe under way start
        self._steps: Iterator[Any] = iter(())
        # the solver holds bare pointers to decisions: Python must keep them alive
        self._probe_decisions: dict[tuple[int, int], Probe] = {}

    def Next(self, solver: pywrapcp.Solver) -> Any:  # noqa: N802 (OR-tools' name)
        if self._in_probe:  # the probe propagated without failing: note it, go back
            self._outcome = frozenset((i, self.decision[i].Value())
                                      for i in self.recorder.bound[self._mark:])
            return solver.FailDecision()
        if self._resuming:
            self._resuming = False
            self._count_probe(solver.Failures(), solver.Branches())
        elif self.every_node or not self._probed_root:
            self._steps = self._node(solver)
        else:
            return None
        return next(self._steps)

    def start_probe(self) -> None:
        self._mark = len(self.recorder.bound)
        self._in_probe = True
        self._outcome = None

    def end_probe(self) -> None:
        del self.recorder.bound[self._mark:]  # the probe's bindings are undone
        self._in_probe = False
        self._resuming = True

    def settle(self, failures: int, branches: int) -> None:
        """Count a probe the search stopped in (a time limit) as probing work, up to the
        solver's counters ``failures`` and ``branches`` when it stopped."""
        if self._counters_at_probe is not None:
            self._count_probe(failures, branches)

    def _count_probe(self, failures_now: int, branches_now: int) -> None:
        assert self._counters_at_probe is not None
        failures, branches = self._counters_at_probe
        self.failures += failures_now - failures
        self.branches += branches_now - branches
        self._counters_at_probe = None

    def _node(self, solver: pywrapcp.Solver) -> Iterator[Any]:
        """Probe to a fixpoint, then yield the node's decision (None: nothing left)."""
        bound = self.recorder.bound
        if self._probed_root:
            to_probe = self.groups.reached_from(bound)
        else:
            to_probe = set(range(len(self.decision)))
            self._probed_root = True
        while to_probe and not self.deadline.passed():
            bound.clear()
            narrowed = []  # probed variables that lost values but stay open
            for index in sorted(to_probe):
                variable = self.decision[index]
                if variable.Bound():
                    continue
                outcomes: dict[int, frozenset[tuple[int, int]] | None] = {}
                for value in _values(variable):
                    self.probes += 1
                    self._counters_at_probe = (solver.Failures(), solver.Branches())
                    yield self._probe(index, value)
                    outcomes[value] = self._outcome
                if self._merge(variable, outcomes) and not variable.Bound():
                    narrowed.append(index)  # the cells a merge fixed are in ``bound``
            to_probe = self.groups.reached_from(bound + narrowed)
        if self.every_node:
            yield self._decide(solver)
        else:
            self.recorder.recording = False  # the plan's phase takes over
            bound.clear()
            yield None

    def _probe(self, index: int, value: int) -> Probe:
        key = (index, value)
        if key not in self._probe_decisions:
            self._probe_decisions[key] = Probe(self, index, value)
        return self._probe_decisions[key]

    def _merge(self, variable: Any,
               outcomes: dict[int, frozenset[tuple[int, int]] | None]) -> bool:
        """Remove the refuted values; fix what all surviving values agree on.

        Returns whether ``variable`` itself lost a value: the variables the merge
        fixes are noted by the recorder like any other binding.
        """
        alive = [outcome for outcome in outcomes.values() if outcome is not None]
        for value, outcome in outcomes.items():
            if outcome is None:
                variable.RemoveValue(value)  # an emptied domain fails this node
        narrowed = len(alive) < len(outcomes)
        if narrowed and variable.Bound():
            self.fixed += 1
        if len(alive) >= 2:
            for index, value in frozenset.intersection(*alive):
                if not self.decision[index].Bound():
                    self.decision[index].SetValue(value)
                    self.fixed += 1
        return narrowed

    def _decide(self, solver: pywrapcp.Solver) -> Any:
        unbound = [i for i, v in enumerate(self.decision) if not v.Bound()]
        if not unbound:
            return None
        index = unbound[0]
        if self.plan.selection == "smallest-domain":
            index = min(unbound, key=lambda i: self.decision[i].Size())
        variable = self.decision[index]
        value = self.plan.ordered_values(self.model_vars[index], _values(variable))[0]
        return solver.AssignVariableValue(variable, value)
