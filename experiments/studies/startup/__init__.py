"""Start-up benchmark: ``puzzlelab`` commands against a direct pychoco script, whole processes.

``python -m experiments.studies.startup [--rounds 20] [--output results/startup-benchmark]``
runs, in each round and in a shuffled order, every command of :data:`COMMANDS` as a
fresh process: ``puzzlelab solve sudoku`` and the direct script
(:mod:`.direct_pychoco`) on the same one-puzzle file (round ``r`` takes the ``r``-th
17-clue puzzle of Royle's collection), ``--version``, ``--help``, ``list``, and the bare
interpreter for scale. Both solutions are checked by the Sudoku checker and must agree.
Each time is the wall clock from starting the process to its end, as a user waits
for it. A first round, untimed, lets Python write the bytecode both sides then read.

The times go to ``runs.csv``; the README's figures are computed from it, and
``--from runs.csv`` computes them again without running anything.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from experiments.studies.kit import met, publish
from puzzles import PUZZLES

ROOT = Path(__file__).resolve().parents[3]
PUZZLE_FILE = ROOT / "puzzles" / "data" / "sudoku" / "royle_17clue_first1000.txt"
DIRECT = Path(__file__).with_name("direct_pychoco.py")
SOLVE, DIRECT_NAME = "puzzlelab solve sudoku FILE", "direct pychoco script FILE"
COMMANDS = {
    "python -c pass": ["{python}", "-c", "pass"],
    DIRECT_NAME: ["{python}", str(DIRECT), "{file}"],
    SOLVE: ["{puzzlelab}", "solve", "sudoku", "{file}"],
    "puzzlelab --version": ["{puzzlelab}", "--version"],
    "puzzlelab --help": ["{puzzlelab}", "--help"],
    "puzzlelab list": ["{puzzlelab}", "list"],
}
PLUS = ROOT / "puzzles" / "data" / "nonogram" / "small" / "plus_3x3.non"
AUTOMATA = "puzzlelab solve nonogram PLUS --solver automata"
FIRST_AUTOMATA = AUTOMATA + " (first use on a machine)"
for _name in (AUTOMATA, FIRST_AUTOMATA):
    COMMANDS[_name] = ["{puzzlelab}", "solve", "nonogram", str(PLUS), "--solver", "automata"]
"""What each round runs, by the name the tables give it (``{file}``: the round's puzzle,
``{python}``: this interpreter, ``{puzzlelab}``: :func:`puzzlelab_script`). The first
use of the automata engine runs with a kernel cache of its own, empty: it compiles."""
RATIO_TARGET, RATIO_AIM, QUICK_TARGET = 3.0, 2.0, 0.3
QUICK = ("puzzlelab --version", "puzzlelab --help", "puzzlelab list")


@dataclass(frozen=True)
class Timing:
    """One process: its round, what it ran, its wall time, whether its answer held."""

    round: int
    command: str
    seconds: float
    correct: bool


def puzzlelab_script() -> list[str]:
    """How this environment starts ``puzzlelab``: its console script beside the
    interpreter, else ``python -m experiments``."""
    script = Path(sys.executable).with_name("puzzlelab")
    return [str(script)] if script.exists() else [sys.executable, "-m", "experiments"]


def command_line(name: str, file: Path) -> list[str]:
    """The process to start for the command ``name`` on ``file``."""
    words: list[str] = []
    for word in COMMANDS[name]:
        if word == "{puzzlelab}":
            words += puzzlelab_script()
        else:
            words.append(word.replace("{file}", str(file)).replace("{python}", sys.executable))
    return words


def solution_digits(name: str, output: str) -> str | None:
    """The 81 digits of the solution a solving command printed, or None."""
    if name == DIRECT_NAME:
        found = output.strip()
    elif name == SOLVE and "check: correct" in output:  # the run's own checker agreed
        found = "".join(ch for line in output.splitlines() if "|" in line
                        for ch in line if ch.isdigit())
    else:
        return None
    return found if len(found) == 81 and found.isdigit() else None


def checked(name: str, output: str, code: int, file: Path,
            said: str = "") -> tuple[bool, str | None]:
    """Whether the process ended well and its solution (if it solves) passes the
    checker (a first automata solve must also say, on stderr, that it compiles); the
    Sudoku solution's digits."""
    if code != 0:
        return False, None
    if name in (AUTOMATA, FIRST_AUTOMATA):
        compiles = "compiling the automata engine" in said
        return "check: correct" in output and compiles == (name == FIRST_AUTOMATA), None
    if name not in (SOLVE, DIRECT_NAME):  # the interpreter alone prints nothing
        return name == "python -c pass" or bool(output.strip()), None
    digits = solution_digits(name, output)
    if digits is None:
        return False, None
    kind = PUZZLES.get("sudoku")
    instance = kind.load(file)
    solution = kind.solution_from_json([[int(d) for d in digits[r * 9:r * 9 + 9]]
                                        for r in range(9)])
    return kind.check(instance, solution) == [], digits


def measure(rounds: int, progress: bool = True) -> list[Timing]:
    """Every command once per round, shuffled, each a whole process, timed."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    puzzles = [line.strip() for line in PUZZLE_FILE.read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    timings = []
    with tempfile.TemporaryDirectory() as folder:
        for round_number in range(rounds + 1):  # round 0 warms up, untimed
            file = Path(folder) / f"royle17-{round_number + 1}.txt"
            file.write_text(puzzles[round_number % len(puzzles)] + "\n")
            order = list(COMMANDS)
            random.Random(round_number).shuffle(order)
            answers: set[str] = set()
            for name in order:
                fresh = Path(folder) / f"kernels-{round_number}"  # empty: compiled anew
                start = time.perf_counter()
                done = subprocess.run(command_line(name, file), capture_output=True,
                                      text=True, cwd=ROOT,
                                      env={**environment, "PUZZLELAB_CACHE_DIR": str(fresh)}
                                      if name == FIRST_AUTOMATA else environment)
                seconds = time.perf_counter() - start
                correct, digits = checked(name, done.stdout, done.returncode, file,
                                          done.stderr)
                if digits is not None:
                    answers.add(digits)
                if round_number:
                    timings.append(Timing(round_number, name, seconds, correct))
            if len(answers) > 1:  # both sides checked, and they must agree (17 clues: unique)
                timings = [t if t.round != round_number or t.command not in (SOLVE, DIRECT_NAME)
                           else Timing(t.round, t.command, t.seconds, False) for t in timings]
            if progress:
                print(f"round {round_number}/{rounds} done", file=sys.stderr, flush=True)
    return timings


def write_runs(timings: Sequence[Timing], path: Path) -> None:
    """The timings as ``runs.csv``: one row per process."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["round", "command", "seconds", "correct"])
        for t in timings:
            writer.writerow([t.round, t.command, f"{t.seconds:.6f}", int(t.correct)])


def read_runs(path: Path) -> list[Timing]:
    """The timings ``write_runs`` wrote."""
    with path.open(newline="", encoding="utf-8") as lines:
        return [Timing(int(row["round"]), row["command"], float(row["seconds"]),
                       row["correct"] == "1") for row in csv.DictReader(lines)]


def report(timings: Sequence[Timing], command: str) -> str:
    """The README: the times of each command, the ratio to the direct script, the targets."""
    by_command = {name: [t for t in timings if t.command == name] for name in COMMANDS}
    lines = ["# Start-up benchmark (issue 43, items 1 and 7)", "",
             f"Written by `{command}`; every process a fresh one, timed from its start to "
             "its end; the commands interleaved, in a shuffled order, round by round. "
             "Each round solves another of Royle's 17-clue puzzles, alone in its file, "
             "with both solvers, and checks both answers with the Sudoku checker.", "",
             "| command | processes | correct | median (ms) | mean (ms) | min (ms) | max (ms) |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for name, rows in by_command.items():
        seconds = [t.seconds for t in rows]
        lines.append(f"| `{name}` | {len(rows)} | {sum(t.correct for t in rows)} | "
                     f"{statistics.median(seconds) * 1000:.1f} | "
                     f"{statistics.fmean(seconds) * 1000:.1f} | {min(seconds) * 1000:.1f} | "
                     f"{max(seconds) * 1000:.1f} |")
    ratios = [ours.seconds / direct.seconds
              for ours, direct in zip(by_command[SOLVE], by_command[DIRECT_NAME], strict=True)]
    ratio = statistics.median(ratios)
    wrong = sum(not t.correct for t in timings)
    lines += ["", f"- `{SOLVE}` over the direct script, round by round: median "
                  f"{ratio:.2f}x (from {min(ratios):.2f}x to {max(ratios):.2f}x).",
              f"- within {RATIO_TARGET:g}x the direct script: {met(ratio <= RATIO_TARGET)}; "
              f"within the {RATIO_AIM:g}x aimed at: {met(ratio <= RATIO_AIM)}."]
    for name in QUICK:
        slowest = max(t.seconds for t in by_command[name])
        median = statistics.median(t.seconds for t in by_command[name])
        lines.append(f"- `{name}` under {QUICK_TARGET:g} s: {met(median < QUICK_TARGET)} "
                     f"(median {median * 1000:.0f} ms, slowest {slowest * 1000:.0f} ms).")
    kept = statistics.median(t.seconds for t in by_command[AUTOMATA])
    lines.append(f"- `{AUTOMATA}`, the engine compiled before, under 1 s: "
                 f"{met(kept < 1.0)} (median {kept * 1000:.0f} ms); its first use on a "
                 f"machine says beforehand that it compiles, and for about how long, in every "
                 f"round: {met(all(t.correct for t in by_command[FIRST_AUTOMATA]))} "
                 f"(median {statistics.median(t.seconds for t in by_command[FIRST_AUTOMATA]):.1f}"
                 f" s).")
    lines.append(f"- processes that failed or whose answer the checker rejected: {wrong}.")
    floor, ours, direct = (statistics.median(t.seconds for t in by_command[name]) * 1000
                           for name in ("python -c pass", SOLVE, DIRECT_NAME))
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
              "(`tests/architecture/test_import_budget.py` holds that list).", "",
              "Recompute every figure above from the committed times with `python -m "
              "experiments.studies.startup --from results/startup-benchmark/runs.csv`."]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Measure (or read back with ``--from``), print the report, write it with the runs."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20, help="timed rounds (default 20)")
    parser.add_argument("--output", type=Path, help="folder for runs.csv and README.md")
    parser.add_argument("--from", dest="source", type=Path,
                        help="compute the report from this runs.csv instead of measuring")
    arguments = parser.parse_args(argv)
    if arguments.source is not None:
        timings = read_runs(arguments.source)
        rounds = max(t.round for t in timings)
    else:
        timings = measure(arguments.rounds)
        rounds = arguments.rounds
    command = f"python -m experiments.studies.startup --rounds {rounds}"
    if arguments.output is not None:
        command += f" --output {arguments.output}"
        if arguments.source is None:
            write_runs(timings, arguments.output / "runs.csv")
            # the report from the times as written (to the microsecond), as --from reads
            # them: a figure on a rounding edge then reads the same both ways
            timings = read_runs(arguments.output / "runs.csv")
    text = report(timings, command)
    wrong = [f"{t.command} (round {t.round})" for t in timings if not t.correct]
    return publish(text, None if arguments.output is None else arguments.output / "README.md",
                   wrong)
