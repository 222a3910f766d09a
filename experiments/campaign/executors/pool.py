"""A pool of long-lived worker processes that enforces each run's limits.

Each worker (:mod:`experiments.campaign.executors.worker`) pays its imports once and then runs task
after task. The pool sends a task to an idle worker and watches the clock. The time
limit bounds the search, so the clock restarts when the worker says its search
starts (:mod:`~experiments.campaign.executors.search_starts`, read as a task ends and
before a kill): a search still going ``grace`` seconds past its time limit is killed and
recorded as ``timeout``. Building the model may take as long as a search (the limit
and its grace), and is killed past that too. A worker that dies is recorded as
``error`` (or ``memory-out`` when the system killed it, or when it aborted on a C++
``std::bad_alloc``, as OR-tools does at the memory limit); either way a fresh worker
takes its place and the campaign goes on. ``runs_per_worker=1`` gives one process
per run (the runner benchmark compares the two).

Each worker also holds the next few tasks in its pipe (:data:`HELD`), so it starts one
the moment it sends a result: a run of a millisecond does not wait for the runner to
store the last one, nor for the runner's other threads. A task waiting there when its
worker is killed or dies goes back to the queue, unrun.
"""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time
from collections import deque
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from experiments.campaign.executors.channel import Channel, readable
from experiments.campaign.executors.records import unanswered
from experiments.campaign.executors.search_starts import read_search_starts
from experiments.campaign.executors.worker import ended
from experiments.campaign.grid import RunTask
from experiments.campaign.record import RunRecord
from puzzlelab.errors import PuzzleLabError
from solvers import Status
from solvers.portfolio import CORES_VARIABLE

POLL_SECONDS = 0.5
HELD = 4
"""Tasks a worker holds at most: the running one and those waiting in its pipe."""
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")  # the unit of /proc's CPU times
WORKER_MODULE = "experiments.campaign.executors.worker"
"""What each worker process runs (``python -m``)."""


def grace_seconds(time_limit: float) -> float:
    """How long past its limit a run may go before it is killed: 0.5 s plus 10 %."""
    return 0.5 + 0.1 * time_limit


def time_limit_of(task: RunTask) -> float:
    """The seconds ``task``'s search may take (a run without a limit is never killed)."""
    limit = task.identity.time_limit
    return math.inf if limit is None else limit


_BAD_ALLOC = b"instance of 'std::bad_alloc'"
"""What the C++ runtime writes to stderr when an allocation failure ends the process."""


class WorkerProcess:
    """One worker process and the pipes to it."""

    def __init__(self, log: IO[bytes] | None = None, solvers: Iterable[str] = ()) -> None:
        task_read, task_write = os.pipe()
        result_read, result_write = os.pipe()
        search_read, search_write = os.pipe()
        self.process = subprocess.Popen(
            [sys.executable, "-m", WORKER_MODULE, str(task_read), str(result_write),
             str(search_write), ",".join(solvers)],
            pass_fds=(task_read, result_write, search_write), stdin=subprocess.DEVNULL,
            stdout=log or subprocess.DEVNULL, stderr=log or subprocess.DEVNULL,
            env=_worker_environment())
        for fd in (task_read, result_write, search_write):
            os.close(fd)
        os.set_blocking(search_read, False)
        self.searches: int | None = search_read  # the pipe of its searches' starts
        self.tasks, self.results = Channel(task_write), Channel(result_read)
        self.log = log
        self.log_offset = 0  # where the log ended when the running task started
        self.ready = False
        self.task: RunTask | None = None
        self.tasks_begun = 0  # tasks begun: the running one's number in the worker
        self.queued: deque[RunTask] = deque()  # sent behind the running task, not begun
        self.started = 0.0
        self.search: tuple[float, float] | None = None  # (started, time limit) of the search
        self.cpu_at_start: float | None = None
        self.stat_file: int | None = None  # the process's /proc stat, opened at first use
        self.asked_to_stop = False
        self.runs = 0

    def send(self, task: RunTask) -> None:
        """Give this (ready) worker ``task``: it starts now if the worker is idle, else
        right after the running one."""
        self.runs += 1
        self.tasks.send(task)
        if self.task is None:
            self._begin(task)
        else:
            self.queued.append(task)

    def _begin(self, task: RunTask) -> None:
        """The worker starts ``task``: its clock starts."""
        self.task, self.started, self.search = task, time.perf_counter(), None
        self.tasks_begun += 1
        self.cpu_at_start = self.cpu_seconds()
        if self.log is not None:
            self.log_offset = os.fstat(self.log.fileno()).st_size

    def finish(self) -> RunTask:
        """The running task has ended: the next queued one, if any, begins. Returns the
        ended one."""
        assert self.task is not None
        ended_task, self.task = self.task, None
        if self.queued:
            self._begin(self.queued.popleft())
        self.hear_searches()  # the pipe stays near empty; the next task's may be there
        return ended_task

    def hear_searches(self) -> None:
        """Read what the worker told of its searches' starts: the running task's latest
        restarts its clock, counted from the task's start as the pool saw it."""
        if self.searches is None:
            return
        for number, seconds, limit in read_search_starts(self.searches):
            if number == self.tasks_begun and self.task is not None:
                self.search = (self.started + seconds,
                               time_limit_of(self.task) if limit is None else limit)

    def room(self, runs_per_worker: int | None) -> int:
        """How many more tasks this worker may be given now: :data:`HELD` in hand at most,
        and no more than it has runs left to make."""
        held = (self.task is not None) + len(self.queued)
        left = HELD if runs_per_worker is None else runs_per_worker - self.runs
        return max(0, min(HELD - held, left)) if self.ready else 0

    @property
    def deadline(self) -> float:
        """When the running task is killed: its search's limit and grace after that
        search started; before, as long from the task's start (building the model)."""
        assert self.task is not None
        started, limit = self.search or (self.started, time_limit_of(self.task))
        return started + limit + grace_seconds(limit)

    def overrun(self) -> str:
        """Why the running task is being killed at its deadline."""
        assert self.task is not None
        if self.search is None:
            limit = time_limit_of(self.task)
            return (f"killed: still building its model {limit + grace_seconds(limit):.1f} s "
                    f"after it started (a build may take the time limit and its grace)")
        limit = self.search[1]
        return (f"killed: still running {grace_seconds(limit):.1f} s after its "
                f"{limit:g} s time limit")

    def logged_since_start(self, limit: int = 1 << 16) -> bytes:
        """What the log gained since the running task started (its last ``limit`` bytes;
        other workers write there too)."""
        if self.log is None:
            return b""
        try:
            with open(self.log.name, "rb") as log:
                log.seek(max(self.log_offset, os.fstat(log.fileno()).st_size - limit))
                return log.read(limit)
        except OSError:
            return b""

    def cpu_seconds(self) -> float | None:
        """User plus system CPU seconds the process has used so far (None if unknown).
        Read at every run's start: the file stays open, read again from its start."""
        try:
            if self.stat_file is None:
                self.stat_file = os.open(f"/proc/{self.process.pid}/stat", os.O_RDONLY)
            fields = os.pread(self.stat_file, 4096, 0).rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            return None
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def ask_to_stop(self) -> bool:
        """Tell the (idle) worker to end once it has read its pipe (:meth:`stop` waits);
        whether it was told."""
        if not self.asked_to_stop:
            try:
                self.tasks.send(None)
            except OSError:
                return False
            self.asked_to_stop = True
        return True

    def stop(self, kill: bool = False) -> None:
        """End the process: politely when idle, at once with ``kill``."""
        if not kill and self.process.poll() is None:
            kill = not self.ask_to_stop()  # a closed pipe: kill it
            if not kill:
                try:
                    self.process.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    kill = True
        if kill and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.tasks.close()
        self.results.close()
        if self.searches is not None:
            os.close(self.searches)
            self.searches = None
        if self.stat_file is not None:
            os.close(self.stat_file)
            self.stat_file = None


def _worker_environment() -> dict[str, str]:
    """The parent's environment, with its import path, so workers import the same code,
    and one core per run: a portfolio solver then runs its configurations in turn in the
    worker instead of starting processes that would compete with the other runs."""
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    environment.setdefault(CORES_VARIABLE, "1")
    return environment


class LocalPool:
    """``jobs`` worker processes on this machine; :meth:`run` yields outcomes as runs end."""

    def __init__(self, jobs: int, log_path: Path | None = None,
                 runs_per_worker: int | None = None) -> None:
        self.jobs = max(1, jobs)
        self.runs_per_worker = runs_per_worker
        self.log = open(log_path, "ab") if log_path else None  # noqa: SIM115 (kept open)
        self.workers: list[WorkerProcess] = []
        self.solvers: list[str] = []  # what a new worker imports before its first run
        self.pending: deque[RunTask] = deque()  # the tasks no worker has been given

    def __enter__(self) -> LocalPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop every worker (killing busy ones) and close the log."""
        for worker in self.workers:  # the idle ones end together, not one after another
            if worker.task is None:
                worker.ask_to_stop()
        for worker in self.workers:
            worker.stop(kill=worker.task is not None)
        self.workers.clear()
        if self.log:
            self.log.close()
            self.log = None

    def start(self, solvers: Iterable[str]) -> None:
        """Start every worker now, importing ``solvers``, rather than at the first
        :meth:`run`: they import while the caller prepares the runs."""
        self.solvers = sorted(set(solvers))
        while len(self.workers) < self.jobs:
            self.workers.append(WorkerProcess(self.log, self.solvers))

    def run(self, tasks: Iterable[RunTask]) -> Iterator[tuple[RunTask, RunRecord]]:
        """Run every task; yield ``(task, record)`` in the order runs end. The tasks are
        read as workers have room for them, so a long stream of them is never held
        whole (a worker started by :meth:`start` imports its solvers beforehand; one
        started here imports each task's solver at its first run)."""
        self.pending = pending = deque[RunTask]()  # tasks given back by a worker that went away
        coming = iter(tasks)

        def next_task() -> RunTask | None:
            if pending:
                return pending.popleft()
            return next(coming, None)

        task = next_task()
        while task is not None and len(self.workers) < self.jobs:
            self.workers.append(WorkerProcess(self.log, self.solvers))
        while task is not None or any(w.task is not None for w in self.workers):
            for _ in range(HELD):  # a task to each idle worker first, then the next ones
                for worker in self.workers:
                    if task is not None and worker.room(self.runs_per_worker):
                        worker.send(task)
                        task = next_task()
            yield from self._collect()
            if task is None:
                task = next_task()  # a task given back while collecting

    def _collect(self) -> Iterator[tuple[RunTask, RunRecord]]:
        busy = [w for w in self.workers if w.task is not None]
        timeout = POLL_SECONDS
        if busy:
            timeout = max(0.0, min(POLL_SECONDS, min(w.deadline for w in busy)
                                   - time.perf_counter()))
        by_channel = {w.results: w for w in self.workers}
        for channel in readable(list(by_channel), timeout):
            worker = by_channel[channel]
            try:
                kind, body = worker.results.recv()
            except (EOFError, OSError):
                if not worker.ready:
                    raise PuzzleLabError(
                        f"a worker process could not start ({self._death(worker)[1]}); "
                        f"run `{sys.executable} -m {WORKER_MODULE}` to see why") from None
                yield from self._replace(worker, *self._death(worker))
                continue
            if kind == "ready":
                worker.ready = True
            elif kind == "result" and worker.task is not None:
                record, clean = body
                if not clean:  # this worker is replaced: its next task goes back, unrun
                    self._requeue(worker)
                task = worker.finish()
                yield task, record
                if not clean or (worker.runs == self.runs_per_worker and worker.task is None):
                    self._swap(worker)
        for worker in busy:
            if worker.task is not None and time.perf_counter() > worker.deadline:
                worker.hear_searches()  # a search begun since moves the deadline on
                if time.perf_counter() > worker.deadline:
                    yield from self._replace(worker, Status.TIMEOUT, worker.overrun())

    def _death(self, worker: WorkerProcess) -> tuple[Status, str]:
        code = worker.process.wait()
        if code == -signal.SIGKILL:
            return Status.MEMORY_OUT, "the worker was killed by the system (out of memory?)"
        if code == -signal.SIGABRT and _BAD_ALLOC in worker.logged_since_start():
            # C++ code (OR-tools) that cannot allocate aborts rather than raise MemoryError
            return Status.MEMORY_OUT, ("out of memory: the solver's compiled code could not "
                                       "allocate (std::bad_alloc) within the memory limit")
        if code < 0:
            return Status.ERROR, f"the worker died of signal {signal.Signals(-code).name}"
        return Status.ERROR, f"the worker exited with status {code}"

    def _replace(self, worker: WorkerProcess, status: Status,
                 message: str) -> Iterator[tuple[RunTask, RunRecord]]:
        task, worker.task = worker.task, None  # reported here, and only here
        self._requeue(worker)
        wall, cpu = time.perf_counter() - worker.started, worker.cpu_seconds()
        worker.stop(kill=True)
        if task is not None:
            used = None if cpu is None or worker.cpu_at_start is None else cpu - worker.cpu_at_start
            yield task, ended(unanswered(task.identity, status, message), wall_s=wall,
                              cpu_s=used)
        self._swap(worker, stopped=True)

    def _requeue(self, worker: WorkerProcess) -> None:
        """The tasks waiting in a worker that is going away go back to the queue's front."""
        while worker.queued:
            self.pending.appendleft(worker.queued.pop())
            worker.runs -= 1

    def _swap(self, worker: WorkerProcess, stopped: bool = False) -> None:
        self._requeue(worker)
        if not stopped:
            worker.stop(kill=True)
        self.workers[self.workers.index(worker)] = WorkerProcess(self.log, self.solvers)
