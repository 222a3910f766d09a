"""Campaigns at scale: how the runner, the store, ``table`` and ``report`` grow with the
number of runs.

``python -m experiments.studies.campaign_scale [--runs 10000,100000,1000000]
[--replicated N] [--output FOLDER]`` runs, for each size, a campaign of quick runs (the
shipped 4x4 Sudokus, ``classic`` on ``cp``, as many repeats as make the size) in a fresh
process that runs :func:`~experiments.campaign.runner.run_campaign` alone and reports
its own peak memory (the runner; its worker processes are not counted), then times
``puzzlelab table`` and ``puzzlelab report`` on the store as whole processes, their
peak memory read from the operating system. On the largest store it also weighs the
ways of aggregating a store's cells that ``table`` chose among (:data:`ENGINES`).
``--replicated N`` also copies the largest store's rows up to N runs (each copy a new
repeat number) and measures ``table`` and ``report`` on it: a store of that size without
the time of running it. The figures go to ``runs.csv``; ``--from runs.csv`` makes the
README from it again.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from experiments.studies.kit import code, plain_rows, progress, puzzlelab_script, run_main, table
from experiments.studies.kit.markdown import Column, text
from experiments.studies.kit.study import Row, Study

FIELDS = ["runs", "made_by", "runner_s", "runner_peak_mb", "store_mb", "table_s",
          "table_peak_mb", "report_s", "report_peak_mb"]
PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "data" / "sudoku" / "small_4x4.txt"
RUNNER = """
import resource, sys, time
from pathlib import Path
from experiments.campaign.runner import run_campaign
from experiments.campaign.spec import load_spec
started = time.perf_counter()
tally = run_campaign(load_spec(Path(sys.argv[1])), out=Path(sys.argv[2]), show_progress=False)
assert tally.ran + tally.already_stored == tally.planned, "runs were lost"
print(time.perf_counter() - started, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


QUERY = ("SELECT instance_file, instance, viewpoint, solver, heuristic, status, verdict, "
         "solve_s, backtracks FROM runs")
GROUPED = ("SELECT instance_file, instance, viewpoint, solver, heuristic, count(*), "
           "median(solve_s), median(backtracks) FROM {} GROUP BY ALL")
ENGINES = {
    "ADBC + DuckDB (the one table uses)": f"""
import duckdb
from adbc_driver_sqlite import dbapi
with dbapi.connect("file:" + DATABASE + "?mode=ro") as c, c.cursor() as cursor:
    cursor.execute({QUERY!r})
    reader = cursor.fetch_record_batch()
    duckdb.sql({GROUPED.format("reader")!r}).fetchall()
""",
    "Python sqlite3 + DuckDB": f"""
import sqlite3, duckdb, pyarrow as pa
cursor = sqlite3.connect(DATABASE, check_same_thread=False).execute({QUERY!r})
types = [pa.string()] * 7 + [pa.float64(), pa.int64()]
schema = pa.schema([(d[0], t) for d, t in zip(cursor.description, types)])
def batches():
    while chunk := cursor.fetchmany(50000):
        yield pa.RecordBatch.from_arrays([pa.array(c, t) for c, t in zip(zip(*chunk), types)],
                                         schema=schema)
reader = pa.RecordBatchReader.from_batches(schema, batches())
duckdb.sql({GROUPED.format("reader")!r}).fetchall()
""",
    "polars (read_database)": f"""
import sqlite3, polars as pl
frame = pl.concat(list(pl.read_database({QUERY!r}, sqlite3.connect(DATABASE),
                                        iter_batches=True, batch_size=50000)))
frame.group_by(["instance_file", "instance", "viewpoint", "solver", "heuristic"]).agg(
    pl.len(), pl.col("solve_s").median(), pl.col("backtracks").median())
""",
    "SQLite's own SQL (one median, window functions)": """
import sqlite3
sqlite3.connect(DATABASE).execute(
    "SELECT instance, AVG(solve_s) FROM (SELECT instance, solve_s, ROW_NUMBER() OVER "
    "(PARTITION BY instance_file, instance, viewpoint, solver, heuristic ORDER BY solve_s) "
    "AS k, COUNT(*) OVER (PARTITION BY instance_file, instance, viewpoint, solver, "
    "heuristic) AS n FROM runs WHERE solve_s IS NOT NULL) WHERE k IN ((n + 1) / 2, "
    "(n + 2) / 2) GROUP BY instance").fetchall()
""",
}
"""The ways of aggregating a store weighed for ``table``: each reads the columns a table
needs and takes the medians of a cell's repeats (SQLite's own, one median only)."""


def instance_count() -> int:
    """The shipped 4x4 Sudokus the campaigns repeat."""
    return sum(1 for line in PUZZLES.read_text().splitlines()
               if line.strip() and not line.startswith("#"))


def timed(command: list[str]) -> tuple[float, float]:
    """A whole process's wall seconds and peak memory (MB), from the operating system."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed: {process.stderr.read().decode()}"
                         if process.stderr else f"{command} failed")
    return time.perf_counter() - started, usage.ru_maxrss / 1024


def measured(store: Path, runs: int, made_by: str, runner: tuple[float, float] | None
             ) -> Row:
    """One size's row: the runner's figures (if it ran), the store, table and report."""
    table_s, table_mb = timed([*puzzlelab_script(), "table", str(store), "--format", "csv"])
    report_s, report_mb = timed([*puzzlelab_script(), "report", str(store), "--out",
                                 str(store.parent / "report")])
    return {"runs": str(runs), "made_by": made_by,
            "runner_s": "" if runner is None else f"{runner[0]:.1f}",
            "runner_peak_mb": "" if runner is None else f"{runner[1]:.0f}",
            "store_mb": f"{store.stat().st_size / 2**20:.0f}",
            "table_s": f"{table_s:.2f}", "table_peak_mb": f"{table_mb:.0f}",
            "report_s": f"{report_s:.2f}", "report_peak_mb": f"{report_mb:.0f}"}


def quick_spec(folder: Path, name: str, runs: int) -> tuple[Path, int]:
    """A spec of about ``runs`` quick runs (the 4x4 Sudokus on ``cp``, repeated), written
    into ``folder``, and the runs it plans."""
    repeats = max(1, runs // instance_count())
    spec = folder / f"{name}.toml"
    spec.write_text(f'name = "{name}"\npuzzle = "sudoku"\ninstances = ["{PUZZLES}"]\n'
                    f'viewpoints = ["classic"]\nsolvers = ["cp"]\nheuristics = ["input/min"]\n'
                    f'repeats = {repeats}\ntime_limit = 10\n')
    return spec, repeats * instance_count()


def campaign(folder: Path, runs: int) -> tuple[Path, tuple[float, float]]:
    """Run a campaign of ``runs`` quick runs; its store and the runner's figures."""
    spec, _ = quick_spec(folder, f"scale-{runs}", runs)
    out = folder / f"scale-{runs}"
    done = subprocess.run([sys.executable, "-c", RUNNER, str(spec), str(out)],
                          capture_output=True, text=True, check=True)
    seconds, peak = (float(value) for value in done.stdout.split()[-2:])
    return out / "runs.sqlite", (seconds, peak)


def replicated(source: Path, target: Path, runs: int) -> int:
    """``source``'s runs copied into ``target`` until it holds at least ``runs`` (each
    copy a repeat number of its own); how many it holds."""
    target.write_bytes(source.read_bytes())
    with sqlite3.connect(target) as connection:
        columns = [row[1] for row in connection.execute("PRAGMA table_info(runs)")
                   if row[1] != "id"]
        base = connection.execute("SELECT count(*) FROM runs").fetchone()[0]
        copy = 1
        while base * (copy + 1) <= runs:
            shift = copy * 10_000_000
            chosen = [
                f"json_replace(run_key, '$[5]', json_extract(run_key, '$[5]') + {shift})"
                if name == "run_key" else f'"repeat" + {shift}' if name == "repeat"
                else f"position + {copy * base}" if name == "position" else f'"{name}"'
                for name in columns]
            listed = ", ".join(f'"{name}"' for name in columns)
            connection.execute(f"INSERT INTO runs ({listed}) SELECT {', '.join(chosen)} "
                               f"FROM runs WHERE id <= {base}")
            copy += 1
        connection.execute("DELETE FROM grid")  # every stored run is the grid's
        return int(connection.execute("SELECT count(*) FROM runs").fetchone()[0])


def measure(sizes: Sequence[int], replicate_to: int | None) -> list[Row]:
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        largest = None
        for size in sizes:
            progress(f"campaign of {size} runs")
            store, runner = campaign(folder, size)
            with sqlite3.connect(store) as connection:
                stored = connection.execute("SELECT count(*) FROM runs").fetchone()[0]
            rows.append(measured(store, stored, "run", runner))
            largest = store
        if largest is not None:
            for engine, script in ENGINES.items():
                progress(f"aggregated by {engine}")
                try:
                    seconds, peak = timed([sys.executable, "-c",
                                           f"DATABASE = {str(largest)!r}\n{script}"])
                    figures = {"table_s": f"{seconds:.2f}", "table_peak_mb": f"{peak:.0f}"}
                except SystemExit as failed:  # polars is in the test install only
                    progress(f"  {engine}: {str(failed).splitlines()[-1]}")
                    figures = {"table_s": "", "table_peak_mb": ""}
                rows.append({"runs": rows[-1]["runs"], "made_by": f"engine: {engine}",
                             "runner_s": "", "runner_peak_mb": "", "store_mb": "",
                             "report_s": "", "report_peak_mb": "", **figures})
        if replicate_to and largest is not None:
            progress(f"its store's rows copied up to {replicate_to} runs")
            copied = folder / "replicated" / "runs.sqlite"
            copied.parent.mkdir()
            held = replicated(largest, copied, replicate_to)
            rows.append(measured(copied, held, "rows copied", None))
    return rows


def readme(rows: Sequence[Row], command: str) -> str:
    def shown(field: str) -> Column[Row]:
        return text(field.replace("_", " ").replace(" mb", " MB"),
                    lambda row: row[field] or "–")

    def per_run(row: Row) -> str:
        return f"{1000 * float(row['runner_s']) / int(row['runs']):.2f}" \
            if row["runner_s"] else "–"

    columns = [text("runs", lambda row: f"{int(row['runs']):,}"),
               *(shown(field) for field in FIELDS[1:3]), text("runner ms per run", per_run),
               *(shown(field) for field in FIELDS[3:])]
    return "\n".join([
        "# Campaigns at scale: the runner, the store, `table` and `report`", "",
        f"Written by {code(command)}. Each campaign runs the shipped 4x4 Sudokus (`classic` "
        "on `cp`) repeated to the size, in a fresh process running the runner alone, which "
        "reports its own peak memory (its worker processes not counted). `table` (CSV) and "
        "`report` are then timed on the store as whole processes, their peak memory read "
        "from the operating system."
        + (" The last row's store is the largest campaign's rows copied (each copy new "
           "repeats) to that size: `table` and `report` on a store that size without "
           "running it." if any(row["made_by"] == "rows copied" for row in rows) else ""),
        "",
        *table([r for r in rows if not r["made_by"].startswith("engine")], columns), "",
        "How a store's cells could be aggregated, each way in a fresh process on the largest "
        "campaign's store (its time and peak memory, reading the columns a table needs and "
        "taking the medians of each cell's repeats):", "",
        *table([r for r in rows if r["made_by"].startswith("engine")],
               [text("way", lambda row: row["made_by"].removeprefix("engine: ")),
                text("runs", lambda row: f"{int(row['runs']):,}"),
                text("seconds", lambda row: row["table_s"] or "–"),
                text("peak MB", lambda row: row["table_peak_mb"] or "–")]), ""])


def options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", default="10000,100000,1000000",
                        help="the campaigns' sizes, comma-separated")
    parser.add_argument("--replicated", type=int, default=0,
                        help="also copy the largest store's rows up to this many runs")


def remade_by(rows: Sequence[Row]) -> str:
    """The options that make ``rows`` again."""
    ran = [row["runs"] for row in rows if row["made_by"] == "run"]
    copied = [row["runs"] for row in rows if row["made_by"] == "rows copied"]
    return f"--runs {','.join(ran)}" + (f" --replicated {copied[0]}" if copied else "")


def lost_runs(rows: Sequence[Row]) -> list[str]:
    """Campaigns whose runner stored fewer runs than planned (its script asserts it)."""
    return []


STUDY = Study("experiments.studies.campaign_scale", __doc__ or "", plain_rows(FIELDS),
              options, lambda given: measure([int(size) for size in given.runs.split(",")],
                                             given.replicated),
              remade_by, readme, lost_runs, "scale")


def main(argv: Sequence[str] | None = None) -> int:
    return STUDY.main(argv)


if __name__ == "__main__":
    run_main(main)
