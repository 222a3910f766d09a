"""The one record every run returns: status, solution and statistics with fixed meanings.

Which statistics exist, what each means, its unit and its MiniZinc counterpart are
declared once, in :mod:`puzzlelab.statistics`, whose :class:`Statistics` holds a value
for each declared figure. A figure the solver does not give is ``None``, never 0.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from puzzlelab.statistics import Statistics
from solvers.search_tree import SearchTree
from solvers.variables import IntVar


class Status(enum.StrEnum):
    """Why a run ended (its value is the name tables, stores and JSON use)."""

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
class SymmetricSearch:
    """What a ``+symmetric`` run did: the symmetries it imposed first (their names, as the
    model declares them), and which search answered: ``symmetric solutions`` (the
    restricted search) or ``whole model`` (the search of the whole model after it)."""

    imposed: tuple[str, ...]
    answered_by: str

    def as_json(self) -> dict[str, Any]:
        """Its JSON form (``--json``, the results store)."""
        return {"imposed": list(self.imposed), "answered_by": self.answered_by}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SymmetricSearch:
        """The inverse of :meth:`as_json`."""
        return cls(tuple(data.get("imposed") or ()), str(data["answered_by"]))


@dataclass(frozen=True)
class ConfigurationRun:
    """One run of one configuration of a portfolio, with its own status and figures.

    ``statistics`` is None for a run killed before it could report (another answered
    first): no other run's figures stand in. ``status`` is a :class:`Status` value, or
    ``stopped`` for such a killed run.
    """

    configuration: str
    heuristic: str
    where: str  # "this process" or "child process"
    time_limit: float | None
    status: str
    statistics: Statistics | None = None
    complete: bool = False
    message: str = ""
    wall_s: float | None = None
    symmetric: SymmetricSearch | None = None

    def as_json(self) -> dict[str, Any]:
        """Its JSON form."""
        return {"configuration": self.configuration, "heuristic": self.heuristic,
                "where": self.where, "time_limit": self.time_limit, "status": self.status,
                "statistics": None if self.statistics is None else self.statistics.as_dict(),
                "complete": self.complete, "message": self.message, "wall_s": self.wall_s,
                **({} if self.symmetric is None else {"symmetric": self.symmetric.as_json()})}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ConfigurationRun:
        """The inverse of :meth:`as_json` (an older record's ``extra`` entry too)."""
        figures = data.get("statistics")
        symmetric = data.get("symmetric") or (data.get("extra") or {}).get("symmetric")
        return cls(str(data["configuration"]), str(data["heuristic"]), str(data["where"]),
                   data.get("time_limit"), str(data["status"]),
                   None if figures is None else _known_statistics(figures),
                   bool(data.get("complete")), str(data.get("message") or ""),
                   data.get("wall_s"),
                   None if symmetric is None else SymmetricSearch.from_json(symmetric))


@dataclass(frozen=True)
class PortfolioAnswer:
    """What a portfolio run did: the configuration whose answer the run reports (its
    figures are the run's), how the configurations ran, and every run of one."""

    answered_by: str | None
    mode: str
    runs: tuple[ConfigurationRun, ...] = ()

    def as_json(self) -> dict[str, Any]:
        """Its JSON form."""
        return {"answered_by": self.answered_by, "mode": self.mode,
                "runs": [run.as_json() for run in self.runs]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PortfolioAnswer:
        """The inverse of :meth:`as_json`."""
        return cls(data.get("answered_by"), str(data.get("mode") or ""),
                   tuple(ConfigurationRun.from_json(run) for run in data.get("runs") or ()))


def _known_statistics(figures: Mapping[str, Any]) -> Statistics:
    """The declared figures of ``figures`` (a record from another version may hold a
    figure no longer declared: it is left out rather than refused)."""
    declared = Statistics.names()
    return Statistics(**{name: value for name, value in figures.items() if name in declared})


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
        symmetric: what a ``+symmetric`` search did (None: the run had none).
        portfolio: what a portfolio backend's configurations did (None: not a portfolio).
        found: the values of every solution counted, in the order found, each in the
            model's variable order (the first is ``assignment``'s): what ``solve
            --all`` prints. Kept as the loop counts them, so it costs no more memory.
        tree: the search's tree, when the run asked to record it (``record_tree``).
    """

    status: Status
    assignment: dict[IntVar, int] | None
    statistics: Statistics
    complete: bool
    backend: str
    heuristic: str
    message: str = ""
    symmetric: SymmetricSearch | None = None
    portfolio: PortfolioAnswer | None = None
    found: tuple[tuple[int, ...], ...] = field(default=(), repr=False, compare=False)
    tree: SearchTree | None = field(default=None, repr=False, compare=False)
