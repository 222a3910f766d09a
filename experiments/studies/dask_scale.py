"""Dask at scale: one campaign of quick runs on a local Dask cluster (a real scheduler and
worker processes) at 1, 2 and 4 worker processes, against the local pool, and a Dask
worker process killed in the middle of a campaign.

``python -m experiments.studies.dask_scale [--runs 100000] [--output FOLDER]`` runs the
shipped 4x4 Sudokus (``classic`` on ``cp``) repeated to ``--runs``, each configuration
in a fresh process that runs :func:`~experiments.campaign.runner.run_campaign` (the
Dask executor starts its own ``LocalCluster``: scheduler and nanny-kept worker
processes), and reads back the store: every planned run stored once, every answer
checked correct. Throughput per worker is runs / seconds / workers; the scheduler's
overhead per run is the Dask campaign's time per run less the local pool's at the same
number of workers. The killed campaign kills one Dask worker process (SIGKILL, its
nanny starts another) a third of the way through. The figures go to ``runs.csv``;
``--from runs.csv`` makes the README from it again.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from experiments.studies.campaign_scale import quick_spec
from experiments.studies.kit import code, plain_rows, progress, run_main, table
from experiments.studies.kit.markdown import Column, text
from experiments.studies.kit.study import Row, Study

ROOT = Path(__file__).resolve().parents[2]
FIELDS = ["executor", "workers", "killed", "runs", "seconds", "runs_per_s_per_worker",
          "overhead_ms_per_run", "stored", "distinct", "correct"]
CAMPAIGN = """
import os, signal, sqlite3, sys, threading, time
from pathlib import Path

import psutil

from experiments.campaign.runner import run_campaign
from experiments.campaign.spec import load_spec


def kill_one_later(database, planned, killed):
    # once a third of the runs are stored, SIGKILL one Dask worker process
    while True:
        time.sleep(0.5)
        try:
            with sqlite3.connect(database) as connection:
                stored = connection.execute("SELECT count(*) FROM runs").fetchone()[0]
        except sqlite3.Error:
            continue
        if stored >= planned // 3:
            break
    workers = [p for p in psutil.Process().children(recursive=True)
               if "spawn_main" in " ".join(p.cmdline())]
    if workers:
        os.kill(workers[0].pid, signal.SIGKILL)
        killed.append(workers[0].pid)


if __name__ == "__main__":
    spec, out, executor, workers, kill = (sys.argv[1], Path(sys.argv[2]), sys.argv[3],
                                          int(sys.argv[4]), sys.argv[5] == "kill")
    killed = []

    def started(tally):
        if kill:
            threading.Thread(target=kill_one_later, daemon=True,
                             args=(out / "runs.sqlite", tally.planned, killed)).start()

    began = time.perf_counter()
    run_campaign(load_spec(Path(spec)), out=out, show_progress=False, jobs=workers,
                 executor=executor, on_start=started)
    print(time.perf_counter() - began, len(killed))
"""


def campaign(folder: Path, runs: int, executor: str, workers: int, kill: bool) -> Row:
    """One campaign's row: its time, and what its store holds."""
    name = f"{executor}-{workers}{'-killed' if kill else ''}"
    spec, planned = quick_spec(folder, name, runs)
    out = folder / name
    script = folder / "campaign.py"  # a file: Dask's worker processes are spawned from it
    script.write_text(CAMPAIGN)
    done = subprocess.run([sys.executable, str(script), str(spec), str(out), executor,
                           str(workers), "kill" if kill else "keep"],
                          capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    seconds, killed = done.stdout.split()[-2:]
    with sqlite3.connect(out / "runs.sqlite") as connection:
        stored, distinct, correct = connection.execute(
            "SELECT count(*), count(DISTINCT run_key), count(*) FILTER (WHERE verdict = "
            "'correct') FROM runs").fetchone()
    return {"executor": executor, "workers": str(workers), "killed": killed,
            "runs": str(planned), "seconds": f"{float(seconds):.1f}",
            "runs_per_s_per_worker": f"{planned / float(seconds) / workers:.0f}",
            "overhead_ms_per_run": "", "stored": str(stored), "distinct": str(distinct),
            "correct": str(correct)}


def with_overheads(rows: list[Row]) -> list[Row]:
    """Each Dask row's time per run less the local pool's at the same workers (ms)."""
    local = {row["workers"]: float(row["seconds"]) / int(row["runs"])
             for row in rows if row["executor"] == "local"}
    for row in rows:
        if row["executor"] == "dask" and row["workers"] in local and row["killed"] == "0":
            per_run = float(row["seconds"]) / int(row["runs"])
            row["overhead_ms_per_run"] = f"{1000 * (per_run - local[row['workers']]):.2f}"
    return rows


def measure(runs: int) -> list[Row]:
    rows = []
    plan = [("local", 1, False), ("local", 2, False), ("dask", 1, False), ("dask", 2, False),
            ("dask", 4, False), ("dask", 2, True)]
    with tempfile.TemporaryDirectory() as name:
        for executor, workers, kill in plan:
            progress(f"{executor} with {workers} workers{', one killed' if kill else ''}")
            rows.append(campaign(Path(name), runs, executor, workers, kill))
    return with_overheads(rows)


def readme(rows: Sequence[Row], command: str) -> str:
    def shown(field: str) -> Column[Row]:
        return text(field.replace("_", " "), lambda row: row[field] or "–")

    return "\n".join([
        "# Dask at scale: throughput per worker, the scheduler's overhead, a worker killed",
        "", f"Written by {code(command)}. Each campaign runs the shipped 4x4 Sudokus "
        "(`classic` on `cp`) repeated to the size, in a fresh process; a Dask campaign "
        "starts its own local cluster (a scheduler and nanny-kept worker processes, each "
        "keeping one PuzzleLab worker process). Throughput per worker is runs / seconds / "
        "workers; the scheduler's overhead per run is a Dask campaign's time per run less "
        "the local pool's at the same number of workers. The last campaign SIGKILLs one "
        "Dask worker process once a third of its runs are stored (its nanny starts "
        "another). Each store is read back: every planned run stored once, its answer "
        "checked correct.", "", *table(rows, [shown(field) for field in FIELDS]), "",
        "Every campaign stored each planned run once, its answer checked correct: "
        + ("**yes**" if not lost(rows) else f"**no** ({len(lost(rows))} campaigns)") + ".",
        ""])


def options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", type=int, default=100_000, help="runs per campaign")


def lost(rows: Sequence[Row]) -> list[str]:
    """Campaigns that did not store each planned run once, its answer correct."""
    return [f"{row['executor']} with {row['workers']} workers: {row['stored']} stored, "
            f"{row['distinct']} distinct, {row['correct']} correct of {row['runs']}"
            for row in rows if not row["stored"] == row["distinct"] == row["correct"]
            == row["runs"]]


STUDY = Study("experiments.studies.dask_scale", __doc__ or "", plain_rows(FIELDS), options,
              lambda given: measure(given.runs),
              lambda rows: f"--runs {rows[0]['runs']}" if rows else "", readme, lost,
              "dask-scale")


def main(argv: Sequence[str] | None = None) -> int:
    return STUDY.main(argv)


if __name__ == "__main__":
    run_main(main)
