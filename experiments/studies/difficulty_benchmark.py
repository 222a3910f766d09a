"""Difficulty benchmark: ``generate --difficulty GRADE`` for every grade of every puzzle's
ladder, with the command's defaults, whole processes, every instance graded again apart
from the generator.

``python -m experiments.studies.difficulty_benchmark [--seeds 5] [--base REV]
[--base-seeds 3] [--output FOLDER]`` runs ``puzzlelab generate PUZZLE --difficulty GRADE
--seed S`` for S = 1..N as fresh processes, under the command's default 60 s budget and
with no other option (so each grade's own generator options, declared beside its ladder,
apply), and times each. Each written file is then checked apart from the generator: its
known solution must pass the puzzle's checker, and ``puzzlelab grade``'s grading must
find exactly one solution (counted on the ladder's search model, another solver than the
generator counts with) and the grade asked. With ``--base``, the same commands run on
that commit too (checked out into a temporary git worktree), on the first
``--base-seeds`` seeds: the times before. The figures go to ``runs.csv``; ``--from
runs.csv`` makes the README again.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from experiments.studies.kit import (
    ROOT,
    Column,
    Ended,
    Process,
    Row,
    Study,
    Turn,
    code,
    plain_rows,
    progress,
    puzzlelab_script,
    run_main,
    run_once,
    table,
    target_verdict,
    text,
    yes_no,
)
from experiments.studies.kit.study import every_problem

FIELDS = ["side", "puzzle", "grade", "seed", "seconds", "exit", "options", "size", "found",
          "solutions", "checked"]
OURS, BASE = "ours", "base"
BUDGET_S, GRADE_LIMIT_S = 60.0, 120.0
SIZES: Mapping[str, tuple[str, Callable[[Any], int]]] = {
    "sudoku": ("clues", lambda i: sum(1 for row in i.givens for value in row if value)),
    "hashi": ("islands", lambda i: len(i.islands)),
    "nonogram": ("cells", lambda i: i.height * i.width),
    "shikaku": ("rooms", lambda i: sum(1 for row in i.clues for clue in row if clue)),
}
"""What the size column counts for each puzzle."""


def grades() -> list[tuple[str, str]]:
    """Every (puzzle, grade) of every ladder, weakest first."""
    from viewpoints import LADDERS

    return [(puzzle, grade) for puzzle in LADDERS.names()
            for grade in LADDERS.get(puzzle).grades]


def independent_check(puzzle: str, folder: Path) -> dict[str, str]:
    """Of the file written in ``folder``: the options in its name, its size, the grade
    the grader gives it (or why none), the solutions the grader's count found (-1: not a
    finished count) and whether its known solution passes the checker (1 or 0; a file
    refused, or none, is size 0, no grade, not checked)."""
    from experiments.reasoning import grade
    from puzzlelab.errors import PuzzleLabError
    from puzzles import PUZZLES

    kind = PUZZLES.get(puzzle)
    written = sorted(folder.iterdir()) if folder.is_dir() else []
    try:
        instance = kind.load(written[0])
    except (IndexError, PuzzleLabError):
        return {"options": "", "size": "0", "found": "", "solutions": "-1", "checked": "0"}
    known = kind.known_solution(instance)
    found = grade(puzzle, instance, time_limit=GRADE_LIMIT_S)
    options = written[0].stem.removeprefix(f"{puzzle}-").rsplit("-s", 1)[0]
    return {"options": options, "size": str(SIZES[puzzle][1](instance)),
            "found": found.verdict,
            "solutions": "-1" if found.solutions is None else str(found.solutions),
            "checked": str(int(known is not None and not kind.check(instance, known)))}


def generating(puzzle: str, grade: str, folder: Path | None) -> Process:
    """``generate PUZZLE --difficulty GRADE`` as a process, its seed the turn's round,
    run in ``folder`` (a checkout of another commit) or this checkout; its file written
    in the turn's folder and checked there."""
    def figures(ended: Ended) -> Mapping[str, float]:
        return {"exit": ended.code}

    command = [sys.executable, "-m", "experiments"] if folder else puzzlelab_script()
    return Process(f"{puzzle} {grade}", lambda turn: [
        *command, "generate", puzzle, "--difficulty", grade, "--seed", str(turn.round),
        "--output", str(turn.folder / "out")], lambda ended: True, figures, cwd=folder)


def run_side(side: str, seeds: int, folder: Path | None, scratch: Path) -> list[Row]:
    """One row a puzzle, grade and seed: the process's time and exit status, and the
    check of what it wrote."""
    rows = []
    for puzzle, grade in grades():
        for seed in range(1, seeds + 1):
            turn = Turn(seed, scratch / f"{side}-{puzzle}-{grade}-{seed}")
            timing = run_once(generating(puzzle, grade, folder), turn)
            row = {"side": side, "puzzle": puzzle, "grade": grade, "seed": str(seed),
                   "seconds": f"{timing.seconds:.3f}",
                   "exit": str(int(timing.figures["exit"])),
                   **independent_check(puzzle, turn.folder / "out")}
            rows.append(row)
            progress(f"{side} {puzzle} {grade} seed {seed}: {timing.seconds:.1f} s, exit "
                     f"{row['exit']}, {row['found'] or 'nothing written'}")
    return rows


def measure(arguments: argparse.Namespace) -> list[Row]:
    """Our rows, then the base commit's (when asked), in a scratch folder."""
    with tempfile.TemporaryDirectory(prefix="difficulty-") as name:
        scratch = Path(name)
        rows = run_side(OURS, arguments.seeds, None, scratch)
        if arguments.base:
            base = scratch / "base-checkout"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base),
                            arguments.base], check=True, capture_output=True)
            try:
                rows += run_side(f"{BASE} {arguments.base}",
                                 min(arguments.seeds, arguments.base_seeds), base, scratch)
            finally:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(base)], check=False, capture_output=True)
    return rows


def correct(row: Row) -> bool:
    """The process succeeded and wrote a puzzle of the grade asked, with exactly one
    solution, whose known solution checks."""
    return (row["exit"] == "0" and row["found"] == row["grade"] and row["solutions"] == "1"
            and row["checked"] == "1")


def wrong(row: Row) -> str | None:
    """A row of ours that wrote a file the check refuses (a grade not reached in the
    budget writes none: that is a target missed, not a wrong answer)."""
    if row["side"] != OURS or row["exit"] != "0" or correct(row):
        return None
    return f"{row['puzzle']} {row['grade']} seed {row['seed']}"


def _side(rows: Sequence[Row], prefix: str) -> list[Row]:
    return [row for row in rows if row["side"].startswith(prefix)]


def _spread(rows: Sequence[Row]) -> str:
    """``3/5, median 1.2 s`` of a grade's runs (the median of those that reached it)."""
    if not rows:
        return "–"
    reached = [float(row["seconds"]) for row in rows if correct(row)]
    median = f", median {statistics.median(reached):.1f} s" if reached else ""
    return f"{len(reached)}/{len(rows)}{median}"


def _options(rows: Sequence[Row]) -> str:
    """The options the files of a grade's runs were made with, as their names give them
    (``–`` when none was written)."""
    written = sorted({row["options"] for row in rows if row["options"]})
    return ", ".join(map(code, written)) or "–"


def report(rows: Sequence[Row], command: str) -> str:
    """The README: each grade before and after, each run of ours, a target per grade."""
    ours, base = _side(rows, OURS), _side(rows, BASE)
    asked = list(dict.fromkeys((row["puzzle"], row["grade"]) for row in ours))

    def runs(of: Sequence[Row], key: tuple[str, str]) -> list[Row]:
        return [row for row in of if (row["puzzle"], row["grade"]) == key]

    def met(key: tuple[str, str]) -> bool:
        mine = runs(ours, key)
        return all(correct(row) and float(row["seconds"]) < BUDGET_S for row in mine)

    def slowest(key: tuple[str, str]) -> str:
        return f"{max(float(row['seconds']) for row in runs(ours, key)):.1f}"

    base_name = base[0]["side"].removeprefix(f"{BASE} ") if base else ""
    summary: list[Column[tuple[str, str]]] = [
        text("puzzle", lambda key: key[0]), text("grade", lambda key: key[1]),
        *([text(f"before ({base_name}): options", lambda key: _options(runs(base, key))),
           Column("reached", lambda key: _spread(runs(base, key)))] if base else []),
        text("options", lambda key: _options(runs(ours, key))),
        Column("reached", lambda key: _spread(runs(ours, key))),
        Column("slowest (s)", slowest),
        text(f"every seed under {BUDGET_S:g} s", lambda key: target_verdict(met(key)))]
    each: list[Column[Row]] = [
        text("puzzle", lambda row: row["puzzle"]), text("grade", lambda row: row["grade"]),
        Column("seed", lambda row: row["seed"]),
        Column("seconds", lambda row: f"{float(row['seconds']):.1f}"),
        text("options", lambda row: code(row["options"]) if row["options"] else "–"),
        Column("size", lambda row: row["size"]),
        text("graded", lambda row: row["found"] or "–"),
        text("checked", lambda row: yes_no(correct(row)))]
    seeds = max(int(row["seed"]) for row in ours)
    lines = ["# Difficulty benchmark: every grade of every puzzle, whole processes", "",
             f"Written by `{command}`. Each seed runs, as a fresh process (start-up "
             f"included) under the command's default {BUDGET_S:g} s budget, `puzzlelab "
             "generate PUZZLE --difficulty GRADE --seed S` with no other option, so each "
             "grade's own generator options apply (the options column: as the file names "
             "them; a grade none of whose runs wrote a file shows none). Each file written "
             "is checked apart from the generator: its known "
             "solution passes the checker, and `puzzlelab grade`'s grading (its count to two "
             "on the ladder's search model, on another solver than the generator counts "
             "with, then the rungs) finds one solution and the grade asked. Reached: the "
             f"seeds of {seeds} that wrote such a file, and their median time"
             + (f"; before: the same commands at commit {base_name}, on its first "
                f"{max(int(row['seed']) for row in base)} seeds." if base else "."),
             "", *table(asked, summary), "",
             f"Size: {', '.join(f'{puzzle} {name}' for puzzle, (name, _) in SIZES.items())}.",
             "", "## Each run", "", *table(ours, each), ""]
    return "\n".join(lines)


def remade_by(rows: Sequence[Row]) -> str:
    """The options that measure such rows again."""
    ours, base = _side(rows, OURS), _side(rows, BASE)
    options = f"--seeds {max(int(row['seed']) for row in ours)}"
    if base:
        options += (f" --base {base[0]['side'].removeprefix(f'{BASE} ')} --base-seeds "
                    f"{max(int(row['seed']) for row in base)}")
    return options


def options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's own options."""
    parser.add_argument("--seeds", type=int, default=5, help="seeds 1..N (default 5)")
    parser.add_argument("--base", help="also time this commit (before), in a worktree")
    parser.add_argument("--base-seeds", type=int, default=3,
                        help="seeds of the base commit (default 3)")


STUDY = Study("experiments.studies.difficulty_benchmark", __doc__ or "", plain_rows(FIELDS),
              options, measure, remade_by, report, lambda rows: every_problem(rows, wrong),
              "difficulty-benchmark")
main = STUDY.main
"""Measure (or read back with ``--from``), print the report, write it with the rows."""


if __name__ == "__main__":
    run_main(main)
