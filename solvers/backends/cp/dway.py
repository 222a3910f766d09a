"""d-way labelling on the classic CP solver, as ECLiPSe's ``indomain`` labels.

OR-tools' search tree is binary, so one variable's values become a chain of decisions:
the ``k``-th assigns the ``k``-th value (left branch), and its refutation (right branch)
changes nothing, so the search stays at the same node and the builder's next call
hands out the ``k+1``-th value; refuting the last value fails. The values are those of
the domain when the variable was chosen, in the plan's value order, as ``indomain``
takes them from its domain: a failed value is not excluded from the domain, so nothing
propagates between two values (removing it would, on a stronger propagator). A
variable bound by propagation is labelled already, as ECLiPSe instantiates a variable
left with one value.

The builder also counts ``deep_backtracks`` as the ``count_backtracks`` idiom of the
ECLiPSe tutorial does: labelling a new variable clears a flag; a variable whose last
value fails counts one return unless the flag is set, and sets it, so a chain of
returns through several variables counts once. A solution is no failure and counts
nothing (the idiom, run over a fixed list of variables, also counts a return past a
solution when the list's last variables were instantiated by propagation; to the
first solution, which the course tables report, the two agree).
"""

from __future__ import annotations

from typing import Any

from ortools.constraint_solver import pywrapcp

from solvers.heuristics import SearchPlan
from solvers.variables import IntVar


class _Value(pywrapcp.PyDecision):
    """The ``at``-th value of the variable a :class:`DwayLabelling` chose."""

    def __init__(self, labelling: DwayLabelling, index: int, values: tuple[int, ...],
                 at: int) -> None:
        super().__init__()
        self.labelling, self.index, self.values, self.at = labelling, index, values, at

    def Apply(self, solver: pywrapcp.Solver) -> None:  # noqa: N802 (OR-tools' name)
        self.labelling.variables[self.index].SetValue(self.values[self.at])

    def Refute(self, solver: pywrapcp.Solver) -> None:  # noqa: N802 (OR-tools' name)
        labelling = self.labelling
        if self.at + 1 < len(self.values):
            labelling.pending = (self.index, self.values, self.at + 1)
            return
        labelling.returned()  # every value failed: back past this variable
        solver.Fail()

    def DebugString(self) -> str:  # noqa: N802 (OR-tools' name)
        name = self.labelling.variables[self.index].Name()
        return f"{name} = {self.values[self.at]} ({self.at + 1} of {len(self.values)})"


class DwayLabelling(pywrapcp.PyDecisionBuilder):
    """Label the plan's decision variables d-way, counting ``deep_backtracks``."""

    def __init__(self, variables: list[Any], plan: SearchPlan) -> None:
        super().__init__()
        self.variables, self.plan = variables, plan
        self.model_variables: list[IntVar] = list(plan.variables)
        self.pending: tuple[int, tuple[int, ...], int] | None = None
        self.deep_backtracks = 0
        self._deep_fail = False  # the idiom's flag: a return is counted since the last label
        # the solver holds bare pointers to decisions: Python keeps them alive, once each
        self._decisions: dict[tuple[int, tuple[int, ...], int], _Value] = {}

    def Next(self, solver: pywrapcp.Solver) -> Any:  # noqa: N802 (OR-tools' name)
        if self.pending is not None:
            index, values, at = self.pending
            self.pending = None
        else:
            chosen = self._choose()
            if chosen is None:
                return None
            self._deep_fail = False  # count_backtracks' first clause: a new variable
            index, values, at = chosen, self._values(chosen), 0
        key = (index, values, at)
        if key not in self._decisions:
            self._decisions[key] = _Value(self, index, values, at)
        return self._decisions[key]

    def returned(self) -> None:
        """Count one return, unless one is counted since the last variable labelled."""
        if not self._deep_fail:
            self._deep_fail = True
            self.deep_backtracks += 1

    def _choose(self) -> int | None:
        """The first unbound variable, or the first with the smallest domain."""
        best, best_size = None, 0
        for index, variable in enumerate(self.variables):
            if variable.Bound():
                continue
            if self.plan.selection == "first-unbound":
                return index
            size = variable.Size()
            if best is None or size < best_size:
                best, best_size = index, size
        return best

    def _values(self, index: int) -> tuple[int, ...]:
        variable = self.variables[index]
        held = [v for v in range(variable.Min(), variable.Max() + 1) if variable.Contains(v)]
        return tuple(self.plan.ordered_values(self.model_variables[index], held))

    def DebugString(self) -> str:  # noqa: N802 (OR-tools' name)
        return "DwayLabelling"
