"""The one record every run returns: status, solution and statistics with fixed meanings.

Statistic names and their MiniZinc counterparts (``minizinc --statistics``):

=================  =====================  =================================================
name               MiniZinc               meaning
=================  =====================  =================================================
build_s            flatTime (roughly)     seconds to compile the model into the solver
solve_s            solveTime              wall-clock seconds of the search
backtracks         failures               failed search nodes (dead ends); None on CP-SAT
branches           nodes                  branches taken by the search (a choice point
                                          tried both ways is 2); CP-SAT: its own count,
                                          decisions of its probing and inprocessing too
conflicts          (none)                 CP-SAT's learned conflicts; None elsewhere
propagations       propagations           CP-SAT: propagated literals and bounds;
                                          python-constraint: constraint checks
solutions          nSolutions             solutions found in this run
peak_memory_mb     peakMem (roughly)      peak resident memory of the process during the run
first_branches     (none)                 branches taken up to the first solution
probes             (none)                 probing trials (one variable, one value)
probe_fixed        (none)                 decision variables probing itself fixes (left
                                          with one value, or agreed on by the surviving
                                          probes; not what propagation fixes from them),
                                          summed over the nodes probed (refixed after a
                                          backtrack: again)
=================  =====================  =================================================

A figure the solver does not give is ``None``, never 0.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field
from typing import Any

from solvers.variables import IntVar


class Status(enum.Enum):
    """Why a run ended."""

    SOLVED = "solved"
    UNSATISFIABLE = "unsatisfiable"
    TIMEOUT = "timeout"
    MEMORY_OUT = "memory-out"
    REFUSED = "refused"  # the viewpoint declined to build a model past a size option
    ERROR = "error"

    @property
    def finished(self) -> bool:
        """The search gave its answer: a solution, or a proof that there is none."""
        return self in (Status.SOLVED, Status.UNSATISFIABLE)

    @property
    def stopped_by_limit(self) -> bool:
        """A time or memory limit ended the search before its answer."""
        return self in (Status.TIMEOUT, Status.MEMORY_OUT)


@dataclass(frozen=True)
class Statistics:
    """Figures of one run; see the module docstring for their exact meaning."""

    build_s: float | None  # None: the run failed before the backend could measure it
    solve_s: float | None
    backtracks: int | None
    branches: int | None
    conflicts: int | None
    propagations: int | None
    solutions: int
    peak_memory_mb: float | None
    first_branches: int | None = None
    probes: int | None = None
    probe_fixed: int | None = None

    NAMES = ("build_s", "solve_s", "backtracks", "branches", "conflicts", "propagations",
             "solutions", "peak_memory_mb", "first_branches", "probes", "probe_fixed")

    @classmethod
    def unmeasured(cls) -> Statistics:
        """The figures of a run that failed before measuring anything: none, no solution."""
        return cls(build_s=None, solve_s=None, backtracks=None, branches=None, conflicts=None,
                   propagations=None, solutions=0, peak_memory_mb=None)

    def as_dict(self) -> dict[str, Any]:
        """The statistics by name, ready for JSON."""
        return asdict(self)


@dataclass(frozen=True)
class SolveResult:
    """The outcome of solving one model on one backend.

    Attributes:
        status: why the run ended.
        assignment: the first solution found (every model variable), or None.
        statistics: the figures of the run.
        complete: True when the search space was exhausted, so ``statistics.solutions``
            is the exact number of solutions (a uniqueness proof when it is 1).
        backend: registry name of the backend.
        heuristic: the heuristic name the search honoured.
        message: what went wrong, for ``error`` and ``memory-out``.
    """

    status: Status
    assignment: dict[IntVar, int] | None
    statistics: Statistics
    complete: bool
    backend: str
    heuristic: str
    message: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
