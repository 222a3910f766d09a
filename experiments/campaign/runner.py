"""Run a campaign: expand the spec's grid, run the missing runs, store each as it ends.

What a campaign shows (tables, ``runs.csv``, the report) is written from the store by
:mod:`experiments.analysis`; :func:`experiments.api.run_experiment` does both.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout
from rich.console import Console

from experiments.campaign import environment
from experiments.campaign.environment import describe_machine, git_commit
from experiments.campaign.executors.pool import LocalPool
from experiments.campaign.executors.worker import now
from experiments.campaign.grid import RunTask, expand
from experiments.campaign.growth import check_growth, deciding
from experiments.campaign.progress import RemainingTime, progress_bar
from experiments.campaign.record import RunRecord
from experiments.campaign.sizing import WorkerPlan, jobs_refusal, plan_workers
from experiments.campaign.spec import ExperimentSpec, check_explained
from experiments.campaign.store import ResultsStore, Session, StoredInstance
from experiments.campaign.store.batches import KEYS_PER_QUERY, batched
from experiments.campaign.tree_runs import record_trees, tree_tasks
from experiments.campaign.verdicts import summary_status
from puzzlelab.collector import making_lasting_objects
from puzzlelab.errors import OptionError, PuzzleLabError
from puzzles import PUZZLES

EXECUTORS = ("local", "dask")


@dataclass
class CampaignTally:
    """What a call of :func:`run_campaign` did (``outputs``: the files written from the
    store after it, by whoever wrote them)."""

    database: Path
    planned: int
    already_stored: int
    ran: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    #: runs stored before (this session or an earlier one) whose "unsatisfiable" a run
    #: of this session contradicted: the store marked them wrong
    marked_wrong: int = 0
    skipped: tuple[str, ...] = ()
    #: stored runs of cells the spec no longer plans: kept, not shown unless asked
    outside_grid: int = 0
    interrupted: bool = False
    outputs: list[Path] = field(default_factory=list)
    #: the worker processes this session starts for its pending runs, and why that many
    workers: WorkerPlan | None = None


DEFAULT_ROOT = Path("runs")
"""Where campaigns go by default, in the current folder: ``runs/<name>/``. Git ignores it,
so running a committed experiment leaves the checkout clean; its committed results are
made with ``--out results/<name>``."""


def results_folder(spec: ExperimentSpec, results_root: Path | None = None,
                   out: Path | None = None) -> Path:
    """Where the database and its tables live: ``out`` itself when given, else
    ``<results_root>/<spec name>`` (``runs/<name>`` by default)."""
    if out is not None and results_root is not None:
        raise OptionError("--out names the folder itself and --results the folder above "
                          "it: give one of them")
    if out is not None:
        return Path(out)
    return Path(DEFAULT_ROOT if results_root is None else results_root) / spec.name


def run_campaign(spec: ExperimentSpec, *, jobs: int | None = None, executor: str = "local",
                 scheduler: str | None = None, fresh: bool = False,
                 results_root: Path | None = None, out: Path | None = None,
                 show_progress: bool = True, console: Console | None = None,
                 on_run: Callable[[RunTask, RunRecord], None] | None = None,
                 on_start: Callable[[CampaignTally], None] | None = None,
                 on_checked: Callable[[], None] | None = None) -> CampaignTally:
    """Run every run of ``spec`` not yet stored into ``runs.sqlite`` in
    :func:`results_folder` of ``results_root`` and ``out``.

    The grid is expanded first, which checks the spec whole (instances, viewpoints,
    solvers, heuristics, the grid's size): a bad spec makes no folder and starts no
    worker. ``on_checked`` hears that it passed, before anything is made. A spec run
    again on its store runs only the cells not stored yet, having checked that it
    changes no stored run's meaning (:mod:`~experiments.campaign.growth`); ``on_start``
    hears what is planned, new and stored, and how many workers run them, before the
    first run. Workers are started for the pending runs only
    (:func:`~experiments.campaign.sizing.plan_workers`).
    A ``KeyboardInterrupt`` stops the campaign: the runs stored so far stay, the
    session is marked ``interrupted`` and the report says so; run again to resume.
    """
    if executor not in EXECUTORS:
        raise OptionError(f"unknown executor {executor!r}; valid: {', '.join(EXECUTORS)}")
    refused = None if jobs is None else jobs_refusal(jobs, environment.core_count())
    if refused:
        raise OptionError(refused)
    if scheduler is not None and executor != "dask":
        raise OptionError("--scheduler needs --executor dask")
    folder = results_folder(spec, results_root, out)
    database = folder / "runs.sqlite"
    with making_lasting_objects():  # the plan stays to the end (puzzlelab.collector)
        grid = expand(spec)
    trees = tree_tasks(spec.trees, grid.tasks, spec.error)  # a wrong name stops it here
    check_explained(spec.explain, {task.identity.instance
                                   for task in grid.tasks.first_of_each_instance()}, spec.error)
    if on_checked:
        on_checked()
    with ExitStack() as stack:
        stack.enter_context(_one_campaign_at_a_time(database))
        store = stack.enter_context(ResultsStore(database))
        if fresh:
            store.clear()
        else:
            check_growth(spec, store)
        store.set_grid(task.identity for task in grid.tasks)
        stored_by_group = store.grid_runs_stored_by_group()
        left = grid.tasks.planned_by_group() - stored_by_group
        already_stored = stored_by_group.total()
        plan = plan_workers(jobs, environment.core_count(), left.total(),
                            local=scheduler is None)
        engine = None
        if left and executor == "local":  # its workers import while the instances are stored
            engine = stack.enter_context(LocalPool(plan.workers,
                                                   log_path=folder / "workers.log"))
            engine.start([solver.name for solver in spec.solvers])
        store.store_instances(instances_of(grid.tasks.first_of_each_instance()))
        report = CampaignTally(store.path, len(grid.tasks), already_stored,
                                skipped=grid.skipped,
                                outside_grid=store.run_count() - already_stored,
                                workers=plan)
        if on_start:
            on_start(report)
        campaign = store.start_campaign(_session(spec, executor, plan.workers or None,
                                                 len(grid.tasks)))
        end_state = "finished"
        try:
            estimate = RemainingTime(left, {group: spec.time_limit for group in left},
                                     plan.workers, store.wall_seconds_by_group())
            with progress_bar(show_progress, console, len(grid.tasks), report.already_stored,
                              estimate) as advance:
                if left:
                    engine = engine or stack.enter_context(_dask(plan.workers, scheduler))
                    for task, record in engine.run(_pending(grid.tasks, store)):
                        stored, others = store.record_run(record)
                        report.ran += 1
                        report.statuses[summary_status(stored)] += 1
                        report.marked_wrong += len(others)
                        advance(task, stored)
                        if on_run:
                            on_run(task, stored)
            _record_trees(spec, trees, store, console if show_progress else None)
        except KeyboardInterrupt:
            report.interrupted = True
            end_state = "interrupted"
        except BaseException:
            end_state = "failed"
            raise
        finally:
            store.end_campaign(campaign, now(), end_state)
    return report


def _record_trees(spec: ExperimentSpec, chosen: list[RunTask], store: ResultsStore,
                  console: Console | None) -> None:
    """The search trees the spec asks for (``chosen``), recorded once the runs are stored."""
    if console is not None and chosen:
        console.print(f"recording the search trees of {len(chosen)} runs "
                      f"({', '.join(spec.trees.instances)})")

    def tell(task: RunTask, message: str) -> None:
        if console is not None:
            run = task.identity
            console.print(f"  {run.instance}, {run.viewpoint} on {run.solver}, "
                          f"{run.heuristic}: {message}")

    record_trees(store, chosen, spec.trees.nodes, tell)


def _pending(tasks: Iterable[RunTask], store: ResultsStore) -> Iterator[RunTask]:
    """The tasks not stored yet, in grid order, found a batch at a time as the runs go:
    the runner holds a batch of the grid, never the whole of it."""
    for batch in batched(tasks, KEYS_PER_QUERY):
        stored = store.stored_among([task.identity.key for task in batch])
        yield from (task for task in batch if task.identity.key not in stored)


def instances_of(tasks: Iterable[RunTask]) -> list[StoredInstance]:
    """Each instance of the grid once, as its puzzle stores it (with its known solution,
    read back under its name)."""
    seen: dict[tuple[str, str], StoredInstance] = {}
    for task in tasks:
        identity = task.identity
        kind = PUZZLES.get(identity.puzzle)
        if (identity.instance_file, identity.instance_name) not in seen:
            seen[(identity.instance_file, identity.instance_name)] = StoredInstance(
                identity.instance_file, identity.instance_name, identity.instance,
                kind.stored_text(task.payload))
    return list(seen.values())


def _session(spec: ExperimentSpec, executor: str, jobs: int | None, planned: int) -> Session:
    """The record of this session's start: the spec, the machine, the plan (``jobs``: the
    workers it runs at a time, None when it has no run to make)."""
    machine = describe_machine()
    return Session(
        name=spec.name, spec_path=str(spec.path), spec_text=spec.text,
        settings=json.dumps(deciding(spec.settings), sort_keys=True), started_at=now(),
        executor=executor, jobs=jobs,
        planned_runs=planned, package_versions=json.dumps(machine.package_versions),
        python=machine.python, platform=machine.platform, cpu_model=machine.cpu_model,
        cores=machine.cores, git_commit=git_commit(spec.path.parent) or machine.git_commit,
        host=machine.host)


@contextmanager
def _one_campaign_at_a_time(database: Path) -> Iterator[None]:
    """Two campaigns on one database would each run every pending run, and one's results
    would silently replace the other's: a second one is refused while the first runs.
    The operating system's lock goes with the process, so a killed run leaves none."""
    try:
        database.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise PuzzleLabError(f"{database.parent}: cannot create the results folder "
                             f"({error.strerror})") from None
    lock = FileLock(database.with_name(database.name + ".lock"))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise PuzzleLabError(f"another 'puzzlelab run' is using {database}; wait for it to "
                             "end, or stop it (Ctrl-C keeps its stored runs), then run again"
                             ) from None
    except OSError as error:  # a read-only mount, a folder not ours
        raise PuzzleLabError(f"{database.parent}: cannot write the results there "
                             f"({error.strerror or error}); give --out a folder you can "
                             f"write to") from None
    try:
        yield
    finally:
        lock.release()


def _dask(jobs: int, scheduler: str | None) -> AbstractContextManager[Any]:
    """The Dask executor, made once runs are pending (the local pool is made before the
    grid, its workers started)."""
    from experiments.campaign.executors.dask_cluster import DaskExecutor

    return DaskExecutor(jobs, scheduler)
