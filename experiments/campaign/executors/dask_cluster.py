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

from experiments.campaign.executors.pool import LocalPool
from experiments.campaign.executors.records import unanswered
from experiments.campaign.executors.worker import describe_exception, ended
from experiments.campaign.grid import RunTask
from experiments.campaign.record import RunRecord
from puzzlelab.errors import PuzzleLabError
from solvers import Status

_local = threading.local()


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

        futures = {self.client.submit(run_on_dask_worker, task, pure=False,
                                      key=f"puzzlelab-run-{task.identity.position}"): task
                   for task in tasks}
        try:
            for future in as_completed(futures):
                task = futures[future]
                try:
                    record = future.result()
                except Exception as error:
                    failed = unanswered(task.identity, Status.ERROR, "the Dask task failed: "
                                        + describe_exception(error))
                    record = ended(failed, None, None)
                yield task, record
        finally:
            self.client.cancel(list(futures))
