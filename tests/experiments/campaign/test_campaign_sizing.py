"""A campaign in proportion: the worker processes it starts are no more than its runs to
make and a few per core, and a ``--jobs`` no machine runs is refused before anything is
made."""

from __future__ import annotations

import pytest

from experiments.campaign.executors import pool
from experiments.campaign.runner import run_campaign
from experiments.campaign.sizing import JOBS_PER_CORE, MAX_JOBS, plan_workers
from experiments.campaign.spec import load_spec
from puzzlelab.errors import OptionError
from tests.facts import facts, states

SPEC = """
name = "sized"
puzzle = "sudoku"
instances = [{ file = "{data}/small_4x4.txt", select = [1, 2] }]
viewpoints = ["classic"]
solvers = ["cp"]
heuristics = ["input/min"]
time_limit = 5
"""


@pytest.mark.parametrize(("jobs", "cores", "pending", "workers"), [
    (64, 2, 0, 0),  # nothing to run: no worker
    (64, 2, 3, 3),  # no more than the runs to make
    (64, 2, 1000, 2 * JOBS_PER_CORE),  # no more than a few per core
    (None, 2, 1000, 2),  # one per core by default
    (None, 16, 5, 5),
    (3, 2, 1000, 3),  # more than the cores when asked, within the few per core
])
def test_the_plan_starts_workers_in_proportion(jobs, cores, pending, workers) -> None:
    assert plan_workers(jobs, cores, pending).workers == workers


def test_a_cluster_is_not_capped_by_this_machines_cores() -> None:
    assert plan_workers(64, cores=2, pending=1000, local=False).workers == 64


def test_the_plan_says_when_it_starts_fewer_workers_than_asked() -> None:
    capped = plan_workers(64, cores=2, pending=1000).note()
    assert capped is not None and capped.startswith("warning:")
    assert states(capped, "--jobs 64", f"{2 * JOBS_PER_CORE} worker processes", "2 cores")
    fewer = plan_workers(8, cores=16, pending=3).note()
    assert fewer is not None and states(fewer, "--jobs 8", "3 worker processes")
    assert plan_workers(None, cores=2, pending=1000).note() is None  # as asked: the cores
    assert plan_workers(2, cores=2, pending=1000).note() is None
    assert plan_workers(64, cores=2, pending=0).note() is None  # no worker: nothing to say


def test_with_nothing_pending_no_worker_starts(write_spec, tmp_path, monkeypatch) -> None:
    spec = load_spec(write_spec(SPEC))
    run_campaign(spec, jobs=1, results_root=tmp_path, show_progress=False)
    started = []
    real = pool.WorkerProcess

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        started.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(pool, "WorkerProcess", counted)
    again = run_campaign(spec, jobs=64, results_root=tmp_path, show_progress=False)
    assert again.ran == 0 and again.workers is not None and again.workers.workers == 0
    assert started == []


def test_a_jobs_no_machine_runs_is_refused_before_anything_is_made(write_spec,
                                                                   tmp_path) -> None:
    spec = load_spec(write_spec(SPEC))
    with pytest.raises(OptionError, match=facts("--jobs 99999999999999999999",
                                                f"{MAX_JOBS:,}")):
        run_campaign(spec, jobs=99999999999999999999, results_root=tmp_path,
                     show_progress=False)
    assert not (tmp_path / "sized").exists()


def test_the_docs_state_the_limits_the_code_applies() -> None:
    """The prose that gives the limits names the constants' values (one place: sizing)."""
    from experiments.campaign.sizing import JOBS_PER_CORE, MAX_JOBS, MAX_RUNS
    from tests.paths import ROOT

    commands = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    experiments = (ROOT / "docs" / "experiments.md").read_text(encoding="utf-8")
    assert f"no more than {JOBS_PER_CORE}\n  per core" in commands
    assert f"above {MAX_JOBS:,} is refused" in commands
    assert f"plans at most {MAX_RUNS:,} runs" in experiments
