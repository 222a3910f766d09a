"""Start-up benchmark: ``puzzlelab`` commands against a direct pychoco script, whole processes.

``python -m experiments.studies.startup [--rounds 20] [--output results/startup-benchmark]``
runs, in each round and in a shuffled order, every command of :data:`COMMANDS` as a
fresh process: ``puzzlelab solve sudoku`` and the direct script
(:mod:`experiments.studies.sudoku_direct`) on the same one-puzzle file (round ``r`` takes
the ``r``-th 17-clue puzzle of Royle's collection), ``--version``, ``--help``, ``list``,
an automata solve, and the bare interpreter for scale. Both Sudoku solutions are checked
by the Sudoku checker (a 17-clue puzzle has one solution: two checked answers are
the same). Each time is the wall clock from starting the
process to its end, as a user waits for it. A first round, untimed, lets Python write
the bytecode both sides then read.

The times go to ``runs.csv``; the README's figures are computed from it, and
``--from runs.csv`` computes them again without running anything.
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from experiments.studies.kit import (
    ROOT,
    Column,
    Ended,
    Process,
    Row,
    RowsStudy,
    Spread,
    Turn,
    code,
    ms,
    puzzlelab_script,
    run_main,
    spread_columns,
    table,
    target_verdict,
    time_rounds,
)
from experiments.studies.sudoku_direct import WHY_THIS_SCRIPT
from puzzles import PUZZLES

__all__ = ["ROOT", "main", "puzzlelab_script"]

PUZZLE_FILE = ROOT / "puzzles" / "data" / "sudoku" / "royle_17clue_first1000.txt"
DIRECT = ROOT / "experiments" / "studies" / "sudoku_direct.py"
PLUS = ROOT / "puzzles" / "data" / "nonogram" / "small" / "plus_3x3.non"
PYTHON, SOLVE, DIRECT_NAME = ("python -c pass", "puzzlelab solve sudoku FILE",
                              "direct pychoco script FILE")
AUTOMATA = "puzzlelab solve nonogram PLUS --solver automata"
FIRST_AUTOMATA = AUTOMATA + " (first use on a machine)"
QUICK = ("puzzlelab --version", "puzzlelab --help", "puzzlelab list")
COMMANDS = (PYTHON, DIRECT_NAME, SOLVE, *QUICK, AUTOMATA, FIRST_AUTOMATA)
"""What each round runs, by the name the tables give it. The first use of the automata
engine runs with a kernel cache of its own, empty: it compiles."""
RATIO_TARGET, RATIO_AIM, QUICK_TARGET = 3.0, 2.0, 0.3


def puzzle_file(turn: Turn) -> Path:
    """The round's one-puzzle file, in the turn's folder."""
    path = turn.folder / "royle17.txt"
    if not path.exists():
        lines = [line.strip() for line in PUZZLE_FILE.read_text().splitlines()
                 if line.strip() and not line.startswith("#")]
        path.write_text(lines[turn.round % len(lines)] + "\n")
    return path


def sudoku_digits(name: str, output: str) -> str | None:
    """The 81 digits of the solution a solving command printed, or None."""
    if name == DIRECT_NAME:
        found = output.strip()
    elif "check: correct" in output:  # the run's own checker agreed
        found = "".join(ch for line in output.splitlines() if "|" in line
                        for ch in line if ch.isdigit())
    else:
        return None
    return found if len(found) == 81 and found.isdigit() else None


def sudoku_correct(name: str, ended: Ended) -> bool:
    """Whether a Sudoku solving process ended well with a solution the checker accepts."""
    digits = sudoku_digits(name, ended.stdout)
    if ended.code != 0 or digits is None:
        return False
    kind = PUZZLES.get("sudoku")
    solution = kind.solution_from_json([[int(d) for d in digits[r * 9:r * 9 + 9]]
                                        for r in range(9)])
    return kind.check(kind.load(puzzle_file(ended.turn)), solution) == []


def automata_correct(first_use: bool, ended: Ended) -> bool:
    """Whether the automata solve was checked correct, and said beforehand that it
    compiles exactly when it is the engine's first use."""
    compiles = "compiling the automata engine" in ended.stderr
    return ended.code == 0 and "check: correct" in ended.stdout and compiles == first_use


def always(command: list[str]) -> Callable[[Turn], list[str]]:
    """The same command in every turn."""
    return lambda turn: command


def processes() -> list[Process]:
    """Every command of a round, with the check of its answer."""
    python, puzzlelab = [sys.executable], puzzlelab_script()
    automata = [*puzzlelab, "solve", "nonogram", str(PLUS), "--solver", "automata"]
    found = [
        Process(PYTHON, lambda turn: [*python, "-c", "pass"], lambda ended: ended.code == 0),
        Process(DIRECT_NAME, lambda turn: [*python, str(DIRECT), str(puzzle_file(turn))],
                lambda ended: sudoku_correct(DIRECT_NAME, ended)),
        Process(SOLVE, lambda turn: [*puzzlelab, "solve", "sudoku", str(puzzle_file(turn))],
                lambda ended: sudoku_correct(SOLVE, ended)),
        *(Process(name, always([*puzzlelab, *name.split()[1:]]),
                  lambda ended: ended.code == 0 and bool(ended.stdout.strip()))
          for name in QUICK),
        Process(AUTOMATA, lambda turn: automata, lambda ended: automata_correct(False, ended)),
        Process(FIRST_AUTOMATA, lambda turn: automata,
                lambda ended: automata_correct(True, ended),
                environment=lambda turn: {"PUZZLELAB_CACHE_DIR": str(turn.folder / "kernels")}),
    ]
    return [dataclasses.replace(process, cwd=ROOT) for process in found]


def measure(rounds: int) -> list[Row]:
    """Every command once per round, shuffled, each a whole process, timed."""
    return [{"round": str(t.round), "command": t.process, "seconds": f"{t.seconds:.6f}",
             "correct": str(int(t.correct))}
            for t in time_rounds(processes(), rounds, warm_up=True)]


def seconds_of(rows: Sequence[Row], name: str) -> list[float]:
    """The times of the command ``name``, round by round."""
    return [float(row["seconds"]) for row in rows if row["command"] == name]


def report(rows: Sequence[Row], command: str) -> str:
    """The README: the times of each command, the ratio to the direct script, the targets."""
    spreads = {name: Spread.of(seconds_of(rows, name)) for name in COMMANDS}
    correct = {name: sum(r["correct"] == "1" for r in rows if r["command"] == name)
               for name in COMMANDS}
    columns: list[Column[str]] = [
        Column("command", code, figures=False), Column("processes", lambda n: spreads[n].count),
        Column("correct", lambda n: correct[n]),
        *spread_columns(spreads, ("median (ms)", "mean (ms)", "min (ms)", "max (ms)"), ms)]
    lines = ["# Start-up benchmark: commands and a direct script, as whole processes", "",
             f"Written by `{command}`; every process a fresh one, timed from its start to "
             "its end; the commands interleaved, in a shuffled order, round by round. "
             "Each round solves another of Royle's 17-clue puzzles, alone in its file, "
             "with both solvers, and checks both answers with the Sudoku checker. "
             + WHY_THIS_SCRIPT, "",
             *table(COMMANDS, columns)]
    ratios = [ours / direct for ours, direct in zip(seconds_of(rows, SOLVE),
                                                    seconds_of(rows, DIRECT_NAME), strict=True)]
    ratio = statistics.median(ratios)
    lines += ["", f"- `{SOLVE}` over the direct script, round by round: median "
                  f"{ratio:.2f}x (from {min(ratios):.2f}x to {max(ratios):.2f}x).",
              f"- within {RATIO_TARGET:g}x the direct script: "
              f"{target_verdict(ratio <= RATIO_TARGET)}; "
              f"within the {RATIO_AIM:g}x aimed at: {target_verdict(ratio <= RATIO_AIM)}."]
    for name in QUICK:
        lines.append(f"- `{name}` under {QUICK_TARGET:g} s: "
                     f"{target_verdict(spreads[name].median < QUICK_TARGET)} (median "
                     f"{spreads[name].median * 1000:.0f} ms, slowest "
                     f"{spreads[name].most * 1000:.0f} ms).")
    kept, first = spreads[AUTOMATA].median, spreads[FIRST_AUTOMATA]
    lines.append(f"- `{AUTOMATA}`, the engine compiled before, under 1 s: "
                 f"{target_verdict(kept < 1.0)} "
                 f"(median {kept * 1000:.0f} ms); its first use on a machine says "
                 f"beforehand that it compiles, and for about how long, in every round: "
                 f"{target_verdict(correct[FIRST_AUTOMATA] == first.count)} "
                 f"(median {first.median:.1f} s).")
    lines.append(f"- processes that failed or whose answer the checker rejected: "
                 f"{sum(row['correct'] != '1' for row in rows)}.")
    floor, ours, direct = (spreads[name].median * 1000 for name in (PYTHON, SOLVE, DIRECT_NAME))
    lines += ["", "## What it shows", "",
              f"Past the bare interpreter's start ({floor:.1f} ms, the medians here), the "
              f"solve takes {ours - floor:.1f} ms and the direct script {direct - floor:.1f} ms, "
              "of which importing pychoco and starting Choco is the same on both sides. What "
              "PuzzleLab adds is its own modules (the Sudoku puzzle, its classic viewpoint, "
              "the model layer, the solve loop, the Choco backend and the checks; most of "
              "their cost is Python creating their classes), the standard library's "
              "`argparse`, `dataclasses` and `typing`, reading the file with its checks, and "
              "the run's own checking and statistics. Nothing else: no other puzzle, "
              "viewpoint or solver library, no plotting, no campaign engine "
              "(`tests/architecture/test_import_budget.py` holds that list)."]
    return "\n".join(lines) + "\n"


STUDY = RowsStudy(
    "experiments.studies.startup", __doc__ or "", ("--rounds", 20, "timed rounds"),
    ["round", "command", "seconds", "correct"], measure, report,
    lambda row: None if row["correct"] == "1" else f"{row['command']} (round {row['round']})",
    "startup-benchmark")
main = STUDY.main
"""Measure (or read back with ``--from``), print the report, write it with the rows."""


if __name__ == "__main__":
    run_main(main)
