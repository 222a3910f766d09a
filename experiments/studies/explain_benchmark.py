"""Explanation speed: ``puzzlelab explain --json`` of one instance, in full, every step
checked, as a user waits for it, on instances we did not make.

``python -m experiments.studies.explain_benchmark [--count 3] [--output FOLDER]`` runs,
as fresh processes pinned to one core (``taskset -c 0`` where it exists), ``puzzlelab
explain PUZZLE FILE --json`` on: the first ``--count`` 17-clue Sudokus of the shipped
Royle set, and ``--count`` 20x20 Nonograms, 15x15 Hashi and 15x15 Shikaku made with
fixed seeds by the generators of Simon Tatham's Portable Puzzle Collection (Debian's
``sgt-puzzles``). Each process's wall time is taken from outside, start-up included; the
solution it prints is read back and judged by the puzzle's checker in this process. The
target: every explanation within 30 s. The figures go to ``runs.csv``; ``--from
runs.csv`` makes the README again.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
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
    tatham,
    text,
    yes_no,
)
from experiments.studies.kit.study import every_problem

FIELDS = ["puzzle", "count", "source", "instance", "seconds", "exit", "steps", "difficulty",
          "ending", "checked", "explain_seconds"]
TARGET_S = 30.0
ROYLE = "puzzles/data/sudoku/royle_17clue_first1000.txt"


@dataclass(frozen=True)
class Asked:
    """Where one puzzle's instances come from: a shipped file (its first instances), or
    a Tatham generator's parameters (seeds 1, 2...)."""

    shipped: str | None = None
    parameters: str | None = None

    def source(self, puzzle: str) -> str:
        """The instances' origin, as the README names it."""
        if self.shipped is not None:
            return self.shipped
        return f"{tatham.PROGRAMS[puzzle]} --generate 1 {self.parameters}#S"


ASKED = {"sudoku": Asked(shipped=ROYLE), "nonogram": Asked(parameters="20x20"),
         "hashi": Asked(parameters="15x15i30e10m2d2"), "shikaku": Asked(parameters="15x15")}
"""Each puzzle's instances."""


def pinned() -> list[str]:
    """The prefix that keeps a process on one core, where ``taskset`` exists."""
    return ["taskset", "-c", "0"] if shutil.which("taskset") else []


def instances(puzzle: str, count: int, folder: Path) -> list[tuple[str, Path, str, Any]]:
    """``count`` instances of ``puzzle``: each its name in the README, the file the
    command reads, its ``--instance`` selector (empty: the file's one) and the instance."""
    from puzzles import PUZZLES

    kind, asked = PUZZLES.get(puzzle), ASKED[puzzle]
    if asked.shipped is not None:
        shipped = kind.read(ROOT / asked.shipped)[:count]
        return [(kind.instance_name(instance), ROOT / asked.shipped, str(number), instance)
                for number, instance in enumerate(shipped, 1)]
    made = []
    for seed in range(1, count + 1):
        game_id = tatham.generated(puzzle, f"{asked.parameters}#{seed}")[0]
        path = folder / f"{puzzle}-{seed}.txt"
        path.write_text(game_id + "\n", encoding="utf-8")
        made.append((f"seed {seed}", path, "", kind.read(path)[0]))
    return made


def explaining(puzzle: str, path: Path, selector: str, instance: Any) -> Process:
    """``explain PUZZLE FILE --json`` of one instance, its printed solution checked."""
    from experiments.reasoning.steps import ENDINGS
    from puzzles import PUZZLES

    kind = PUZZLES.get(puzzle)

    def figures(ended: Ended) -> dict[str, float]:
        if ended.code != 0:
            return {"exit": ended.code}
        found = json.loads(ended.stdout)[0]
        solved = found["solution"] is not None
        checked = solved and not kind.check(instance, kind.solution_from_json(found["solution"]))
        ending = ENDINGS.index(found["ending"]) if found["ending"] in ENDINGS else -1
        return {"exit": 0, "steps": found["steps"] if isinstance(found["steps"], int)
                else len(found["steps"]), "difficulty": found["difficulty"],
                "ending": ending, "checked": int(checked),
                "explain_seconds": found["seconds"]}

    chosen = ["--instance", selector] if selector else []
    return Process(puzzle, lambda turn: [*pinned(), *puzzlelab_script(), "explain", puzzle,
                                         str(path), *chosen, "--json"],
                   lambda ended: ended.code == 0, figures)


def measure(arguments: argparse.Namespace) -> list[Row]:
    """One row an instance: the process's time, and what its explanation printed."""
    count: int = arguments.count
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="explain-benchmark-") as name:
        folder = Path(name)
        for puzzle, asked in ASKED.items():
            for label, path, selector, instance in instances(puzzle, count, folder):
                timing = run_once(explaining(puzzle, path, selector, instance),
                                  Turn(1, folder / f"turn-{puzzle}-{len(rows)}"))
                got = timing.figures
                ending = int(got.get("ending", -1))
                endings = _endings()
                rows.append({
                    "puzzle": puzzle, "count": str(count), "source": asked.source(puzzle),
                    "instance": label, "seconds": f"{timing.seconds:.3f}",
                    "exit": str(int(got["exit"])), "steps": _whole(got.get("steps")),
                    "difficulty": _whole(got.get("difficulty")),
                    "ending": endings[ending] if ending >= 0 else "",
                    "checked": _whole(got.get("checked", 0)),
                    "explain_seconds": f"{got['explain_seconds']:.3f}"
                    if "explain_seconds" in got else ""})
                progress(f"{puzzle} {label}: {timing.seconds:.1f} s, {rows[-1]['steps']} "
                         f"steps, difficulty {rows[-1]['difficulty']}, "
                         f"{rows[-1]['ending'] or 'exit ' + rows[-1]['exit']}")
    return rows


def _endings() -> tuple[str, ...]:
    """How an explanation may end, by the number a timing's figures carry."""
    from experiments.reasoning.steps import ENDINGS

    return ENDINGS


def _whole(value: float | None) -> str:
    return "" if value is None else str(int(value))


def correct(row: Row) -> bool:
    """The explanation reached the solution, which the checker accepts."""
    return row["exit"] == "0" and row["ending"] == "solved" and row["checked"] == "1"


def in_time(row: Row) -> bool:
    """Explained in full, correctly, within the target."""
    return correct(row) and float(row["seconds"]) <= TARGET_S


COLUMNS: list[Column[Row]] = [
    text("instance", lambda row: row["instance"]),
    Column("seconds", lambda row: f"{float(row['seconds']):.1f}"),
    Column("of which explaining", lambda row: f"{float(row['explain_seconds']):.1f}"
           if row["explain_seconds"] else "–"),
    Column("steps", lambda row: row["steps"] or "–"),
    Column("difficulty", lambda row: row["difficulty"] or "–"),
    text("ending", lambda row: row["ending"] or f"exit {row['exit']}"),
    text("solution checked", lambda row: yes_no(correct(row)))]


def report(rows: Sequence[Row], command: str) -> str:
    """The README: what is timed, a table per puzzle, the target per puzzle."""
    puzzles = list(dict.fromkeys(row["puzzle"] for row in rows))
    lines = ["# Explanation speed: one instance explained in full, whole processes", "",
             f"Written by `{command}`. Each instance is explained by a fresh process, "
             f"pinned to one core, `puzzlelab explain PUZZLE FILE --json` (with `--instance "
             "N` for a shipped file): every step found cheapest first and checked by a "
             "solver that did not find it, to the end. Seconds: the process's wall time "
             "from outside, start-up included (of which explaining: the time the "
             "explanation itself reports). The solution it prints is read back and "
             "judged by the puzzle's checker. Instances we did not make: Royle's 17-clue "
             "Sudokus, and IDs made with fixed seeds by the generators of Simon Tatham's "
             "Portable Puzzle Collection (`apt-get install sgt-puzzles`). Difficulty: the "
             f"hardest step's cost. Target: every instance explained within {TARGET_S:g} s.",
             ""]
    for puzzle in puzzles:
        mine = [row for row in rows if row["puzzle"] == puzzle]
        times = [float(row["seconds"]) for row in mine]
        lines += [f"## {puzzle.capitalize()}", "", f"From {code(mine[0]['source'])}.", "",
                  *table(mine, COLUMNS), "",
                  f"Median {statistics.median(times):.1f} s, slowest {max(times):.1f} s; "
                  f"every instance explained and checked within {TARGET_S:g} s: "
                  f"{target_verdict(all(map(in_time, mine)))}.", ""]
    return "\n".join(lines)


def wrong(row: Row) -> str | None:
    """A solution printed that the checker refuses (a slow or unfinished explanation is a
    target missed, not a wrong answer)."""
    if row["exit"] != "0" or row["ending"] != "solved" or correct(row):
        return None
    return f"{row['puzzle']} {row['instance']}: the checker refuses its solution"


def options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's own option."""
    parser.add_argument("--count", type=int, default=3,
                        help="instances of each puzzle (default 3)")


STUDY = Study("experiments.studies.explain_benchmark", __doc__ or "", plain_rows(FIELDS),
              options, measure, lambda rows: f"--count {max(int(r['count']) for r in rows)}",
              report, lambda rows: every_problem(rows, wrong), "explain-benchmark")
main = STUDY.main
"""Measure (or read back with ``--from``), print the report, write it with the rows."""


if __name__ == "__main__":
    run_main(main)
