"""The worker side of the runner: a long-lived process that runs one task at a time.

``python -m experiments.campaign.executors.worker TASK_FD RESULT_FD`` imports the
puzzles, viewpoints and solvers once, says ``ready`` and then answers every task (a pickled
:class:`~experiments.campaign.grid.RunTask`) with one outcome: the columns of the
run's row in the results store. The parent (:mod:`experiments.campaign.executors.pool`) enforces the
time limit by killing the process; the memory limit is set here, per run, as an
address-space limit above what the idle worker already holds.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import sys
import time
import traceback
from datetime import UTC, datetime
from multiprocessing.connection import Connection
from typing import Any

from experiments.campaign.grid import RunTask
from experiments.campaign.plugins import load_modules
from experiments.solving import PuzzleRun, solve_instance
from puzzlelab.errors import ModelTooLarge
from puzzles import PUZZLES
from solvers import Statistics, Status, load_backends
from solvers.solving import SearchStart


def execute(task: RunTask, on_search_start: SearchStart | None = None) -> dict[str, Any]:
    """Run ``task`` under its memory limit; return its outcome (never raises).

    ``on_search_start`` hears when each search starts, once the model is built.
    """
    wall_start, cpu_start = time.perf_counter(), time.process_time()
    try:
        load_modules(task.modules)
        with MemoryLimit(task.memory_limit_mb):
            run = solve_instance(task.puzzle, task.payload, task.viewpoint_name, task.solver,
                                 task.heuristic, task.options, time_limit=task.time_limit,
                                 max_solutions=task.max_solutions, seed=task.seed,
                                 on_search_start=on_search_start)
        outcome = _outcome_of(run, PUZZLES.get(task.puzzle).known_solution(task.payload)
                              is not None)
    except MemoryError:
        outcome = failed_outcome(Status.MEMORY_OUT, f"out of memory: the run needed more "
                                 f"than {task.memory_limit_mb} MB")
    except ModelTooLarge as error:
        outcome = failed_outcome(Status.REFUSED, str(error))
    except Exception as error:
        outcome = failed_outcome(Status.ERROR, describe_exception(error))
    outcome["wall_s"] = time.perf_counter() - wall_start
    outcome["cpu_s"] = time.process_time() - cpu_start
    return outcome


def failed_outcome(status: Status, message: str, **measured: float | None) -> dict[str, Any]:
    """The outcome of a run that produced no run record (crashed, killed, out of memory)."""
    return {"status": status.value, "complete": False, "message": message,
            "verdict": "unchecked", "violations": None, "matches_known": None,
            "solution": None, **Statistics.unmeasured().as_dict(), "wall_s": None,
            "cpu_s": None, "worker": worker_name(), "finished_at": now(), "extra": "{}",
            "clean": False, **measured}


def verdict_of(run: PuzzleRun, known_solution: bool) -> str:
    """``correct`` or ``wrong`` for a solution the checker judged; ``wrong`` too for a
    complete search that found no solution where the file gives one (a false
    "unsatisfiable", which the run reports as an error); else ``unchecked``."""
    if run.violations is not None:
        return "wrong" if run.violations else "correct"
    if known_solution and run.solution is None and run.result.complete:
        return "wrong"
    return "unchecked"


def _outcome_of(run: PuzzleRun, known_solution: bool) -> dict[str, Any]:
    result = run.result
    verdict = verdict_of(run, known_solution)
    solution = (None if run.solution is None else
                json.dumps(PUZZLES.get(run.puzzle).solution_to_json(run.solution)))
    return {"status": result.status.value, "complete": result.complete,
            "message": result.message,
            "verdict": verdict, "violations": json.dumps(run.violations),
            "matches_known": run.known_solution_matches, "solution": solution,
            **result.statistics.as_dict(), "worker": worker_name(), "finished_at": now(),
            "extra": json.dumps(result.extra, default=str),
            "clean": result.status in (Status.SOLVED, Status.UNSATISFIABLE, Status.TIMEOUT)}


def describe_exception(error: BaseException) -> str:
    """``Type: message (at file:line)``: enough to find the fault, short enough for a table."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" (at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno})" if frames else ""
    return f"{type(error).__name__}: {error}{where}"


def worker_name() -> str:
    """``host:pid`` of this process, stored with each run."""
    return f"{socket.gethostname()}:{os.getpid()}"


def now() -> str:
    """The current UTC time, ISO 8601."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class MemoryLimit:
    """Limit the address space to what the process holds now plus ``megabytes``.

    Counting address space (not resident memory) is stricter than a cgroup limit,
    but it stops the run inside the process: Python raises ``MemoryError``, which
    becomes ``memory-out``. Where the limit cannot be set it is not enforced.
    """

    def __init__(self, megabytes: int) -> None:
        self.megabytes = megabytes
        self.previous: tuple[int, int] | None = None

    def __enter__(self) -> MemoryLimit:
        current = _address_space_bytes()
        if current is not None:
            self.previous = resource.getrlimit(resource.RLIMIT_AS)
            soft = current + self.megabytes * 2**20
            hard = self.previous[1]
            if hard == resource.RLIM_INFINITY or soft <= hard:
                resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
            else:
                self.previous = None
        return self

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            resource.setrlimit(resource.RLIMIT_AS, self.previous)


def _address_space_bytes() -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def serve(tasks: Connection, results: Connection) -> None:
    """Answer tasks until the parent sends None or closes the pipe."""
    load_backends()  # pay every solver import before the first run's clock starts
    results.send(("ready", os.getpid()))
    while True:
        try:
            task = tasks.recv()
        except EOFError:
            return
        if task is None:
            return
        # the parent's kill timer runs from each search's start: building may take long
        results.send(("result", execute(task, lambda limit: results.send(("searching", limit)))))


def main(argv: list[str]) -> None:
    """Entry point of the worker process: ``TASK_FD RESULT_FD`` as inherited descriptors."""
    task_fd, result_fd = int(argv[0]), int(argv[1])
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the runner's to handle
    _die_with_parent()
    serve(Connection(task_fd, writable=False), Connection(result_fd, readable=False))


def _die_with_parent() -> None:
    """On Linux, ask the kernel to kill this worker when the runner dies (even by kill -9)."""
    if sys.platform.startswith("linux"):
        import ctypes

        set_parent_death_signal = 1  # PR_SET_PDEATHSIG
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(set_parent_death_signal, signal.SIGKILL)
        if os.getppid() == 1:  # the parent died before the request took effect
            os._exit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
