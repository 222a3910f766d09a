"""Deadlines and Ctrl-C: what may end a search before its answer, the same on every backend."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

from puzzlelab.errors import OptionError


def checked_time_limit(seconds: float | None, name: str = "the time limit") -> float | None:
    """``seconds``, refused (``OptionError`` naming it as ``name``: ``--time-limit`` on the
    command line) unless a finite number above 0; None is no limit."""
    if seconds is not None and not (math.isfinite(seconds) and seconds > 0):
        raise OptionError(f"{name} must be a number of seconds above 0, not {seconds}")
    return seconds


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

    def passed(self) -> bool:
        """True (and remembered) once the deadline is over."""
        if self.end is not None and time.perf_counter() >= self.end:
            self.crossed = True
        return self.crossed


class SearchLimits:
    """What may end a search early: its deadline, and Ctrl-C.

    The solve loop makes one per search and hands it to the backend's ``compile``.
    A search that runs Python between its steps polls :meth:`passed`; one that runs
    in compiled code registers a thread-safe stop with :meth:`on_stop`, and, if its
    solver keeps the time limit itself, says so with :meth:`time_ran_out`.
    """

    def __init__(self, time_limit: float | None) -> None:
        self.time_limit = time_limit
        self.deadline = Deadline(time_limit)
        self.interrupted = False
        self.stops: list[Callable[[], None]] = []
        self._lock = threading.Lock()  # the watcher thread and the handler may both ask
        self.watched = False  # whether Ctrl-C can reach this search (else polling is waste)

    def on_stop(self, stop: Callable[[], None]) -> None:
        """Have ``stop`` called (from another thread) when Ctrl-C arrives mid-search."""
        self.stops.append(stop)

    def interrupt(self) -> None:
        """Ctrl-C: remember it and ask the search to stop (once, whoever asks first)."""
        with self._lock:
            if self.interrupted:
                return
            self.interrupted = True
        for stop in self.stops:
            stop()

    def passed(self) -> bool:
        """True once the deadline is over or Ctrl-C came: the search must stop."""
        return self.deadline.passed() or self.interrupted

    def time_ran_out(self) -> None:
        """The solver's own time limit ended the search."""
        self.deadline.crossed = True

    @property
    def timed_out(self) -> bool:
        """Whether the time limit cut the search short."""
        return self.deadline.crossed
