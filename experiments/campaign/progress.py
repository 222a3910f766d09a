"""What a running campaign shows: a progress bar with the runs done, how many of each
status, and the time left, estimated from each kind of run's own pace."""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)

from experiments.campaign.grid import RunTask
from experiments.campaign.identity import RunIdentity
from experiments.campaign.record import RunRecord
from experiments.campaign.verdicts import Verdict, summary_status
from solvers.record import Status

Group = tuple[str, str, str]
REFRESHES = 10
"""How many times a second the bar is drawn again, and told the runs at most."""


def outcome_counts(counts: Counter[str]) -> str:
    """The runs of this session by status, in the order of ``Status``, zeros left out.

    >>> outcome_counts(Counter(["timeout", "solved", "refused", "solved", "wrong"]))
    'solved 2  timeout 1  refused 1  wrong 1'
    """
    names = [status.value for status in Status] + [Verdict.WRONG.value]
    return "  ".join(f"{name} {counts[name]}" for name in names if counts[name])


class RemainingTime:
    """How long the runs not yet finished will take, for the progress bar.

    Each run is expected to take the mean wall time of the finished runs of its group
    (same viewpoint, solver and heuristic: a column group of the tables), stored ones
    included, and its time limit while none of its group has finished. The sum is shared
    among the jobs. A grid of easy and hard combinations gets an estimate from each one's
    own runs, rather than from the pace of the latest runs.
    """

    def __init__(self, left: Mapping[Group, int], limits: Mapping[Group, float | None],
                 jobs: int, stored: Mapping[Group, tuple[float, int]] | None = None) -> None:
        """``left``: the runs to come of each group; ``limits``: each group's time limit;
        ``stored``: the total wall time of each group's stored runs, and how many."""
        self.jobs = max(1, jobs)
        self.left: Counter[Group] = Counter(left)
        self.limit = dict(limits)
        self.total: defaultdict[Group, float] = defaultdict(float)
        self.finished: Counter[Group] = Counter()
        for group, (seconds, count) in (stored or {}).items():
            self.total[group] += seconds
            self.finished[group] += count

    def finish(self, task: RunTask, wall_seconds: float | None) -> None:
        """Count one run of this session as finished, after ``wall_seconds``."""
        group = group_of(task.identity)
        self.left[group] -= 1
        self._add(group, wall_seconds if wall_seconds is not None else task.identity.time_limit)

    def _add(self, group: Group, seconds: float | None) -> None:
        if seconds is not None:
            self.total[group] += seconds
            self.finished[group] += 1

    def expected(self, group: Group) -> float:
        """Seconds one run of ``group`` is expected to take."""
        if self.finished[group]:
            return self.total[group] / self.finished[group]
        return self.limit.get(group) or 0.0

    def seconds(self) -> float:
        """Seconds until every run has finished: the expected times shared among the jobs,
        and no less than the longest single run still to come."""
        expected = [(self.expected(group), count) for group, count in self.left.items()
                    if count > 0]
        if not expected:
            return 0.0
        return max(sum(time * count for time, count in expected) / self.jobs,
                   max(time for time, _ in expected))


def group_of(identity: RunIdentity) -> Group:
    """The column group a run belongs to: its viewpoint, solver and heuristic."""
    return identity.viewpoint, identity.solver, identity.heuristic


def clock(seconds: float) -> str:
    """``h:mm:ss``, as the progress bar shows times.

    >>> clock(3725.4)
    '1:02:05'
    """
    whole = round(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


@contextmanager
def progress_bar(shown: bool, console: Console | None, total: int, already_stored: int,
                 estimate: RemainingTime) -> Iterator[Callable[[RunTask, RunRecord], None]]:
    """A progress bar with the runs done, how many of each status, and the time left
    (:class:`RemainingTime`); yields the function that counts one finished run."""
    if not shown:  # nothing to count: a run of a millisecond should not pay for it
        yield lambda run, record: None
        return
    counts: Counter[str] = Counter()
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[counts]}"), TimeElapsedColumn(),
                  TextColumn("{task.fields[left]} left"), console=console, transient=False,
                  refresh_per_second=REFRESHES) as bar:
        task = bar.add_task("runs", total=total, completed=already_stored, counts="",
                            left="~" + clock(estimate.seconds()))
        told = time.monotonic()  # when the bar last heard of the runs

        def update() -> None:
            nonlocal told
            bar.update(task, completed=already_stored + counts.total(),
                       counts=outcome_counts(counts), left="~" + clock(estimate.seconds()))
            told = time.monotonic()

        def advance(run: RunTask, record: RunRecord) -> None:
            counts[summary_status(record)] += 1
            estimate.finish(run, record.wall_s)
            if time.monotonic() - told >= 1 / REFRESHES:  # no faster than it is drawn
                update()

        try:
            yield advance
        finally:
            update()  # the last runs too, drawn as the bar closes
