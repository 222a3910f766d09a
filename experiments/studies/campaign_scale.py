"""Campaigns at scale: how the runner, the store, ``table`` and ``report`` grow with the
number of runs.

``python -m experiments.studies.campaign_scale [--runs 10000,100000] [--replicated
1000000] [--output FOLDER]`` runs, for each size, a campaign of quick runs (the shipped
4x4 Sudokus, ``classic`` on ``cp``, as many repeats as make the size) in a fresh
process that runs :func:`~experiments.campaign.runner.run_campaign` alone and reports
its own peak memory (the runner; its worker processes are not counted), then times
``puzzlelab table`` and ``puzzlelab report`` on the store as whole processes, their
peak memory read from the operating system. ``--replicated N`` also copies the largest
store's rows up to N runs (each copy a new repeat number) and measures ``table`` on it:
a store of that size without the hours of running it. The figures go to ``runs.csv``;
``--from runs.csv`` makes the README from it again.
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
from experiments.studies.kit.study import Row, read_rows

HAND = "<!-- written by hand: kept when the report above is made again -->"
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


def campaign(folder: Path, runs: int) -> tuple[Path, tuple[float, float]]:
    """Run a campaign of ``runs`` quick runs; its store and the runner's figures."""
    repeats = max(1, runs // instance_count())
    spec = folder / f"scale-{runs}.toml"
    spec.write_text(f'name = "scale-{runs}"\npuzzle = "sudoku"\ninstances = ["{PUZZLES}"]\n'
                    f'viewpoints = ["classic"]\nsolvers = ["cp"]\nheuristics = ["input/min"]\n'
                    f'repeats = {repeats}\ntime_limit = 10\n')
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

    columns = [text("runs", lambda row: f"{int(row['runs']):,}"),
               *(shown(field) for field in FIELDS[1:])]
    recompute = "python -m experiments.studies.campaign_scale --from " \
                "results/campaign-scale/runs.csv"
    return "\n".join([
        "# Campaigns at scale: the runner, the store, `table` and `report`", "",
        f"Written by {code(command)}. Each campaign runs the shipped 4x4 Sudokus (`classic` "
        "on `cp`) repeated to the size, in a fresh process running the runner alone, which "
        "reports its own peak memory (its worker processes not counted). `table` (CSV) and "
        "`report` are then timed on the store as whole processes, their peak memory read "
        "from the operating system. The last row's store is the largest campaign's rows "
        "copied (each copy new repeats) to that size: `table` and `report` on a store "
        "that size without running it.", "",
        *table(rows, columns), "",
        f"Recompute every figure above from the committed rows with {code(recompute)}.",
        ""])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="campaign_scale", description=__doc__)
    parser.add_argument("--runs", default="10000,100000")
    parser.add_argument("--replicated", type=int, default=1_000_000)
    parser.add_argument("--output", type=Path)
    parser.add_argument("--from", dest="source", type=Path)
    given = parser.parse_args(argv)
    if given.source:
        rows = read_rows(given.source)
    else:
        rows = measure([int(size) for size in given.runs.split(",")], given.replicated)
    command = ("python -m experiments.studies.campaign_scale --output results/campaign-scale"
               if given.source else " ".join(["python -m experiments.studies.campaign_scale",
                                              *(argv if argv is not None else sys.argv[1:])]))
    report = readme(rows, command)
    if given.output:
        given.output.mkdir(parents=True, exist_ok=True)
        if not given.source:
            plain_rows(FIELDS).write(rows, given.output / "runs.csv")
        readme_path = given.output / "README.md"
        kept = readme_path.read_text(encoding="utf-8") if readme_path.exists() else ""
        if HAND in kept:  # what a person wrote below the figures stays
            report += "\n" + kept[kept.index(HAND):]
        readme_path.write_text(report, encoding="utf-8")
    else:
        print(report)
    return 0


if __name__ == "__main__":
    run_main(main)
