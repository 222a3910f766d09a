"""The runner: full grids, faults recorded and survived, resumption, the Dask engine."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from experiments.api import run_experiment
from experiments.campaign.executors.pool import LocalPool
from experiments.campaign.grid import expand
from experiments.campaign.record import RunRecord
from experiments.campaign.runner import run_campaign
from experiments.campaign.spec import load_spec
from experiments.campaign.store import ResultsStore
from puzzlelab.errors import PuzzleLabError, SpecError
from tests.facts import facts, states
from tests.paths import NONOGRAM_DATA, SUDOKU_DATA

SMALL = """
name = "small"
puzzle = "sudoku"
instances = [{ file = "{data}/small_4x4.txt", select = [1, 2, 3] }]
viewpoints = ["classic", { name = "channeled", options = { alldiff = "strong" }, label = "ch" }]
solvers = ["cp", "cpsat"]
heuristics = ["input/min", "first-fail/min"]
repeats = 2
time_limit = 10
"""


def stored(results: Path, name: str) -> list[RunRecord]:
    with ResultsStore(results / name / "runs.sqlite") as store:
        return store.runs()


def test_a_small_spec_runs_every_cell_and_checks_every_solution(write_spec, tmp_path) -> None:
    spec = load_spec(write_spec(SMALL))
    report = run_experiment(spec, jobs=2, results_root=tmp_path).campaign
    rows = stored(tmp_path, "small")
    assert report.planned == report.ran == len(rows) == 3 * 2 * 2 * 2 * 2
    assert {(r.status, r.verdict, r.matches_known) for r in rows} == {
        ("solved", "correct", 1)}
    assert all(r.violations == () for r in rows)
    assert all(r.wall_s > 0 and r.cpu_s is not None for r in rows)
    assert len({r.identity.key for r in rows}) == len(rows)
    for row in rows:  # backtracks only where the solver counts them
        assert (row.figure("backtracks") is None) == (row.identity.solver == "cpsat")
    repeated = {}
    for row in rows:
        if row.identity.solver == "cp":
            key = (row.identity.instance, row.identity.viewpoint, row.identity.heuristic)
            repeated.setdefault(key, set()).add(row.figure("backtracks"))
    assert all(len(values) == 1 for values in repeated.values())  # cp is deterministic
    campaign = ResultsStore(tmp_path / "small" / "runs.sqlite").sessions()[-1]
    assert campaign.end_state == "finished" and campaign.spec_text == spec.text
    assert "ortools" in json.loads(campaign.package_versions or "{}")
    assert campaign.cores >= 1 and campaign.python.startswith("3.")
    table = (tmp_path / "small" / "table.md").read_text()
    assert "classic" in table and "ch" in table and "small_4x4#3" in table
    assert (tmp_path / "small" / "runs.csv").read_text().count("\n") == len(rows) + 1


FAULTS = """
name = "faults"
puzzle = "sudoku"
modules = ["{faulty}"]
instances = [{ file = "{data}/small_4x4.txt", select = [1] }]
viewpoints = ["test-hang", "test-raise", "test-allocate", "test-crash", "classic"]
solvers = ["cp"]
heuristics = ["input/min"]
time_limit = 1.0
memory_limit_mb = 256
"""


def test_faulty_runs_are_recorded_and_the_campaign_goes_on(write_spec, tmp_path,
                                                           clean_registry) -> None:
    spec = load_spec(write_spec(FAULTS))
    run_campaign(spec, jobs=2, results_root=tmp_path, show_progress=False)
    rows = {r.identity.viewpoint: r for r in stored(tmp_path, "faults")}
    assert rows["classic"].status == "solved" and rows["classic"].verdict == "correct"
    hang = rows["test-hang"]
    assert hang.status == "timeout" and "time limit" in hang.message
    assert "still running" in hang.message  # its search had started: not "still building"
    assert 1.0 <= hang.wall_s <= 1.0 + 0.6 + 1.0  # the limit, the grace, a margin
    assert rows["test-raise"].status == "error"
    # the exception's type and its own message
    assert states(rows["test-raise"].message, "RuntimeError", "deliberate failure")
    assert rows["test-allocate"].status == "memory-out"
    assert "256 MB" in rows["test-allocate"].message
    assert rows["test-crash"].status == "error"
    assert "SIGSEGV" in rows["test-crash"].message
    assert all(rows[v].verdict == "unchecked" for v in rows if v != "classic")


def test_a_solver_that_cannot_allocate_is_a_memory_out(write_spec, tmp_path) -> None:
    """OR-tools' C++ code aborts on std::bad_alloc where Python would raise MemoryError.
    A 25x25 grid, so that the run surely needs more than the 1 MB of headroom (a 4x4
    may fit in what the worker's heap already holds free)."""
    text = (SMALL.replace("small_4x4.txt", "kul_25x25.txt").replace("[1, 2, 3]", "[1]")
            .replace("repeats = 2", "repeats = 1").replace('["cp", "cpsat"]', '["cp"]')
            + "memory_limit_mb = 1\n")
    run_campaign(load_spec(write_spec(text)), jobs=1, results_root=tmp_path,
                 show_progress=False)
    rows = stored(tmp_path, "small")
    assert rows and {r.status for r in rows} == {"memory-out"}
    assert all("memory" in r.message for r in rows)


def test_the_time_limit_bounds_the_search_not_the_model_build(write_spec, tmp_path,
                                                              clean_registry) -> None:
    spec = load_spec(write_spec(FAULTS.replace('"test-hang", "test-raise", "test-allocate", '
                                               '"test-crash", "classic"',
                                               '"test-slow-build", "test-hang-build"')))
    run_campaign(spec, jobs=2, results_root=tmp_path, show_progress=False)
    rows = {r.identity.viewpoint: r for r in stored(tmp_path, "faults")}
    slow = rows["test-slow-build"]  # 1.8 s in all, but its search is well within 1 s
    assert slow.status == "solved" and slow.verdict == "correct", slow.message
    hung = rows["test-hang-build"]
    assert hung.status == "timeout" and "still building its model" in hung.message
    assert 1.6 <= hung.wall_s <= 1.6 + 1.0  # the limit and its grace, and a margin


def test_a_dead_worker_is_reported_once_however_slow_the_consumer(write_spec,
                                                                  clean_registry) -> None:
    # the worker dies right after its search; while the consumer stores that outcome,
    # the run's deadline passes: the pool must not report the same run again as a timeout
    spec = load_spec(write_spec(FAULTS.replace('"test-hang", "test-raise", "test-allocate", ',
                                               "").replace("time_limit = 1.0",
                                                           "time_limit = 0.1")))
    tasks = expand(spec).tasks
    seen = []
    with LocalPool(1) as pool:
        for task, outcome in pool.run(tasks):
            seen.append((task.identity.viewpoint, outcome.status))
            time.sleep(1.0)  # past the run's deadline (limit + grace)
    assert sorted(seen) == [("classic", "solved"), ("test-crash", "error")]


def test_a_task_waiting_behind_a_failing_run_is_run_once_by_another_worker(
        write_spec, clean_registry) -> None:
    """Each worker holds its next task while it runs one; when that run crashes, hangs
    or fails, the waiting task goes back to the queue: every task ends exactly once."""
    spec = load_spec(write_spec(FAULTS.replace("time_limit = 1.0", "time_limit = 0.2")
                                .replace("select = [1]", "select = [1, 2, 3]")))
    tasks = expand(spec).tasks
    assert len(tasks) == 15
    with LocalPool(1) as pool:
        ended = [(task.identity.key, outcome) for task, outcome in pool.run(tasks)]
    assert sorted(key for key, _ in ended) == sorted(task.identity.key for task in tasks)
    assert {outcome.status for key, outcome in ended
            if "classic" in key} == {"solved"}


def test_a_model_past_its_size_option_is_stored_as_refused(write_spec, tmp_path) -> None:
    knotty = NONOGRAM_DATA / "webpbn_survey" / "knotty.non"
    spec = load_spec(write_spec(f"""
name = "refusal"
puzzle = "nonogram"
instances = ["{knotty.as_posix()}"]
viewpoints = [{{ name = "line-table", options = {{ max_placements = 1000 }} }}]
solvers = ["cp"]
heuristics = ["input/min"]
"""))
    report = run_experiment(spec, jobs=1, results_root=tmp_path).campaign
    [row] = stored(tmp_path, "refusal")
    assert report.statuses == {"refused": 1}
    assert row.status == "refused" and row.verdict == "unchecked"
    # the line refused, its size, and the option's value that refused it
    assert states(row.message, "row 1", "placements", "max_placements=1,000")
    assert "| n/a |" in (tmp_path / "refusal" / "table.md").read_text()


def test_a_search_longer_than_its_limit_is_a_timeout_near_the_limit(write_spec,
                                                                    tmp_path) -> None:
    spec = load_spec(write_spec("""
name = "slow"
puzzle = "sudoku"
instances = [{ file = "{data}/norvig_hardest.txt", select = [1] }, "{data}/small_4x4.txt"]
viewpoints = ["classic"]
solvers = ["python-constraint"]
heuristics = ["input/max"]
time_limit = 0.3
"""))
    run_campaign(spec, jobs=2, results_root=tmp_path, show_progress=False)
    rows = stored(tmp_path, "slow")
    hard, *easy = rows
    assert hard.status == "timeout" and hard.figure("backtracks") > 0
    assert 0.25 <= hard.figure("solve_s") <= 0.3 + 0.5
    assert hard.wall_s <= 0.3 + 2.0  # model building is outside the search limit
    assert len(easy) == 6 and all(r.status == "solved" for r in easy)


SLOW = """
name = "interrupted"
puzzle = "sudoku"
modules = ["{faulty}"]
instances = ["{data}/small_4x4.txt"]
viewpoints = ["test-slow"]
solvers = ["cp", "cpsat"]
heuristics = ["input/min"]
repeats = 2
"""


def _count_rows(database: Path) -> int:
    try:
        with sqlite3.connect(database) as connection:
            return connection.execute("SELECT count(*) FROM runs").fetchone()[0]
    except sqlite3.Error:
        return 0


def _start_and_stop(path: Path, database: Path, how: signal.Signals,
                    meanwhile: Callable[[], None] = lambda: None) -> int:
    """Start ``puzzlelab run`` on ``path``, call ``meanwhile`` once 4 runs are stored, then
    send ``how``; its exit code."""
    runner = subprocess.Popen([sys.executable, "-m", "experiments", "run", str(path),
                               "--jobs", "2", "--results", str(database.parents[1]),
                               "--no-progress"],
                              env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while _count_rows(database) < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        meanwhile()
    finally:
        runner.send_signal(how)
    return runner.wait(timeout=60)


def test_a_killed_campaign_resumes_without_duplicates_or_gaps(write_spec, tmp_path,
                                                              clean_registry) -> None:
    path = write_spec(SLOW)
    database = tmp_path / "interrupted" / "runs.sqlite"
    _start_and_stop(path, database, signal.SIGKILL)
    before = _count_rows(database)
    assert 4 <= before < 24, "the campaign should have been killed half-way"
    report = run_campaign(load_spec(path), jobs=2, results_root=tmp_path, show_progress=False)
    rows = stored(tmp_path, "interrupted")
    assert report.already_stored == before and report.ran == 24 - before
    assert len(rows) == len({r.identity.key for r in rows}) == 24
    assert {r.status for r in rows} == {"solved"}


def test_a_stopped_campaign_records_the_stop_and_writes_its_tables(write_spec, tmp_path,
                                                                   clean_registry) -> None:
    database = tmp_path / "interrupted" / "runs.sqlite"
    assert _start_and_stop(write_spec(SLOW), database, signal.SIGTERM) == 130
    with ResultsStore(database) as store:
        assert store.sessions()[-1].end_state == "interrupted"
        assert 4 <= len(store.runs()) < 24
    assert "test-slow" in (tmp_path / "interrupted" / "table.md").read_text()


def test_a_second_campaign_on_a_running_database_is_refused(write_spec, tmp_path,
                                                            clean_registry) -> None:
    path = write_spec(SLOW)
    database = tmp_path / "interrupted" / "runs.sqlite"
    kept = []

    def second_campaign() -> None:
        # the database, that another run holds it, and what to do
        with pytest.raises(PuzzleLabError, match=facts("puzzlelab run", str(database), "wait")):
            run_campaign(load_spec(path), jobs=1, fresh=True, results_root=tmp_path,
                         show_progress=False)
        kept.append(_count_rows(database))

    assert _start_and_stop(path, database, signal.SIGTERM, second_campaign) == 130
    assert kept and kept[0] >= 4  # --fresh cleared nothing of the running campaign's
    report = run_campaign(load_spec(path), jobs=2, results_root=tmp_path, show_progress=False)
    assert report.already_stored >= kept[0] and report.ran + report.already_stored == 24
    rows = stored(tmp_path, "interrupted")  # one run per cell: none twice, none lost
    assert len(rows) == len({r.identity.key for r in rows}) == 24
    with sqlite3.connect(database) as check:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_changed_spec_does_not_mix_with_stored_runs(write_spec, tmp_path) -> None:
    text = SMALL.replace("[1, 2, 3]", "[1]").replace("repeats = 2", "repeats = 1")
    run_campaign(load_spec(write_spec(text)), jobs=1, results_root=tmp_path,
                 show_progress=False)
    shown = load_spec(write_spec(text + 'description = "now described"\n'
                                 'table = { metrics = ["branches"], reached = true }\n'))
    resumed = run_experiment(shown, jobs=1, results_root=tmp_path).campaign
    assert (resumed.ran, resumed.already_stored) == (0, 8)  # how runs are shown decides none
    assert "branches" in (tmp_path / "small" / "table.md").read_text()
    changed = load_spec(write_spec(text.replace("time_limit = 10", "time_limit = 20")))
    with pytest.raises(SpecError, match=facts("key 'time_limit'", "changed", "--fresh")):
        run_campaign(changed, jobs=1, results_root=tmp_path, show_progress=False)
    report = run_campaign(changed, jobs=1, fresh=True, results_root=tmp_path,
                          show_progress=False)
    assert report.already_stored == 0 and report.ran == len(stored(tmp_path, "small")) == 8


def test_the_dask_executor_gives_the_same_rows(write_spec, tmp_path) -> None:
    pytest.importorskip("dask.distributed")
    text = SMALL.replace("repeats = 2", "repeats = 1")
    local = run_campaign(load_spec(write_spec(text)), jobs=2, results_root=tmp_path / "local",
                         show_progress=False)
    remote = run_campaign(load_spec(write_spec(text)), jobs=2, executor="dask",
                          results_root=tmp_path / "dask", show_progress=False)
    assert local.ran == remote.ran == 24
    by_key = {r.identity.key: r for r in stored(tmp_path / "local", "small")}
    for row in stored(tmp_path / "dask", "small"):
        twin = by_key[row.identity.key]
        assert (row.status, row.verdict, row.solution) == (
            twin.status, twin.verdict, twin.solution)
        if row.identity.solver == "cp":
            assert (row.figure("backtracks"), row.figure("branches")) == (twin.figure("backtracks"),
                                                            twin.figure("branches"))


def test_a_campaign_that_fails_is_recorded_as_failed(write_spec, tmp_path,
                                                     monkeypatch) -> None:
    from puzzlelab.errors import PuzzleLabError

    class BrokenPool:
        def __init__(self, *args, **kwargs) -> None:
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            pass

        def start(self, solvers) -> None:
            pass

        def run(self, tasks):
            raise PuzzleLabError("a worker process could not start")
            yield

    monkeypatch.setattr("experiments.campaign.runner.LocalPool", BrokenPool)
    with pytest.raises(PuzzleLabError, match="could not start"):
        run_campaign(load_spec(write_spec(SMALL)), jobs=1, results_root=tmp_path,
                     show_progress=False)
    with ResultsStore(tmp_path / "small" / "runs.sqlite") as store:
        assert store.sessions()[-1].end_state == "failed"


def test_a_moved_spec_is_refused_saying_where_its_runs_were_made(tmp_path) -> None:
    """A spec's instance files are written relative to it, so moving the spec rewrites
    them: the stored runs are refused, and the message names the spec they came from."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "four.txt").write_text(
        (SUDOKU_DATA / "small_4x4.txt").read_text(encoding="utf-8"), encoding="utf-8")
    text = SMALL.replace('"{data}/small_4x4.txt"', '"{file}"').replace("[1, 2, 3]", "[1]")
    text = text.replace("repeats = 2", "repeats = 1").replace(', "cpsat"', "")
    before = tmp_path / "spec.toml"
    before.write_text(text.replace("{file}", "data/four.txt"), encoding="utf-8")
    run_campaign(load_spec(before), jobs=1, results_root=tmp_path, show_progress=False)
    after = tmp_path / "specs" / "spec.toml"
    after.parent.mkdir()
    after.write_text(text.replace("{file}", "../data/four.txt"), encoding="utf-8")
    with pytest.raises(SpecError, match=facts("key 'instances'", "changed", str(before))):
        run_campaign(load_spec(after), jobs=1, results_root=tmp_path, show_progress=False)


def test_past_a_screenful_the_terminal_gets_the_summary_rows_and_the_files_every_row(
        write_spec, tmp_path) -> None:
    from experiments.analysis.outputs import write_outputs

    spec = load_spec(write_spec(SMALL.replace("repeats = 2", "repeats = 1")
                                .replace('["cp", "cpsat"]', '["cp"]')))
    run_campaign(spec, jobs=1, results_root=tmp_path, show_progress=False)
    database = tmp_path / "small" / "runs.sqlite"
    whole = write_outputs(database, report=False, height=1000).text
    short = write_outputs(database, report=False, height=5).text
    assert "small_4x4#3" in whole and "small_4x4#3" not in short
    assert "summary of 3 instances" in short and "solved" in short and "3/3" in short
    assert "table.md" in short
    assert "small_4x4#3" in (tmp_path / "small" / "table.md").read_text()
