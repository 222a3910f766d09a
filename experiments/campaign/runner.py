"""Run a campaign: expand the spec's grid, run the missing runs, store each, write tables."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)

from experiments.analysis.tables import format_table
from experiments.campaign.environment import core_count, describe_machine, git_commit
from experiments.campaign.executors.pool import LocalPool
from experiments.campaign.executors.worker import now
from experiments.campaign.grid import RunTask, expand
from experiments.campaign.spec import ExperimentSpec
from experiments.campaign.store import ResultsStore, runs_as_csv
from puzzlelab.errors import OptionError, PuzzleLabError
from solvers.record import Status

EXECUTORS = ("local", "dask")
OUTPUT_FILES = {"table.md": "markdown", "table.tex": "latex"}


@dataclass
class CampaignReport:
    """What a call of :func:`run_campaign` did."""

    database: Path
    planned: int
    already_stored: int
    ran: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    #: runs stored before (this session or an earlier one) whose "unsatisfiable" a run
    #: of this session contradicted: the store marked them wrong
    marked_wrong: int = 0
    skipped: tuple[str, ...] = ()
    interrupted: bool = False
    outputs: list[Path] = field(default_factory=list)


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
                 on_run: Callable[[RunTask, dict[str, Any]], None] | None = None
                 ) -> CampaignReport:
    """Run every run of ``spec`` not yet stored, then write the tables next to the database
    (in :func:`results_folder` of ``results_root`` and ``out``).

    A ``KeyboardInterrupt`` stops the campaign: the runs stored so far stay, the
    session is marked ``interrupted`` and the report says so; run again to resume.
    """
    if executor not in EXECUTORS:
        raise OptionError(f"unknown executor {executor!r}; valid: {', '.join(EXECUTORS)}")
    if jobs is not None and jobs < 1:
        raise OptionError(f"--jobs must be at least 1, not {jobs}")
    folder = results_folder(spec, results_root, out)
    grid = expand(spec)
    jobs = jobs or core_count()
    database = folder / "runs.sqlite"
    with _one_campaign_at_a_time(database), ResultsStore(database) as store:
        if fresh:
            store.clear()
        else:
            _check_same_spec(spec, store)
        done = store.finished_keys()
        pending = [task for task in grid.tasks if task.key not in done]
        report = CampaignReport(store.path, len(grid.tasks), len(grid.tasks) - len(pending),
                                skipped=grid.skipped)
        machine = describe_machine()
        machine["git_commit"] = git_commit(spec.path.parent) or machine["git_commit"]
        campaign = store.start_campaign({
            "name": spec.name, "spec_path": str(spec.path), "spec_text": spec.text,
            "settings": _settings_json(spec), "started_at": now(), "executor": executor,
            "jobs": jobs, "planned_runs": len(grid.tasks), **machine,
            "package_versions": json.dumps(machine["package_versions"])})
        end_state = "finished"
        try:
            estimate = RemainingTime(pending, jobs, store.runs())
            with _progress(show_progress, console, len(grid.tasks), report,
                           estimate) as advance:
                if pending:
                    with _executor(executor, jobs, scheduler, folder) as engine:
                        for task, outcome in engine.run(pending):
                            marked = store.record_run(task, outcome)
                            report.ran += 1
                            report.statuses[summary_status(outcome)] += 1
                            report.marked_wrong += len(set(marked) - {task.key})
                            advance(task, outcome)
                            if on_run:
                                on_run(task, outcome)
        except KeyboardInterrupt:
            report.interrupted = True
            end_state = "interrupted"
        except BaseException:
            end_state = "failed"
            raise
        finally:
            store.end_campaign(campaign, now(), end_state)
            report.outputs = write_outputs(store, folder, spec.table_metrics, spec.table_by,
                                           spec.table_reached)
    return report


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
    try:
        yield
    finally:
        lock.release()


def write_outputs(store: ResultsStore, folder: Path,
                  metrics: Sequence[str] = ("time", "backtracks"),
                  by: str = "viewpoint", reached: bool = False) -> list[Path]:
    """Write ``table.md``, ``table.tex`` and ``runs.csv`` from the stored runs."""
    rows, plan = store.runs(), store.plan()
    written = []
    for name, fmt in OUTPUT_FILES.items():
        path = folder / name
        text = (format_table(rows, by=by, metrics=metrics, fmt=fmt, reached=reached,
                             repeats=plan.repeats, planned_runs=plan.runs) if rows else "")
        path.write_text(text, encoding="utf-8")
        written.append(path)
    path = folder / "runs.csv"
    path.write_text(runs_as_csv(rows), encoding="utf-8")
    written.append(path)
    return written


PRESENTATION_KEYS = ("description", "table")
"""Spec fields that change how runs are shown, not which runs are made."""


def _settings_json(spec: ExperimentSpec) -> str:
    """The spec's settings that decide its runs (free text and tables left out), as JSON."""
    return json.dumps(_deciding(spec.settings), sort_keys=True)


def _deciding(settings: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in settings.items() if k not in PRESENTATION_KEYS}


def _check_same_spec(spec: ExperimentSpec, store: ResultsStore) -> None:
    sessions = store.campaigns()
    if not sessions or not store.finished_keys():
        return
    before = _deciding(json.loads(sessions[-1]["settings"]))
    now_settings = json.loads(_settings_json(spec))
    changed = sorted(k for k in before.keys() | now_settings.keys()
                     if before.get(k) != now_settings.get(k))
    if changed:
        stored_from = str(sessions[-1]["spec_path"])
        moved = (f" (they were made from {stored_from}, and a spec's instance files are "
                 f"written relative to it)" if stored_from != str(spec.path) else "")
        raise spec.error(changed[0], f"changed since the runs stored in {store.path} were "
                         f"made{moved} (changed: {', '.join(changed)}); run with --fresh to "
                         f"start over, or give the experiment a new name")


def _executor(name: str, jobs: int, scheduler: str | None,
              folder: Path) -> AbstractContextManager[Any]:
    if name == "dask":
        from experiments.campaign.executors.dask_cluster import DaskExecutor

        return DaskExecutor(jobs, scheduler)
    if scheduler is not None:
        raise OptionError("--scheduler needs --executor dask")
    return LocalPool(jobs, log_path=folder / "workers.log")


def summary_status(outcome: dict[str, Any]) -> str:
    """How a finished run is counted in the summary: its status, or ``wrong`` when its
    answer was found wrong (a solution the checker rejects, a contradicted
    "unsatisfiable"), which the store keeps as an ``error`` with verdict ``wrong``."""
    return "wrong" if outcome.get("verdict") == "wrong" else str(outcome["status"])


def outcome_counts(counts: Counter[str]) -> str:
    """The runs of this session by status, in the order of ``Status``, zeros left out.

    >>> outcome_counts(Counter(["timeout", "solved", "refused", "solved", "wrong"]))
    'solved 2  timeout 1  refused 1  wrong 1'
    """
    names = [status.value for status in Status] + ["wrong"]
    return "  ".join(f"{name} {counts[name]}" for name in names if counts[name])


class RemainingTime:
    """How long the runs not yet finished will take, for the progress bar.

    Each run is expected to take the mean wall time of the finished runs of its group
    (same viewpoint, solver and heuristic: a column group of the tables), stored ones
    included, and its time limit while none of its group has finished. The sum is shared
    among the jobs. A grid of easy and hard combinations gets an estimate from each one's
    own runs, rather than from the pace of the latest runs.
    """

    def __init__(self, pending: Sequence[RunTask], jobs: int,
                 stored: Sequence[Mapping[str, Any]] = ()) -> None:
        self.jobs = max(1, jobs)
        self.left: Counter[tuple[str, str, str]] = Counter(_group(t) for t in pending)
        self.limit = {_group(task): task.time_limit for task in pending}
        self.total: defaultdict[tuple[str, str, str], float] = defaultdict(float)
        self.finished: Counter[tuple[str, str, str]] = Counter()
        for row in stored:
            self._add((row["viewpoint"], row["solver"], row["heuristic"]), row.get("wall_s"))

    def finish(self, task: RunTask, wall_seconds: float | None) -> None:
        """Count one run of this session as finished, after ``wall_seconds``."""
        group = _group(task)
        self.left[group] -= 1
        self._add(group, wall_seconds if wall_seconds is not None else task.time_limit)

    def _add(self, group: tuple[str, str, str], seconds: float | None) -> None:
        if seconds is not None:
            self.total[group] += seconds
            self.finished[group] += 1

    def expected(self, group: tuple[str, str, str]) -> float:
        """Seconds one run of ``group`` is expected to take."""
        if self.finished[group]:
            return self.total[group] / self.finished[group]
        return self.limit.get(group, 0.0)

    def seconds(self) -> float:
        """Seconds until every run has finished: the expected times shared among the jobs,
        and no less than the longest single run still to come."""
        expected = [(self.expected(group), count) for group, count in self.left.items()
                    if count > 0]
        if not expected:
            return 0.0
        return max(sum(time * count for time, count in expected) / self.jobs,
                   max(time for time, _ in expected))


def _group(task: RunTask) -> tuple[str, str, str]:
    return task.viewpoint, task.solver, task.heuristic


def clock(seconds: float) -> str:
    """``h:mm:ss``, as the progress bar shows times.

    >>> clock(3725.4)
    '1:02:05'
    """
    whole = round(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


@contextmanager
def _progress(shown: bool, console: Console | None, total: int, report: CampaignReport,
              estimate: RemainingTime) -> Iterator[Callable[[RunTask, dict[str, Any]], None]]:
    """A progress bar with the runs done, how many of each status, and the time left
    (:class:`RemainingTime`); yields the function that counts one finished run."""
    counts: Counter[str] = Counter()
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[counts]}"), TimeElapsedColumn(),
                  TextColumn("{task.fields[left]} left"), console=console, transient=False,
                  disable=not shown) as bar:
        task = bar.add_task("runs", total=total, completed=report.already_stored, counts="",
                            left="~" + clock(estimate.seconds()))

        def advance(run: RunTask, outcome: dict[str, Any]) -> None:
            counts[summary_status(outcome)] += 1
            estimate.finish(run, outcome.get("wall_s"))
            bar.update(task, advance=1, counts=outcome_counts(counts),
                       left="~" + clock(estimate.seconds()))

        yield advance
