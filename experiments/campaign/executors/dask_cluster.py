"""The distributed engine: the same runs, limits, checks and store, on a Dask cluster.

Each Dask worker keeps one PuzzleLab worker process of its own (a
:class:`~experiments.campaign.executors.pool.LocalPool` of one), so a run that hangs or
exhausts memory is killed and recorded exactly as with the local executor, and the Dask
worker itself survives. Run records come back to the machine that runs
``puzzlelab run``, which alone writes the results store. Workers must have
PuzzleLab installed; instances travel with the tasks, but files named by a
spec's ``modules`` must be readable on the workers at the same path.
"""

from __future__ import annotations

import atexit
import logging
import threading
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

from experiments.campaign.executors.pool import LocalPool
from experiments.campaign.executors.records import unanswered
from experiments.campaign.executors.worker import describe_exception, ended
from experiments.campaign.grid import RunTask
from experiments.campaign.record import RunRecord
from puzzlelab.errors import PuzzleLabError
from solvers import Status

_local = threading.local()
IN_FLIGHT_PER_WORKER = 4
"""Dask tasks submitted and not yet ended, per Dask worker: enough to keep each busy, few
enough that a campaign of any size holds no more than these."""
SECONDS_PER_TASK = 0.5
"""The work a Dask task carries once runs' times are known (results/scale)."""
LARGEST_BATCH = 256
"""The most runs one Dask task carries."""


def run_on_dask_worker(tasks: list[RunTask]) -> list[RunRecord]:
    """Run ``tasks`` (one Dask task's batch) in this Dask worker's own PuzzleLab worker
    process, in order."""
    pool = getattr(_local, "pool", None)
    if pool is None:
        pool = _local.pool = LocalPool(1)
        atexit.register(pool.close)
    ended_runs = dict((task.identity.position, record) for task, record in pool.run(tasks))
    return [ended_runs[task.identity.position] for task in tasks]


def batch_size(mean_wall_s: float | None) -> int:
    """Runs per Dask task: one while no run has ended, then as many as take about
    :data:`SECONDS_PER_TASK` (Dask's own cost per task is a few milliseconds, the whole
    of a quick run's), at most :data:`LARGEST_BATCH`.

    >>> batch_size(None), batch_size(2.0), batch_size(0.001)
    (1, 1, 256)
    """
    if not mean_wall_s:
        return 1
    return max(1, min(LARGEST_BATCH, round(SECONDS_PER_TASK / mean_wall_s)))


class DaskExecutor:
    """Submit runs to a Dask cluster: the one at ``scheduler``, or a local one of ``jobs``."""

    def __init__(self, jobs: int, scheduler: str | None = None) -> None:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise PuzzleLabError("--executor dask needs Dask: pip install "
                                 "'puzzlelab[dask]'") from None
        self.cluster = None
        if scheduler is None:
            self.cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                        dashboard_address=None, silence_logs=logging.ERROR)
        try:
            self.client = Client(scheduler or self.cluster, timeout="30s")
        except (OSError, ValueError) as error:  # ValueError: not an address at all
            raise PuzzleLabError(f"cannot reach the Dask scheduler at {scheduler}: "
                                 f"{error}") from None
        known = len(self.client.scheduler_info().get("workers", {}))
        self.workers = max(jobs, known)  # a cluster's own workers, when it has more

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Disconnect, and stop the local cluster if this executor started one."""
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def run(self, tasks: Iterable[RunTask]) -> Iterator[tuple[RunTask, RunRecord]]:
        """Submit every task; yield ``(task, record)`` as runs end."""
        from dask.distributed import as_completed

        coming = iter(tasks)
        futures: dict[Any, list[RunTask]] = {}
        ended_runs, wall_total = 0, 0.0  # what the runs that ended so far took

        def submit() -> Any | None:
            size = batch_size(wall_total / ended_runs if ended_runs else None)
            batch = list(islice(coming, size))
            if not batch:
                return None
            future = self.client.submit(run_on_dask_worker, batch, pure=False,
                                        key=f"puzzlelab-runs-{batch[0].identity.position}")
            futures[future] = batch
            return future

        window = max(1, IN_FLIGHT_PER_WORKER * self.workers)
        started = [future for future in (submit() for _ in range(window)) if future]
        completed = as_completed(started)
        try:
            for future in completed:
                batch = futures.pop(future)
                try:
                    records = future.result()
                except Exception as error:
                    failed = [unanswered(task.identity, Status.ERROR, "the Dask task failed: "
                                         + describe_exception(error)) for task in batch]
                    records = [ended(record, None, None) for record in failed]
                timed = [record.wall_s for record in records if record.wall_s is not None]
                ended_runs, wall_total = ended_runs + len(timed), wall_total + sum(timed)
                following = submit()  # one in, one out: the tasks in flight stay few
                if following is not None:
                    completed.add(following)
                yield from zip(batch, records)
        finally:
            self.client.cancel(list(futures))
