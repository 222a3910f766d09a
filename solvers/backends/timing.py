"""Deadlines shared by the backends, so every one of them stops at its time limit."""

from __future__ import annotations

import time

from solvers.record import Status


class Deadline:
    """A point in time after which a search must stop; ``crossed`` remembers it happened."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.end: float | None = None
        self.crossed = False
        self.restart()

    def restart(self) -> None:
        """Count the seconds from now: a model built after the deadline was made must not
        use up the search's time."""
        self.end = None if self.seconds is None else time.perf_counter() + self.seconds
        self.crossed = False

    def outcome(self, found: int, max_solutions: int | None) -> Status:
        """How a depth-first search that found ``found`` solutions ended: a timeout when
        this deadline cut it short of the solutions asked for."""
        if self.crossed and (max_solutions is None or found < max_solutions):
            return Status.TIMEOUT
        return Status.SOLVED if found else Status.UNSATISFIABLE

    def passed(self) -> bool:
        """True (and remembered) once the deadline is over."""
        if self.end is not None and time.perf_counter() >= self.end:
            self.crossed = True
        return self.crossed
