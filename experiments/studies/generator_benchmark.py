"""Generator benchmark (issue 44, item 4): ``generate --unique`` on a 25x25 Sudoku and a
30x30 Hashi with 150 islands, whole processes, every instance checked independently.

``python -m experiments.studies.generator_benchmark [--seeds 3] [--output FOLDER]`` runs
``puzzlelab generate sudoku --box 5 --unique --seed S`` and ``puzzlelab generate hashi
--size 30x30 --islands 150 --unique --seed S`` for S = 1..N as fresh processes, under the
default 60 s budget, and times each. Each written file is then checked apart from the
generator: its known solution must pass the puzzle's checker, and a count to two
solutions on another viewpoint or solver than the generator's (Sudoku: the Boolean
viewpoint on CP-SAT, where the generator counts on Choco; Hashi: the classic CP solver,
where it counts on CP-SAT) must find exactly one. The figures go to ``runs.csv``;
``--from runs.csv`` makes the README again.
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

TARGET_S = 60.0
COUNT_LIMIT_S = 300.0
FIELDS = ["puzzle", "seed", "seconds", "exit", "size", "solutions", "checked"]
ASKS = {
    "sudoku": (["--box", "5"], "boolean", "cpsat", "auto"),
    "hashi": (["--size", "30x30", "--islands", "150"], "bridges", "cp", "input/min"),
}
"""Each puzzle's generator options, and the independent count: viewpoint, solver,
heuristic."""


def independent_check(puzzle: str, path: Path) -> tuple[int, int, bool]:
    """Clues (Sudoku) or islands (Hashi), solutions found by a count to two (-1 if the
    count did not finish), and whether the file's known solution passes the checker."""
    from experiments.campaign.solving import solve
    from puzzlelab.errors import PuzzleLabError
    from puzzles import PUZZLES

    kind = PUZZLES.get(puzzle)
    try:
        instance = kind.load(path)
    except PuzzleLabError:
        return 0, -1, False
    size = (sum(1 for row in instance.givens for value in row if value) if puzzle == "sudoku"
            else len(instance.islands))
    known = kind.known_solution(instance)
    checked = known is not None and not kind.check(instance, known)
    _, viewpoint, solver, heuristic = ASKS[puzzle]
    run = solve(instance, viewpoint=viewpoint, solver=solver, heuristic=heuristic, options={},
                max_solutions=2, time_limit=COUNT_LIMIT_S)
    found = run.result.statistics.solutions
    solutions = found if run.result.complete or found >= 2 else -1  # two: stopped there
    return size, solutions, checked


def measure(seeds: int) -> list[dict[str, str]]:
    """One row a puzzle and seed: the generating process's time and exit status, and the
    check."""
    rows = []
    with tempfile.TemporaryDirectory() as name:
        for puzzle, (options, *_) in ASKS.items():
            for seed in range(1, seeds + 1):
                out = Path(name) / f"{puzzle}-{seed}"
                command = [*puzzlelab_script(), "generate", puzzle, *options, "--unique",
                           "--seed", str(seed), "--output", str(out)]
                start = time.perf_counter()
                done = subprocess.run(command, capture_output=True, text=True)
                seconds = time.perf_counter() - start
                written = sorted(out.iterdir()) if out.is_dir() else []
                size, solutions, checked = (independent_check(puzzle, written[0]) if written
                                            else (0, 0, False))
                rows.append({"puzzle": puzzle, "seed": str(seed), "seconds": f"{seconds:.3f}",
                             "exit": str(done.returncode), "size": str(size),
                             "solutions": str(solutions), "checked": str(int(checked))})
                progress(f"{puzzle} seed {seed}: {seconds:.1f} s, exit {done.returncode}, "
                         f"{size} given, {solutions} solution(s)")
    return rows


def correct(row: dict[str, str]) -> bool:
    """The process succeeded and wrote a unique puzzle whose known solution checks."""
    return row["exit"] == "0" and row["solutions"] == "1" and row["checked"] == "1"


def report(rows: Sequence[dict[str, str]], command: str) -> str:
    """The README: each run's time and check, the spread per puzzle, the target."""
    lines = ["# Generator benchmark (issue 44, item 4)", "",
             f"Written by `{command}`. Each seed runs, as a fresh process (start-up "
             "included) under the default 60 s budget, `puzzlelab generate sudoku --box 5 "
             "--unique --seed S` (a 25x25 Sudoku, 281 clues by default) and `puzzlelab "
             "generate hashi --size 30x30 --islands 150 --unique --seed S`. Each file is "
             "checked apart from the generator: its known solution passes the checker, and a "
             "count to two solutions finds exactly one (Sudoku: the boolean viewpoint on "
             "CP-SAT; Hashi: bridges on the classic CP solver).", "",
             "| puzzle | seed | seconds | clues or islands | solutions | checked |",
             "|---|---:|---:|---:|---:|---|"]
    for row in rows:
        lines.append(f"| {row['puzzle']} | {row['seed']} | {float(row['seconds']):.1f} | "
                     f"{row['size']} | {row['solutions']} | "
                     f"{'yes' if correct(row) else 'no'} |")
    lines.append("")
    for puzzle in ASKS:
        mine = [row for row in rows if row["puzzle"] == puzzle]
        if not mine:
            continue
        times = [float(row["seconds"]) for row in mine]
        lines.append(f"- {puzzle}: median {statistics.median(times):.1f} s, slowest "
                     f"{max(times):.1f} s; every seed under {TARGET_S:g} s, each a checked "
                     f"unique puzzle: {met(max(times) < TARGET_S and all(map(correct, mine)))}.")
    lines += ["", "Recompute every figure above from the committed rows with `python -m "
                  "experiments.studies.generator_benchmark --from "
                  "results/generator-benchmark/runs.csv`."]
    return "\n".join(lines) + "\n"


STUDY = RowsStudy(
    "experiments.studies.generator_benchmark", __doc__ or "", ("--seeds", 3, "seeds 1..N"),
    FIELDS, measure, report,
    lambda row: None if correct(row) else f"{row['puzzle']} seed {row['seed']}")


def main(argv: Sequence[str] | None = None) -> int:
    """Measure (or read back with ``--from``), print the report, write it with the rows."""
    return STUDY.main(argv)


if __name__ == "__main__":
    from experiments.studies.kit import run_main

    run_main(main)
