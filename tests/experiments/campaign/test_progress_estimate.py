"""The time a campaign has left: each group's own finished runs, and
the time limit for the groups none of whose runs has finished yet."""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Sequence

import pytest
from rich.console import Console

from experiments.campaign.grid import RunTask
from experiments.campaign.progress import RemainingTime, group_of
from experiments.campaign.record import RunRecord
from experiments.campaign.runner import run_campaign
from experiments.campaign.spec import load_spec
from experiments.campaign.store import ResultsStore
from tests.experiments.records import record_of, task_of


def task(viewpoint: str, number: int, time_limit: float = 10.0) -> RunTask:
    return task_of(f"i{number}", viewpoint, position=number, instance_position=number,
                   time_limit=time_limit)


def estimate_of(pending: Sequence[RunTask], jobs: int,
                stored: Sequence[RunRecord] = ()) -> RemainingTime:
    """The estimate a campaign makes of these runs to come, after these stored ones."""
    totals: dict[tuple[str, str, str], tuple[float, int]] = {}
    for run in stored:
        if run.wall_s is not None:
            seconds, count = totals.get(group_of(run.identity), (0.0, 0))
            totals[group_of(run.identity)] = (seconds + run.wall_s, count + 1)
    return RemainingTime(Counter(group_of(t.identity) for t in pending),
                         {group_of(t.identity): t.identity.time_limit for t in pending},
                         jobs, totals)


def test_a_fast_start_does_not_promise_a_fast_end() -> None:
    """Ten quick runs of one viewpoint finish first; the ten of the other, none of which
    has finished, are each expected to take the time limit, not the pace so far."""
    easy = [task("easy", n) for n in range(10)]
    hard = [task("hard", n) for n in range(10)]
    estimate = estimate_of(easy + hard, jobs=2)
    assert estimate.seconds() == pytest.approx(20 * 10.0 / 2)
    for run in easy:
        estimate.finish(run, 0.1)
    assert estimate.seconds() == pytest.approx(10 * 10.0 / 2)
    estimate.finish(hard[0], 4.0)
    estimate.finish(hard[1], 2.0)
    assert estimate.seconds() == pytest.approx(8 * 3.0 / 2)  # the hard ones' own mean
    for run in hard[2:]:
        estimate.finish(run, 3.0)
    assert estimate.seconds() == 0.0


def test_each_group_is_expected_to_take_its_own_mean() -> None:
    pending = [task("a", n) for n in range(4)] + [task("b", n) for n in range(4)]
    estimate = estimate_of(pending, jobs=1)
    estimate.finish(pending[0], 1.0)
    estimate.finish(pending[4], 5.0)
    assert estimate.expected(("a", "cp", "input/min")) == 1.0
    assert estimate.expected(("b", "cp", "input/min")) == 5.0
    assert estimate.seconds() == pytest.approx(3 * 1.0 + 3 * 5.0)


def test_a_run_without_a_measured_time_counts_as_its_time_limit() -> None:
    pending = [task("a", n, time_limit=6.0) for n in range(3)]
    estimate = estimate_of(pending, jobs=1)
    estimate.finish(pending[0], None)  # a worker killed before it could say
    assert estimate.seconds() == pytest.approx(2 * 6.0)


def test_the_longest_run_still_to_come_bounds_the_estimate_below() -> None:
    """Four jobs cannot share one run: its expected time is the least time left."""
    estimate = estimate_of([task("slow", 0, time_limit=8.0)], jobs=4)
    assert estimate.seconds() == 8.0


def test_runs_stored_before_a_resume_give_their_groups_times() -> None:
    pending = [task("a", n) for n in range(5)]
    stored = [record_of(task_of("p1", "a"), wall_s=0.5),
              record_of(task_of("p2", "a"), wall_s=1.5),
              record_of(task_of("p1", "z"), wall_s=None)]
    assert estimate_of(pending, jobs=1, stored=stored).seconds() == pytest.approx(5 * 1.0)


SPEC = """
name = "estimate"
puzzle = "sudoku"
instances = [{ file = "{data}/small_4x4.txt", select = [1, 2] }]
viewpoints = ["classic", "value-position"]
solvers = ["cp"]
heuristics = ["input/min"]
time_limit = 30
"""


def test_the_progress_bar_shows_the_estimate_and_a_resume_starts_from_the_store(
        write_spec, tmp_path) -> None:
    shown = io.StringIO()
    spec = load_spec(write_spec(SPEC))
    run_campaign(spec, jobs=1, results_root=tmp_path, show_progress=True,
                 console=Console(file=shown, width=200))
    assert "4/4" in shown.getvalue() and "~0:00:00 left" in shown.getvalue()
    assert "solved 4" in shown.getvalue()  # the last runs' counts, drawn as the bar closes
    with ResultsStore(tmp_path / "estimate" / "runs.sqlite") as store:
        rows = store.runs()
        totals = store.wall_seconds_by_group()
    again = [task(viewpoint, 0, time_limit=30.0) for viewpoint in ("classic", "value-position")]
    resumed = RemainingTime(Counter(group_of(t.identity) for t in again),
                            {group_of(t.identity): 30.0 for t in again}, 1, totals)
    assert resumed.seconds() < 2 * 30.0  # the stored runs' times, not the time limit
    assert resumed.seconds() == pytest.approx(sum(row.wall_s for row in rows) / 2)
