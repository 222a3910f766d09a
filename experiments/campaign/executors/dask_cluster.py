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
"""Tasks submitted and not yet ended, per Dask worker: enough to keep each busy, few
enough that a campaign of any size holds no more than these."""


def run_on_dask_worker(task: RunTask) -> RunRecord:
    """Run ``task`` in this Dask worker's own PuzzleLab worker process."""
    pool = getattr(_local, "pool", None)
    if pool is None:
        pool = _local.pool = LocalPool(1)
        atexit.register(pool.close)
    [(_, record)] = list(pool.run([task]))
    return record


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
        futures: dict[Any, RunTask] = {}

        def submit() -> Any | None:
            task = next(coming, None)
            if task is None:
                return None
            future = self.client.submit(run_on_dask_worker, task, pure=False,
                                        key=f"puzzlelab-run-{task.identity.position}")
            futures[future] = task
            return future

        window = max(1, IN_FLIGHT_PER_WORKER * self.workers)
        started = [future for future in (submit() for _ in range(window)) if future]
        completed = as_completed(started)
        try:
            for future in completed:
                task = futures.pop(future)
                following = submit()  # one in, one out: the tasks in flight stay few
                if following is not None:
                    completed.add(following)
                try:
                    record = future.result()
                except Exception as error:
                    failed = unanswered(task.identity, Status.ERROR, "the Dask task failed: "
                                        + describe_exception(error))
                    record = ended(failed, None, None)
                yield task, record
        finally:
            self.client.cancel(list(futures))
