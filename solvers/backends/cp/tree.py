"""The classic solver's search tree, recorded by a search monitor.

OR-tools tells a monitor each decision it applies and refutes, each failure and
each solution: exactly the events of :class:`~solvers.search_tree.TreeCursor`. A
decision names its variable and value only in its text (``[cell_3_4(1..9) == 7]``,
or the d-way labelling's ``cell_3_4 = 7 (1 of 3)``), which is read back into the
model's variable numbers. Probes are branches to the solver but no step of the
search (the backend's counts leave them out), so the tree leaves them out too. Once
the limit has stopped the search, the failures OR-tools counts while unwinding are
none of the search's (the backend's counts stop there too), so recording stops.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ortools.constraint_solver import pywrapcp

from solvers.search_tree import SearchTree, TreeCursor
from solvers.variables import IntVar

_DECISION = re.compile(r"^\[(?P<name>[^\s(]+)(?:\(.*?\))? (?P<relation>==|<=|>=) "
                       r"(?P<value>-?\d+)\]")
_DWAY_VALUE = re.compile(r"^(?P<name>\S+) = (?P<value>-?\d+) \(\d+ of \d+\)$")
_PROBE = "Probe("


class TreeMonitor(pywrapcp.SearchMonitor):
    """Records the search's tree into ``tree`` (its variables: the lowered model's)."""

    def __init__(self, solver: pywrapcp.Solver, variables: list[IntVar], cap: int,
                 stopped: Callable[[], bool]) -> None:
        super().__init__(solver)
        self.index: dict[str, int] = {}
        for number, variable in enumerate(variables):
            self.index.setdefault(variable.name, number)
        self.tree = SearchTree([v.name for v in variables], cap)
        self.cursor = TreeCursor(self.tree)
        self.stopped = stopped
        self.probing = False

    def _read(self, decision: Any) -> tuple[int, str, int] | None:
        """The decision's variable number, relation and value; None for a probe."""
        text = decision.DebugString()
        if text.startswith(_PROBE):
            return None
        found = _DECISION.match(text)
        if found:
            relation = {"==": "=", "<=": "<=", ">=": ">="}[found["relation"]]
        else:
            found = _DWAY_VALUE.match(text)
            if not found:
                raise ValueError(f"cannot read the classic solver's decision {text!r}")
            relation = "="
        return self.index[found["name"]], relation, int(found["value"])

    def ApplyDecision(self, decision: Any) -> None:  # noqa: N802 (OR-tools' name)
        read = self._read(decision)
        if read is None:
            self.probing = True
        elif not self.stopped():
            self.cursor.apply(*read)

    def RefuteDecision(self, decision: Any) -> None:  # noqa: N802 (OR-tools' name)
        read = self._read(decision)
        if read is None:
            self.probing = False
        elif not self.stopped():
            self.cursor.refute(*read)

    def BeginFail(self) -> None:  # noqa: N802 (OR-tools' name)
        if not self.probing and not self.stopped():
            self.cursor.fail()

    def AtSolution(self) -> bool:  # noqa: N802 (OR-tools' name)
        self.cursor.solution()
        return False
