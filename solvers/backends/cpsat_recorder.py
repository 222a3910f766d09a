"""The CP-SAT solution callback of backend ``cpsat``, apart from its declaration: importing
``ortools.sat`` costs a third of a second, which only a CP-SAT solve should pay."""

from __future__ import annotations

from ortools.sat.python import cp_model

from solvers.backend_contract import Judge
from solvers.limits import SearchLimits


class SolutionRecorder(cp_model.CpSolverSolutionCallback):
    """Records distinct solutions on the model's own variables (auxiliaries may repeat
    them) and stops CP-SAT at the solution limit, counting only the solutions the solve
    loop's judge accepts when it has one (``SolveRequest.judge``)."""

    def __init__(self, sat_vars: list[cp_model.IntVar], limit: int | None,
                 judge: Judge | None = None, limits: SearchLimits | None = None) -> None:
        super().__init__()
        self.sat_vars = sat_vars
        self.indices = [variable.index for variable in sat_vars]
        self.limits = limits
        self.limit = limit
        self.judge = judge
        self.found: dict[tuple[int, ...], None] = {}  # in the order found
        self.accepted = 0
        self.first_branches: int | None = None
        self.stopped = False

    def on_solution_callback(self) -> None:
        solution = self.response_proto.solution  # by index: a quarter of value()'s time
        values = tuple(solution[index] for index in self.indices)
        if values in self.found:
            return
        self.found[values] = None
        verdict = "accept" if self.judge is None else self.judge(values)
        if verdict == "accept":
            self.accepted += 1
            if self.first_branches is None:
                self.first_branches = self.num_branches
        if verdict == "stop" or (self.limit is not None and self.accepted >= self.limit):
            self.stopped = True
            self.stop_search()
        elif self.limits is not None and self.limits.passed():
            # CP-SAT leaves the callbacks' time out of its own limit: the judge's
            # checks (a connectivity test a solution) could double a run's time
            self.stop_search()
