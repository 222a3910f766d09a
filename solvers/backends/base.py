"""What a backend is: a compiler of models into one solver, and a search with statistics."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from puzzlelab.errors import UnsupportedCombination
from solvers.constraints import Constraint
from solvers.decompositions import decompose
from solvers.heuristics import Heuristic, SearchPlan
from solvers.model import Model
from solvers.record import SolveResult
from solvers.variables import IntVar

SearchStart = Callable[[float | None], None]
"""Told a search's time limit as the search starts (see :func:`solvers.solve`)."""


@dataclass(frozen=True)
class SolveRequest:
    """Everything a backend needs for one run.

    Attributes:
        plan: the search to perform (from :func:`solvers.heuristics.plan_search`).
        heuristic: the heuristic's name, echoed in the result.
        time_limit: seconds of search allowed, or None for no limit.
        max_solutions: stop after this many solutions; None to enumerate all.
        seed: seed of the solver's own randomness, where it has some.
        on_search_start: called with ``time_limit`` when the search starts, after the
            model is built: the experiment runner's kill timer starts there.
    """

    plan: SearchPlan
    heuristic: Heuristic
    time_limit: float | None = None
    max_solutions: int | None = 1
    seed: int = 0
    on_search_start: SearchStart | None = field(default=None, compare=False)

    def searching(self) -> None:
        """Say that the search starts now (a backend calls it just before searching)."""
        if self.on_search_start is not None:
            self.on_search_start(self.time_limit)


@dataclass
class LoweredModel:
    """A model rewritten so that every constraint is native to one backend.

    ``lowering_s`` is the time the rewriting took: it is part of building the solver's
    model, so a backend counts it in ``build_s``.
    """

    variables: list[IntVar]
    constraints: list[Constraint] = field(default_factory=list)
    lowering_s: float = 0.0

    def new_var(self, lb: int, ub: int, name: str) -> IntVar:
        """An auxiliary variable for a decomposition."""
        variable = IntVar(len(self.variables), f"aux_{len(self.variables)}_{name}",
                          tuple(range(lb, ub + 1)))
        self.variables.append(variable)
        return variable


class Backend(ABC):
    """A solver backend. Subclasses register with ``@BACKENDS.register(name)``.

    ``native`` lists the constraint types the solver posts itself; the others are
    decomposed by :func:`solvers.decompositions.decompose`.
    """

    name: ClassVar[str]
    native: ClassVar[frozenset[type[Constraint]]]
    #: a short line for ``puzzlelab list``
    summary: ClassVar[str]

    def lower(self, model: Model) -> LoweredModel:
        """Rewrite the model's constraints until each one is native to this backend."""
        started = time.perf_counter()
        lowered = LoweredModel(list(model.variables))
        pending = list(reversed(model.constraints))
        while pending:
            constraint = pending.pop()
            if type(constraint) in self.native:
                reason = self.refusal(constraint)
                if reason:
                    raise UnsupportedCombination(reason)
                lowered.constraints.append(constraint)
            else:
                pending.extend(reversed(decompose(constraint, lowered.new_var, self.name)))
        lowered.lowering_s = time.perf_counter() - started
        return lowered

    def refusal(self, constraint: Constraint) -> str | None:
        """Why this backend cannot post ``constraint`` as asked (e.g. its strength), or None."""
        return None

    def unsupported_reason(self, heuristic: Heuristic, plan: SearchPlan) -> str | None:
        """Why this backend cannot honour ``heuristic``, or None when it can."""
        return None

    def search_refusal(self, lowered: LoweredModel, plan: SearchPlan) -> str | None:
        """Why this backend cannot run ``plan`` on this particular model, or None."""
        return None

    def check_supported(self, heuristic: Heuristic, plan: SearchPlan) -> None:
        """Raise ``UnsupportedCombination`` when the heuristic cannot be honoured."""
        reason = self.unsupported_reason(heuristic, plan)
        if reason:
            raise UnsupportedCombination(f"backend {self.name!r} cannot run heuristic "
                                         f"{heuristic}: {reason}")

    @abstractmethod
    def solve(self, model: Model, lowered: LoweredModel, request: SolveRequest) -> SolveResult:
        """Compile ``lowered`` (this backend's :meth:`lower` of ``model``) and search it.

        Solutions are read on ``model``'s own variables; timeouts and failures come back
        as statuses.
        """


Poster = Callable[[Any, Constraint], None]
