"""Shikaku generator benchmark: ``generate shikaku --size 200x200 --unique`` over ten seeds,
whole processes, every instance checked independently.

``python -m experiments.studies.shikaku_generator [--seeds 10] [--output FOLDER]`` runs
``puzzlelab generate shikaku --size 200x200 --unique --seed S`` for S = 1..10 as fresh
processes and times each. Each written file is then checked apart from the
generator: its known solution must pass the Shikaku checker, and a count to two
solutions by CP-SAT (the generator counts with Choco) must find exactly one. The
figures go to ``runs.csv``; ``--from runs.csv`` makes the README again.
"""

from __future__ import annotations

import statistics
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from experiments.studies.kit import RowsStudy, met, progress
from experiments.studies.startup import puzzlelab_script

SIZE = "200x200"
TARGET_S = 20.0
COUNT_LIMIT_S = 120.0
FIELDS = ["seed", "seconds", "exit", "rooms", "solutions", "checked"]


def independent_check(path: Path) -> tuple[int, int, bool]:
    """Rooms, solutions found by a count to two (-1 if the count did not finish), and
    whether the file's known solution passes the checker (reading it checks it too: a
    file refused counts as no rooms, no count, not checked)."""
    from experiments.campaign.solving import solve
    from puzzlelab.errors import PuzzleLabError
    from puzzles import PUZZLES

    kind = PUZZLES.get("shikaku")
    try:
        instance = kind.load(path)
    except PuzzleLabError:
        return 0, -1, False
    rooms = sum(1 for row in instance.clues for clue in row if clue)
    known = kind.known_solution(instance)
    checked = known is not None and not kind.check(instance, known)
    run = solve(instance, viewpoint="patterns", solver="cpsat", heuristic="auto", options={},
                max_solutions=2, time_limit=COUNT_LIMIT_S)
    found = run.result.statistics.solutions
    solutions = found if run.result.complete or found >= 2 else -1  # two: stopped there
    return rooms, solutions, checked


def measure(seeds: int) -> list[dict[str, str]]:
    """One row a seed: the generating process's time and exit status, and the check."""
    rows = []
    with tempfile.TemporaryDirectory() as name:
        for seed in range(1, seeds + 1):
            out = Path(name) / f"seed-{seed}"
            command = [*puzzlelab_script(), "generate", "shikaku", "--size", SIZE,
                       "--unique", "--seed", str(seed), "--output", str(out)]
            start = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True)
            seconds = time.perf_counter() - start
            written = sorted(out.glob("*.txt")) if out.is_dir() else []
            rooms, solutions, checked = (independent_check(written[0]) if written
                                         else (0, 0, False))
            rows.append({"seed": str(seed), "seconds": f"{seconds:.3f}",
                         "exit": str(done.returncode), "rooms": str(rooms),
                         "solutions": str(solutions), "checked": str(int(checked))})
            progress(f"seed {seed}: {seconds:.1f} s, {rooms} rooms, {solutions} solution(s)")
    return rows


def correct(row: dict[str, str]) -> bool:
    """The process succeeded and wrote a unique puzzle whose known solution checks."""
    return row["exit"] == "0" and row["solutions"] == "1" and row["checked"] == "1"


def report(rows: Sequence[dict[str, str]], command: str) -> str:
    """The README: each seed's time, the spread, the target."""
    lines = ["# Shikaku generator benchmark (issue 43, item 6)", "",
             f"Written by `{command}`. Each seed runs `puzzlelab generate shikaku --size "
             f"{SIZE} --unique --seed S` as a fresh process (start-up included). Each file "
             "is checked apart from the generator: its known solution passes the Shikaku "
             "checker, and CP-SAT counting to two solutions finds exactly one.", "",
             "| seed | seconds | rooms | solutions | checked |", "|---:|---:|---:|---:|---|"]
    for row in rows:
        lines.append(f"| {row['seed']} | {float(row['seconds']):.1f} | {row['rooms']} | "
                     f"{row['solutions']} | {'yes' if correct(row) else 'no'} |")
    times = [float(row["seconds"]) for row in rows]
    slowest = max(rows, key=lambda row: float(row["seconds"]))
    lines += ["", f"- median {statistics.median(times):.1f} s, slowest {max(times):.1f} s "
                  f"(seed {slowest['seed']}).",
              f"- every seed under {TARGET_S:g} s, each a checked unique puzzle: "
              f"{met(max(times) < TARGET_S and all(map(correct, rows)))}.", "",
              "Recompute every figure above from the committed rows with `python -m "
              "experiments.studies.shikaku_generator --from "
              "results/shikaku-generator/runs.csv`."]
    return "\n".join(lines) + "\n"


STUDY = RowsStudy(
    "experiments.studies.shikaku_generator", __doc__ or "", ("--seeds", 10, "seeds 1..N"),
    FIELDS, measure, report,
    lambda row: None if correct(row) else f"seed {row['seed']}")


def main(argv: Sequence[str] | None = None) -> int:
    """Measure (or read back with ``--from``), print the report, write it with the rows."""
    return STUDY.main(argv)


if __name__ == "__main__":
    from experiments.studies.kit import run_main

    run_main(main)
