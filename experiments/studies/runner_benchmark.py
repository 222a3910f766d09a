"""Benchmark of the runner's overhead: a pool of long-lived workers against one process per run.

``python -m experiments.studies.runner_benchmark [--runs 300] [--jobs 2]`` runs the same
grid of trivial runs (a 4x4 Sudoku on ``cp``, each taking about a millisecond)
twice, through the same pool, store and checker: once with long-lived workers and
once with a fresh worker process for every run, and prints runs per second.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from experiments.campaign.executors.pool import LocalPool
from experiments.campaign.grid import expand
from experiments.campaign.spec import parse_spec
from experiments.campaign.store import ResultsStore
from experiments.campaign.verdicts import Verdict
from experiments.studies.kit import run_main

DATA = Path(__file__).resolve().parents[2] / "puzzles" / "data" / "sudoku" / "small_4x4.txt"


def trivial_spec(runs: int, folder: Path) -> str:
    """A spec of ``runs`` trivial runs (6 puzzles x repeats)."""
    repeats = max(1, runs // 6)
    return (f'name = "runner-overhead"\npuzzle = "sudoku"\ninstances = ["{DATA.as_posix()}"]\n'
            f'viewpoints = ["classic"]\nsolvers = ["cp"]\nheuristics = ["input/min"]\n'
            f"repeats = {repeats}\ntime_limit = 10\n")


def runs_per_second(runs: int, jobs: int, runs_per_worker: int | None) -> tuple[int, float]:
    """Run the trivial grid; return the number of runs and runs per second (wall clock)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "overhead.toml"
        path.write_text(trivial_spec(runs, Path(folder)))
        tasks = expand(parse_spec(path.read_text(), path)).tasks
        start = time.perf_counter()
        with ResultsStore(Path(folder) / "runs.sqlite") as store, \
                LocalPool(jobs, runs_per_worker=runs_per_worker) as pool:
            for task, record in pool.run(tasks):
                if record.verdict is not Verdict.CORRECT:
                    raise RuntimeError(f"run {task.identity.key} failed: {record.message}")
                store.record_run(record)
        return len(tasks), len(tasks) / (time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> None:
    """Print runs per second for both ways of running, and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300, help="runs in the pool measurement")
    parser.add_argument("--process-runs", type=int, default=60,
                        help="runs in the process-per-run measurement (it is slow)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    arguments = parser.parse_args(argv)
    pooled_runs, pooled = runs_per_second(arguments.runs, arguments.jobs, None)
    print(f"pool of {arguments.jobs} long-lived workers: {pooled_runs} runs, "
          f"{pooled:.1f} runs/s")
    single_runs, single = runs_per_second(arguments.process_runs, arguments.jobs, 1)
    print(f"one process per run ({arguments.jobs} at a time): {single_runs} runs, "
          f"{single:.1f} runs/s")
    print(f"the pool is {pooled / single:.0f}x faster")


if __name__ == "__main__":
    run_main(main)
