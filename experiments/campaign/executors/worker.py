"""The worker side of the runner: a long-lived process that runs one task at a time.

``python -m experiments.campaign.executors.worker TASK_FD RESULT_FD SEARCH_FD
[SOLVER,...]`` imports the puzzles, viewpoints and the campaign's solvers once, says
``ready`` and then answers every task (a pickled
:class:`~experiments.campaign.grid.RunTask`) with its
:class:`~experiments.campaign.record.RunRecord`, telling as each search starts
(:mod:`~experiments.campaign.executors.search_starts`). The parent
(:mod:`experiments.campaign.executors.pool`) enforces the time limit by killing the
process; the memory limit is set here, per run, as an address-space limit above what
the idle worker already holds.
"""

from __future__ import annotations

import functools
import os
import platform
import resource
import signal
import sys
import time
import traceback
from dataclasses import replace
from datetime import UTC, datetime

from experiments.campaign.executors.channel import Channel
from experiments.campaign.executors.records import record_of_run, unanswered
from experiments.campaign.executors.search_starts import SearchStarts
from experiments.campaign.grid import RunTask
from experiments.campaign.plugins import load_modules
from experiments.campaign.record import RunRecord
from experiments.campaign.solving import solve_run
from puzzlelab.collector import settled, start_up
from puzzlelab.errors import ModelTooLarge
from solvers import BACKENDS, Status
from solvers.solving import SearchStart


def execute(task: RunTask, on_search_start: SearchStart | None = None) -> RunRecord:
    """Run ``task`` under its memory limit; return its record (never raises).

    ``on_search_start`` hears when each search starts, once the model is built.
    """
    wall_start, cpu_start = time.perf_counter(), time.process_time()
    identity = task.identity
    try:
        load_modules(task.modules)
        with MemoryLimit(identity.memory_limit_mb):
            run = solve_run(identity, task.payload, on_search_start=on_search_start)
        record = record_of_run(run)
    except MemoryError:
        record = unanswered(identity, Status.MEMORY_OUT, f"out of memory: the run needed "
                                                         f"more than {identity.memory_limit_mb} MB")
    except ModelTooLarge as error:
        record = unanswered(identity, Status.REFUSED, str(error))
    except Exception as error:
        record = unanswered(identity, Status.ERROR, describe_exception(error))
    return ended(record, wall_s=time.perf_counter() - wall_start,
                 cpu_s=time.process_time() - cpu_start)


def ended(record: RunRecord, wall_s: float | None, cpu_s: float | None) -> RunRecord:
    """``record`` with what the runner measured around it, where and when it ended."""
    return replace(record, wall_s=wall_s, cpu_s=cpu_s, worker=worker_name(),
                   finished_at=now())


def is_clean(record: RunRecord) -> bool:
    """Whether the worker that ran ``record`` may run the next task: a run that failed
    (an error, a memory-out, a refusal) may have left the process in a bad state."""
    return record.status in (Status.SOLVED, Status.UNSATISFIABLE, Status.TIMEOUT)


def describe_exception(error: BaseException) -> str:
    """``Type: message (at file:line)``: enough to find the fault, short enough for a table."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" (at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno})" if frames else ""
    return f"{type(error).__name__}: {error}{where}"


def worker_name() -> str:
    """``host:pid`` of this process, stored with each run."""
    return _named(os.getpid())


@functools.cache
def _named(pid: int) -> str:
    return f"{platform.node()}:{pid}"  # the host's name, as socket would say, without it


def now() -> str:
    """The current UTC time, ISO 8601."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class MemoryLimit:
    """Limit the address space to what the process holds now plus ``megabytes`` (None:
    no limit).

    Counting address space (not resident memory) is stricter than a cgroup limit,
    but it stops the run inside the process: Python raises ``MemoryError``, which
    becomes ``memory-out``. Where the limit cannot be set it is not enforced.
    """

    def __init__(self, megabytes: int | None) -> None:
        self.megabytes = megabytes
        self.previous: tuple[int, int] | None = None

    def __enter__(self) -> MemoryLimit:
        current = None if self.megabytes is None else _address_space_bytes()
        if current is not None and self.megabytes is not None:
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
    """The process's address space now (Linux's ``/proc/self/statm``: its first figure,
    in pages), or None where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split(maxsplit=1)[0]) * _PAGE_BYTES
    except (OSError, ValueError, IndexError):
        return None


_PAGE_BYTES = resource.getpagesize()


def serve(tasks: Channel, results: Channel, searches: SearchStarts,
          solvers: list[str]) -> None:
    """Answer tasks until the parent sends None or closes the pipe, telling ``searches``
    as each starts. The campaign's ``solvers`` are imported first, so their libraries'
    import is not in a run's time."""
    for solver in solvers:
        BACKENDS.get(solver).load()
    settled()  # the modules stay to the end: later collections leave them out
    results.send(("ready", os.getpid()))
    while True:
        try:
            task = tasks.recv()
        except EOFError:
            return
        if task is None:
            return
        record = execute(task, searches.next_task())
        results.send(("result", (record, is_clean(record))))


def main(argv: list[str]) -> None:
    """Entry point of the worker process: ``TASK_FD RESULT_FD SEARCH_FD [SOLVER,...]``,
    the pipes as inherited descriptors, then the solvers to import before the first run."""
    start_up()  # no collection while the modules are imported (puzzlelab.collector)
    task_fd, result_fd, search_fd = (int(fd) for fd in argv[:3])
    solvers = [name for name in (argv[3] if len(argv) > 3 else "").split(",") if name]
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the runner's to handle
    _die_with_parent()
    serve(Channel(task_fd), Channel(result_fd),
          SearchStarts(search_fd), solvers)


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
    from puzzlelab.quick_exit import leave

    leave(0)  # without the interpreter's teardown: the runner waits for this exit
