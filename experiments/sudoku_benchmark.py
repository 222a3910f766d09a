"""Benchmark: the 14 KU Leuven course Sudokus under every viewpoint, solver and heuristic.

Run ``python -m experiments.sudoku_benchmark`` (``--help`` for the options). It prints,
for each viewpoint variant, solver and heuristic, how many puzzles were solved and
checked, the total and median time, and the total backtracks; then a per-puzzle
comparison of the classic and channeled viewpoints on ``cp`` with ``first-fail/min``
and strong ``all_different``. Every solution is checked; a wrong one stops the run.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from experiments.solving import PuzzleRun, solve_instance
from puzzlelab.errors import UnsupportedCombination
from puzzles.sudoku import SudokuInstance, read_file
from solvers import Status
from viewpoints import viewpoints_of

COURSE_FILE = Path(__file__).resolve().parents[1] / "puzzles" / "data" / "sudoku" / \
    "kul_named_9x9.txt"
DEFAULT_HEURISTICS = ["input/min", "first-fail/min", "dom-deg/min", "random/min", "auto"]
VARIANTS = [("classic", {"alldiff": "weak"}), ("classic", {"alldiff": "strong"}),
            ("value-position", {"alldiff": "weak"}), ("value-position", {"alldiff": "strong"}),
            ("channeled", {"alldiff": "strong"}), ("channeled", {"alldiff": "strong",
                                                                 "channel": "reified"}),
            ("boolean", {})]


def course_puzzles() -> list[SudokuInstance]:
    """The 14 benchmark puzzles of the course file (set ``bench14``), in benchmark order."""
    return read_file(COURSE_FILE)[:14]


def label(viewpoint: str, options: dict[str, str]) -> str:
    """A short column label such as ``classic[alldiff=strong]``."""
    inner = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{viewpoint}[{inner}]" if inner else viewpoint


def run_grid(solvers: list[str], heuristics: list[str], viewpoint_names: list[str],
             time_limit: float, console: Console) -> dict[tuple[str, str, str], list[PuzzleRun]]:
    """Solve every puzzle under every combination; unsupported combinations are skipped."""
    puzzles = course_puzzles()
    combinations = [(v, o, s, h) for v, o in VARIANTS if v in viewpoint_names
                    for s in solvers for h in heuristics]
    runs: dict[tuple[str, str, str], list[PuzzleRun]] = {}
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("solving", total=len(combinations) * len(puzzles))
        for viewpoint, options, solver, heuristic in combinations:
            key = (label(viewpoint, options), solver, heuristic)
            try:
                for puzzle in puzzles:
                    run = solve_instance("sudoku", puzzle, viewpoint, solver, heuristic, options,
                                         time_limit=time_limit)
                    if run.result.status is Status.ERROR or run.violations:
                        raise SystemExit(f"wrong result for {puzzle.name} {key}: "
                                         f"{run.result.message or run.violations}")
                    runs.setdefault(key, []).append(run)
                    progress.advance(task)
            except UnsupportedCombination:
                progress.advance(task, len(puzzles) - len(runs.get(key, [])))
    return runs


def summary_table(runs: dict[tuple[str, str, str], list[PuzzleRun]]) -> Table:
    """One row per combination: solved, total and median time, total backtracks."""
    table = Table(title="14 course Sudokus")
    table.add_column("viewpoint", overflow="fold", min_width=24)
    for name in ("solver", "heuristic", "solved", "total ms", "median ms", "backtracks"):
        table.add_column(name)
    for (viewpoint, solver, heuristic), group in runs.items():
        solved = [r for r in group if r.result.status is Status.SOLVED]
        times = [r.result.statistics.solve_s * 1000 for r in group]
        backtracks = [r.result.statistics.backtracks for r in solved]
        shown = "-" if any(b is None for b in backtracks) else str(sum(backtracks))
        table.add_row(viewpoint, solver, heuristic, f"{len(solved)}/{len(group)}",
                      f"{sum(times):.1f}", f"{statistics.median(times):.2f}", shown)
    return table


def comparison_table(time_limit: float) -> Table:
    """Per puzzle: classic versus channeled on cp, first-fail/min, strong all_different."""
    table = Table("puzzle", "classic ms", "classic backtracks", "channeled ms",
                  "channeled backtracks",
                  title="cp, first-fail/min, strong all_different")
    for puzzle in course_puzzles():
        cells = []
        for viewpoint in ("classic", "channeled"):
            run = solve_instance("sudoku", puzzle, viewpoint, "cp", "first-fail/min",
                                 {"alldiff": "strong"}, time_limit=time_limit)
            assert run.correct, (puzzle.name, viewpoint)
            cells += [f"{run.result.statistics.solve_s * 1000:.2f}",
                      str(run.result.statistics.backtracks)]
        table.add_row(puzzle.name, *cells)
    return table


def main(argv: list[str] | None = None) -> None:
    """Parse the options, run the grid, print both tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solvers", nargs="+", default=["cp", "cpsat", "python-constraint"])
    parser.add_argument("--heuristics", nargs="+", default=DEFAULT_HEURISTICS)
    parser.add_argument("--viewpoints", nargs="+",
                        default=[v.name for v in viewpoints_of("sudoku")])
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per run")
    arguments = parser.parse_args(argv)
    console = Console()
    runs = run_grid(arguments.solvers, arguments.heuristics, arguments.viewpoints,
                    arguments.time_limit, console)
    console.print(summary_table(runs))
    console.print(comparison_table(arguments.time_limit))


if __name__ == "__main__":
    main()
