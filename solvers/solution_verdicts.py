"""The run's verdict on each solution its searches find: accepted, rejected, or stopped on.

A model may leave constraints out of the search: one checked after search rejects the
solutions that break it (the search goes on), a lazy one stops the search on a solution
that breaks it and hands the solve loop its cuts for the next search. The verdicts are
remembered across a run's searches, with the solutions accepted in the order found.
"""

from __future__ import annotations

from solvers.backend_contract import Verdict
from solvers.constraints import Constraint
from solvers.model import Model


class Verdicts:
    """The run's word on each solution a search finds, and what it has accepted.

    In order: a solution already accepted (by an earlier search) is passed over; one
    that breaks a constraint checked after search is rejected (passed over, counted);
    one that breaks a lazy constraint stops the search, which starts again with that
    constraint's cuts; any other is accepted. :meth:`verdict` changes nothing but its
    memory of the checks, so a backend may ask it too (``SolveRequest.judge``).
    """

    def __init__(self, model: Model, max_solutions: int | None) -> None:
        self.model, self.max_solutions = model, max_solutions
        self.judged = bool(model.after_search or model.lazy)
        self.accepted: dict[tuple[int, ...], None] = {}  # in the order found
        self.rejected: set[tuple[int, ...]] = set()
        self.rounds = self.cuts_added = 0
        self.checked: dict[tuple[int, ...], Verdict] = {}  # each solution judged once

    def verdict(self, values: tuple[int, ...]) -> Verdict:
        if values in self.accepted or values in self.rejected:
            return "pass"
        if not self.judged:
            return "accept"
        if values not in self.checked:  # a backend's judge may have asked already
            assignment = dict(zip(self.model.variables, values))
            self.checked[values] = (
                "pass" if not all(c.holds(assignment) for c in self.model.after_search)
                else "stop" if not all(c.holds(assignment) for c in self.model.lazy)
                else "accept")
        return self.checked[values]

    def note_rejected(self, values: tuple[int, ...]) -> None:
        if values not in self.accepted:
            self.rejected.add(values)

    def accept(self, values: tuple[int, ...]) -> bool:
        """Count ``values`` as a solution; True when it is the run's first."""
        self.accepted[values] = None
        return len(self.accepted) == 1

    def enough(self) -> bool:
        return self.max_solutions is not None and self.found() >= self.max_solutions

    def found(self) -> int:
        return len(self.accepted)

    def first(self) -> tuple[int, ...] | None:
        return next(iter(self.accepted), None)

    def cuts(self, values: tuple[int, ...]) -> tuple[list[Constraint], str]:
        """The cuts of every lazy constraint ``values`` breaks, and why they are no
        good ('' when they are): they must exclude ``values``, or the next search
        could stop on it again and again."""
        assignment = dict(zip(self.model.variables, values))
        cuts = [cut for constraint in self.model.lazy for cut in constraint.cuts(assignment)]
        if all(cut.holds(assignment) for cut in cuts):
            broken = [c for c in self.model.lazy if not c.holds(assignment)]
            kinds = ", ".join(sorted({getattr(c, "kind", type(c).__name__) for c in broken}))
            return cuts, (f"lazy {kinds}: a solution breaks it, but its cuts do not "
                          f"exclude that solution")
        return cuts, ""

    def add_cuts(self, cuts: list[Constraint]) -> None:
        self.rounds += 1
        self.cuts_added += len(cuts)

    def statistics(self) -> dict[str, int | None]:
        lazy = bool(self.model.lazy)
        return {"rejected": len(self.rejected) if self.model.after_search else None,
                "lazy_rounds": self.rounds if lazy else None,
                "lazy_cuts": self.cuts_added if lazy else None}
