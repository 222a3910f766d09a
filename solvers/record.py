"""The one record every run returns: status, solution and statistics with fixed meanings.

Which statistics exist, what each means, its unit and its MiniZinc counterpart are
declared once, in :mod:`puzzlelab.statistics`; :class:`Statistics` holds a value for
each declared figure. A figure the solver does not give is ``None``, never 0.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from puzzlelab.statistics import STATISTICS, run_statistics
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


class Statistics:
    """Figures of one run, one per statistic declared in :mod:`puzzlelab.statistics`.

    Read them as attributes (``statistics.backtracks``); a declared figure not given
    is None (``solutions``: 0). An undeclared name is an error, so a typo cannot pass
    for a figure the solver did not give.

    >>> Statistics(backtracks=3).backtracks, Statistics(backtracks=3).branches
    (3, None)
    """

    __slots__ = ("_values",)

    def __init__(self, **values: float | None) -> None:
        declared = _declared()
        unknown = set(values) - declared.keys()
        if unknown:
            raise TypeError(f"undeclared statistics {sorted(unknown)}; declare them in "
                            f"puzzlelab.statistics")
        object.__setattr__(self, "_values", {name: values.get(name, default)
                                             for name, default in declared.items()})

    @classmethod
    def unmeasured(cls) -> Statistics:
        """The figures of a run that failed before measuring anything: none, no solution."""
        return cls()

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"no statistic {name!r}") from None

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Statistics are read-only; use replace()")

    def replace(self, **changes: float | None) -> Statistics:
        """A copy with ``changes``."""
        return Statistics(**{**self._values, **changes})

    def as_dict(self) -> dict[str, Any]:
        """The statistics by name, in declaration order, ready for JSON."""
        return dict(self._values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Statistics) and self._values == other._values

    def __hash__(self) -> int:
        return hash(tuple(self._values.items()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self._values.items() if v is not None)
        return f"Statistics({shown})"


_DEFAULTS: dict[tuple[str, ...], dict[str, float | None]] = {}


def _declared() -> dict[str, float | None]:
    """Each run statistic's name and its value when not given (made once for each set
    of declared statistics: a module may declare more)."""
    declared = tuple(STATISTICS)
    if declared not in _DEFAULTS:
        _DEFAULTS[declared] = {s.name: (0 if s.name == "solutions" else None)
                               for s in run_statistics()}
    return _DEFAULTS[declared]


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
