"""Running whole solves side by side or in turn, for the portfolio backend (``auto``).

A *configuration* is a backend and a heuristic, by name. Each run of one is a full
:func:`solvers.solve` (``+symmetric`` included, its solution checked by its own solve
loop), here in this process (:func:`run_here`) or in a forked child (:class:`Race`),
and comes back as an :class:`Outcome`: its status, its solution's values and its own
figures. A race returns the first outcome that answers (a solution, or a proof there
is none) and kills every other child, so none outlives the race.

Processes, not threads: the automata backend's search runs Python between its
kernels, so it holds Python's lock. Children are forked: each inherits the model and
the loaded libraries, so nothing is pickled on the way in and a child starts in about
5 ms (a 340 MB parent, measured). Only the outcome travels back.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from puzzlelab.errors import PuzzleLabError, UnsupportedCombination
from solvers.heuristics import Heuristic
from solvers.model import Model
from solvers.record import ConfigurationRun, Statistics, Status, SymmetricSearch

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

#: how many cores a solve may use; the experiment runner's workers set 1 (a run there
#: has one core), and without it the cores this process may run on are counted
CORES_VARIABLE = "PUZZLELAB_CORES"
#: seconds between two looks at the clock and at Ctrl-C while children search
POLL_SECONDS = 0.02
#: seconds a child may go past the race's deadline to report its own timeout (and its
#: figures) before it is killed
REPORT_GRACE_SECONDS = 0.5


@dataclass(frozen=True)
class Configuration:
    """A backend and the heuristic it runs when the portfolio is asked for ``auto``."""

    backend: str
    heuristic: str

    @property
    def name(self) -> str:
        """How records name it: ``cpsat auto+symmetric``."""
        return self.running(self.heuristic)

    def running(self, heuristic: str) -> str:
        """How records name its run under ``heuristic`` (a named one, or without
        ``+symmetric`` when counting)."""
        return f"{self.backend} {heuristic}"

    def heuristic_for(self, asked: Heuristic, max_solutions: int | None) -> str:
        """What it runs when the portfolio is asked for ``asked``: its own heuristic under
        ``auto``, else the named one (the same search on each backend). Counting drops
        ``+symmetric``, which looks for one solution only."""
        chosen = Heuristic.parse(self.heuristic) if asked.is_auto else asked
        return str(chosen if max_solutions == 1 else chosen.without_symmetric())


@dataclass(frozen=True)
class Outcome:
    """One run of one configuration, as the portfolio records it.

    ``statistics`` are the run's own figures (its solve loop's), or None when the run
    was killed before it could report them: no other run's figures stand in.
    """

    configuration: str
    heuristic: str
    where: str  # "this process" or "child process"
    time_limit: float | None
    status: str  # a Status value, or "stopped" (killed: another run answered first)
    values: tuple[int, ...] | None = None
    statistics: dict[str, Any] | None = None
    complete: bool = False
    message: str = ""
    wall_s: float | None = None
    symmetric: SymmetricSearch | None = None

    @property
    def answered(self) -> bool:
        """A solution, or a proof that there is none: the portfolio may return it."""
        return self.status in (Status.SOLVED.value, Status.UNSATISFIABLE.value)

    def summary(self) -> ConfigurationRun:
        """The run as the record's portfolio account lists it (no solution values)."""
        return ConfigurationRun(self.configuration, self.heuristic, self.where,
                                self.time_limit, self.status,
                                None if self.statistics is None else Statistics(**self.statistics),
                                self.complete, self.message, self.wall_s, self.symmetric)


def run_here(configuration: Configuration, heuristic: str, model: Model,
             time_limit: float | None, max_solutions: int | None, seed: int,
             where: str = "this process") -> Outcome:
    """Solve ``model`` with one configuration in this process. A refusal (a constraint
    the backend cannot post, found while compiling) is an outcome, not an exception."""
    from solvers.solving import solve  # the portfolio backend loads with the backends

    started = time.perf_counter()
    try:
        result = solve(model, configuration.backend, heuristic, time_limit=time_limit,
                       max_solutions=max_solutions, seed=seed)
    except UnsupportedCombination as refusal:
        return Outcome(configuration.running(heuristic), heuristic, where, time_limit,
                       Status.REFUSED.value, message=str(refusal),
                       wall_s=time.perf_counter() - started)
    values = None if result.assignment is None else tuple(
        result.assignment[variable] for variable in model.variables)
    return Outcome(configuration.running(heuristic), result.heuristic, where, time_limit,
                   result.status.value, values, result.statistics.as_dict(), result.complete,
                   result.message, time.perf_counter() - started, result.symmetric)


def cores_allowed() -> int:
    """The cores a solve may keep busy: ``PUZZLELAB_CORES`` when set, else the cores this
    process may run on."""
    given = os.environ.get(CORES_VARIABLE)
    if given is None:
        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    try:
        cores = int(given)
    except ValueError:
        cores = 0
    if cores < 1:
        raise PuzzleLabError(f"{CORES_VARIABLE} must be a whole number of cores (at least "
                             f"1), not {given!r}")
    return cores


@dataclass
class _Child:
    configuration: Configuration
    heuristic: str
    time_limit: float | None
    process: BaseProcess
    results: Connection
    started: float


class Race:
    """Configurations solving one model in forked children; the first answer wins.

    Use as a context manager: leaving it kills and reaps every child still running,
    whatever ended the race (an answer, the deadline, Ctrl-C, an exception).
    """

    def __init__(self, model: Model, max_solutions: int | None, seed: int) -> None:
        self.model, self.max_solutions, self.seed = model, max_solutions, seed
        self.children: list[_Child] = []
        self.outcomes: list[Outcome] = []
        import multiprocessing  # only for a race run apart (its pipes import socket)

        self._context = multiprocessing.get_context("fork")

    def __enter__(self) -> Race:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop_all()

    def start(self, configuration: Configuration, heuristic: str,
              time_limit: float | None) -> None:
        """Fork a child that solves the model with ``configuration`` under ``time_limit``."""
        results, sent = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=_child_main, daemon=True, name=f"puzzlelab-{configuration.name}",
            args=(sent, configuration, heuristic, self.model, time_limit,
                  self.max_solutions, self.seed))
        process.start()
        sent.close()
        self.children.append(_Child(configuration, heuristic, time_limit, process, results,
                                    time.perf_counter()))

    def first_answer(self, interrupted: Callable[[], bool],
                     deadline: float | None) -> Outcome | None:
        """Wait for the first child that answers; None when every child ended without an
        answer, ``interrupted()`` (Ctrl-C), or the deadline passed and the children had
        :data:`REPORT_GRACE_SECONDS` to report their own timeouts.

        Every outcome received, answer or not, is kept in :attr:`outcomes`.
        """
        while self.children:
            if interrupted():
                return None
            if deadline is not None and time.perf_counter() > deadline + REPORT_GRACE_SECONDS:
                return None
            ready = _ready([child.results for child in self.children], POLL_SECONDS)
            for child in [c for c in self.children if c.results in ready]:
                outcome = self._received(child)
                self.outcomes.append(outcome)
                if outcome.answered:
                    return outcome
        return None

    def _received(self, child: _Child) -> Outcome:
        """The outcome a child sent, or one that says how it died; the child is reaped."""
        try:
            outcome: Outcome = child.results.recv()
        except (EOFError, OSError):
            child.process.join(1)
            outcome = Outcome(child.configuration.running(child.heuristic), child.heuristic,
                              "child process",
                              child.time_limit, Status.ERROR.value,
                              message=f"the child process died (exit code "
                                      f"{child.process.exitcode})",
                              wall_s=time.perf_counter() - child.started)
        self._reap(child)
        return outcome

    def stop_all(self) -> None:
        """Kill every child still running and record it as ``stopped``."""
        for child in list(self.children):
            if child.results.poll():  # it finished as it was being stopped: keep its figures
                self.outcomes.append(self._received(child))
                continue
            self.outcomes.append(Outcome(child.configuration.running(child.heuristic),
                                         child.heuristic, "child process", child.time_limit,
                                         "stopped",
                                         message="killed: another run answered first, or "
                                                 "the portfolio was stopped",
                                         wall_s=time.perf_counter() - child.started))
            self._reap(child)

    def _reap(self, child: _Child) -> None:
        if child.process.is_alive():
            child.process.kill()
        child.process.join()
        child.results.close()
        child.process.close()
        self.children.remove(child)


def _child_main(sent: Connection, configuration: Configuration, heuristic: str, model: Model,
                time_limit: float | None, max_solutions: int | None, seed: int) -> None:
    """A race's child: solve, send the outcome, exit. Ctrl-C is the parent's to handle
    (it kills the children), and the child dies with its parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(ValueError):
        signal.set_wakeup_fd(-1)  # the parent's Ctrl-C watcher socket is not ours
    _die_with_parent()
    try:
        outcome = run_here(configuration, heuristic, model, time_limit, max_solutions, seed,
                           where="child process")
    except MemoryError:
        outcome = Outcome(configuration.running(heuristic), heuristic, "child process",
                          time_limit, Status.MEMORY_OUT.value, message="out of memory")
    except Exception as error:  # reported to the parent, which decides the run's status
        outcome = Outcome(configuration.running(heuristic), heuristic, "child process",
                          time_limit, Status.ERROR.value,
                          message=f"{type(error).__name__}: {error}")
    sent.send(outcome)
    sent.close()


def _die_with_parent() -> None:
    """On Linux, have the kernel kill this child when its parent dies (even by SIGKILL,
    as the experiment runner ends a run past its time limit)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    set_parent_death_signal = 1  # PR_SET_PDEATHSIG
    ctypes.CDLL(None, use_errno=True).prctl(set_parent_death_signal, signal.SIGKILL)
    if os.getppid() == 1:  # the parent died before the request took effect
        os._exit(1)


def _ready(results: list[Connection], timeout: float) -> list[Any]:
    """Those of the children's pipes with something to read, waiting up to ``timeout``."""
    from multiprocessing.connection import wait

    return wait(results, timeout)
