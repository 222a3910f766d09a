"""Benchmark of the Nonogram default: every shipped survey and MiniZinc puzzle, 10 s each.

``python -m experiments.studies.nonogram_default`` solves each puzzle of the ``webpbn_survey``
and ``minizinc_challenge`` sets with the puzzle's defaults (``puzzlelab solve nonogram
FILE`` with no options), one after another in this process, and prints a Markdown
table: status, the checker's verdict, wall time (the whole solve: build, search,
check), and, for the portfolio (``auto``), which configuration answered. ``--solver``
and ``--heuristic`` measure another choice the same way (the former default:
``--solver cpsat --heuristic auto+symmetric``); ``--cores 1`` makes the portfolio run
its configurations in turn, as in the runner's one-core workers. It is a benchmark, not
a test: its times depend on the machine and on what else runs there.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from pathlib import Path

from experiments.campaign.solving import solve
from experiments.studies.kit import run_main
from puzzles import PUZZLES
from solvers.portfolio import CORES_VARIABLE
from viewpoints import DEFAULTS

SETS = ("webpbn_survey", "minizinc_challenge")


def puzzle_files(sets: Sequence[str] = SETS) -> list[Path]:
    """The files of the shipped data sets named, in the sets' order."""
    found = {data.name: list(data.files) for data in PUZZLES.get("nonogram").data_sets()}
    missing = [name for name in sets if name not in found]
    if missing:
        raise SystemExit(f"no nonogram data set {missing}; shipped: {sorted(found)}")
    return [path for name in sets for path in found[name]]


def measure(path: Path, solver: str, heuristic: str, time_limit: float) -> dict[str, str]:
    """Solve one file end to end; one row of the table."""
    kind = PUZZLES.get("nonogram")
    instance = kind.load(path)
    started = time.perf_counter()
    run = solve(instance, viewpoint=DEFAULTS.get("nonogram").viewpoint, solver=solver,
                heuristic=heuristic, time_limit=time_limit)
    wall = time.perf_counter() - started
    portfolio = run.result.portfolio
    verdict = "–" if run.violations is None else ("correct" if run.correct else "wrong")
    return {"puzzle": path.stem, "status": run.result.status.value, "check": verdict,
            "wall (s)": f"{wall:.2f}",
            "answered by": (portfolio and portfolio.answered_by) or "–",
            "runs": "–" if portfolio is None else str(len(portfolio.runs))}


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the options, solve every puzzle, print the table and a summary line."""
    defaults = DEFAULTS.get("nonogram")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solver", default=defaults.solver)
    parser.add_argument("--heuristic", default=defaults.heuristic)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--cores", type=int, help=f"sets {CORES_VARIABLE} for the portfolio")
    parser.add_argument("--sets", nargs="+", default=list(SETS))
    options = parser.parse_args(argv)
    if options.cores is not None:
        os.environ[CORES_VARIABLE] = str(options.cores)
    print(f"nonogram/{defaults.viewpoint} on {options.solver} under {options.heuristic}, "
          f"{options.time_limit:g} s each, cores: {os.environ.get(CORES_VARIABLE, 'all')}\n")
    headers = ["puzzle", "status", "check", "wall (s)", "answered by", "runs"]
    print("| " + " | ".join(headers) + " |")
    print("|" + "---|" * len(headers))
    rows = []
    for path in puzzle_files(options.sets):
        rows.append(measure(path, options.solver, options.heuristic, options.time_limit))
        print("| " + " | ".join(rows[-1][h] for h in headers) + " |", flush=True)
    solved = [r for r in rows if r["status"] == "solved" and r["check"] == "correct"]
    within = [r for r in solved if float(r["wall (s)"]) <= options.time_limit]
    slowest = max(rows, key=lambda r: float(r["wall (s)"]))
    print(f"\nsolved and checked: {len(solved)}/{len(rows)}; within {options.time_limit:g} s "
          f"wall: {len(within)}; total wall {sum(float(r['wall (s)']) for r in rows):.1f} s; "
          f"slowest {slowest['puzzle']} {slowest['wall (s)']} s")


if __name__ == "__main__":
    run_main(main)
