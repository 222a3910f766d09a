"""Generator benchmark: ``generate --unique`` for every puzzle it covers (a 25x25 Sudoku, a
30x30 Hashi with 150 islands, a 200x200 Shikaku), whole processes, every instance checked
apart from the generator.

``python -m experiments.studies.generator_benchmark [--seeds 3] [--output FOLDER]`` runs
``puzzlelab generate PUZZLE OPTIONS --unique --seed S`` for S = 1..N as fresh processes,
under the command's default 60 s budget, and times each. Each written file is then
checked apart from the generator: its known solution must pass the puzzle's checker, and
a count to two solutions on another viewpoint or solver than the generator's must find
exactly one (Sudoku: the Boolean viewpoint on CP-SAT, where the generator counts on
Choco; Hashi: the classic CP solver, where it counts on CP-SAT; Shikaku: CP-SAT, where it
counts on Choco). Beside them, where Debian's ``sgt-puzzles`` is installed, the
generator of Tatham's Portable Puzzle Collection makes the same puzzles at the same board
size (``sgt-solo``, ``sgt-bridges``, ``sgt-rect``; the first seeds only, under the same
budget): an outside generator's time for the job. The figures go to ``runs.csv``;
``--from runs.csv`` makes the README again.
"""

from __future__ import annotations

import re
import statistics
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from experiments.studies.kit import (
    Column,
    Ended,
    Process,
    Row,
    RowsStudy,
    Turn,
    code,
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
from experiments.studies.kit.records import Choice

COUNT_LIMIT_S = 300.0
FIELDS = ["puzzle", "seed", "seconds", "exit", "size", "solutions", "checked", "generator"]
OURS, TATHAM = "puzzlelab", "tatham"
TATHAM_SEEDS, BUDGET_S = 3, 60.0


@dataclass(frozen=True)
class Asked:
    """What is generated of one puzzle, the target for each seed, the independent count,
    and what the size of an instance counts."""

    options: tuple[str, ...]
    target_s: float
    count: Choice
    size: Callable[[Any], int]
    sized_by: str


ASKED = {
    "sudoku": Asked(("--box", "5"), 60.0, Choice("cpsat", "boolean", "auto"),
                    lambda i: sum(1 for row in i.givens for value in row if value), "clues"),
    "hashi": Asked(("--size", "30x30", "--islands", "150"), 60.0,
                   Choice("cp", "bridges", "input/min"), lambda i: len(i.islands), "islands"),
    "shikaku": Asked(("--size", "200x200"), 20.0, Choice("cpsat", "patterns", "auto"),
                     lambda i: sum(1 for row in i.clues for clue in row if clue), "rooms"),
}
"""Each puzzle's generator options, its target, its independent count and its size."""


@dataclass(frozen=True)
class Outside:
    """Tatham's generator of a puzzle (:mod:`~experiments.studies.kit.tatham` knows its
    program): the parameters of the same board size (its own difficulty settings
    otherwise), and how to count the size of a game ID it prints (clues and rooms are
    numbers in the ID; Bridges writes each island as a digit)."""

    parameters: str
    sized: str


TATHAM_MADE = {"sudoku": Outside("5x5", r"\d+"), "hashi": Outside("30x30i30e10m2d0", r"\d"),
               "shikaku": Outside("200x200", r"\d+")}
"""Each puzzle's outside generator, at the size :data:`ASKED` generates."""


def game_id_size(puzzle: str, game_id: str) -> int:
    """The clues, islands or rooms of a Tatham game ID (``5x5:c20_10...``).

    >>> game_id_size("hashi", "7x7m2:a2b3c")
    2
    >>> game_id_size("sudoku", "2x2:a1_2b3")
    3
    """
    _, _, body = game_id.strip().partition(":")
    return len(re.findall(TATHAM_MADE[puzzle].sized, body))


def tatham_generating(puzzle: str, program: str) -> Process:
    """Tatham's generator of ``puzzle`` as a process, its seed the turn's round, stopped at
    the budget (exit 124, as ``timeout`` says it)."""
    outside = TATHAM_MADE[puzzle]

    def figures(ended: Ended) -> Mapping[str, float]:
        return {"exit": ended.code, "size": game_id_size(puzzle, ended.stdout) if
                ended.code == 0 else 0}

    return Process(puzzle, lambda turn: [
        "timeout", f"{BUDGET_S:g}", program, "--generate", "1",
        f"{outside.parameters}#{turn.round}"], lambda ended: ended.code == 0, figures)


def independent_check(puzzle: str, folder: Path) -> dict[str, float]:
    """Of the file written in ``folder``: its size, the solutions found by a count to two
    (-1 if the count did not finish) and whether its known solution passes the checker
    (1 or 0; reading it checks it too: a file refused, or none, counts as size 0, no
    count, not checked)."""
    from experiments.campaign.solving import solve
    from puzzlelab.errors import PuzzleLabError
    from puzzles import PUZZLES

    kind, asked = PUZZLES.get(puzzle), ASKED[puzzle]
    written = sorted(folder.iterdir()) if folder.is_dir() else []
    try:
        instance = kind.load(written[0])
    except (IndexError, PuzzleLabError):
        return {"size": 0, "solutions": -1, "checked": 0}
    known = kind.known_solution(instance)
    run = solve(instance, viewpoint=asked.count.viewpoint, solver=asked.count.solver,
                heuristic=asked.count.heuristic, options={}, max_solutions=2,
                time_limit=COUNT_LIMIT_S)
    found = run.statistics.solutions
    return {"size": asked.size(instance),
            "solutions": found if run.result.complete or found >= 2 else -1,  # 2: stopped
            "checked": int(known is not None and not kind.check(instance, known))}


def generating(puzzle: str) -> Process:
    """The generating process of ``puzzle``, its seed the turn's round, its file written
    in the turn's folder and checked there."""
    def figures(ended: Ended) -> Mapping[str, float]:
        return {"exit": ended.code, **independent_check(puzzle, ended.turn.folder / "out")}

    return Process(puzzle, lambda turn: [
        *puzzlelab_script(), "generate", puzzle, *ASKED[puzzle].options, "--unique", "--seed",
        str(turn.round), "--output", str(turn.folder / "out")],
        lambda ended: ended.code == 0, figures)


def measure(seeds: int) -> list[Row]:
    """One row a puzzle and seed: the generating process's time and exit status, and the
    check."""
    rows = []
    with tempfile.TemporaryDirectory() as name:
        for puzzle in ASKED:
            for seed in range(1, seeds + 1):
                timing = run_once(generating(puzzle), Turn(seed, Path(name) / f"{puzzle}-{seed}"))
                rows.append({"puzzle": puzzle, "seed": str(seed),
                             "seconds": f"{timing.seconds:.3f}", "generator": OURS,
                             **{k: str(int(v)) for k, v in timing.figures.items()}})
                progress(f"{puzzle} seed {seed}: {timing.seconds:.1f} s, exit "
                         f"{rows[-1]['exit']}, size {rows[-1]['size']}, "
                         f"{rows[-1]['solutions']} solution(s)")
            program = tatham.program(puzzle)
            for seed in range(1, min(seeds, TATHAM_SEEDS) + 1) if program else ():
                timing = run_once(tatham_generating(puzzle, str(program)),
                                  Turn(seed, Path(name) / f"tatham-{puzzle}-{seed}"))
                rows.append({"puzzle": puzzle, "seed": str(seed), "generator": TATHAM,
                             "seconds": f"{timing.seconds:.3f}", "solutions": "", "checked": "",
                             **{k: str(int(v)) for k, v in timing.figures.items()}})
                progress(f"{puzzle} seed {seed}, {tatham.PROGRAMS[puzzle]}: "
                         f"{timing.seconds:.1f} s, exit {rows[-1]['exit']}")
    return rows


def ours(rows: Sequence[Row]) -> list[Row]:
    """The rows of PuzzleLab's generator (every row of a runs.csv written before another
    generator was timed beside it)."""
    return [row for row in rows if row.get("generator", OURS) == OURS]


def correct(row: Row) -> bool:
    """The process succeeded and wrote a unique puzzle whose known solution checks."""
    return row["exit"] == "0" and row["solutions"] == "1" and row["checked"] == "1"


COLUMNS: list[Column[Row]] = [
    text("puzzle", lambda row: row["puzzle"]), Column("seed", lambda row: row["seed"]),
    Column("seconds", lambda row: f"{float(row['seconds']):.1f}"),
    Column(", ".join(asked.sized_by for asked in ASKED.values()), lambda row: row["size"]),
    Column("solutions", lambda row: row["solutions"]),
    text("checked", lambda row: yes_no(correct(row)))]


def report(rows: Sequence[Row], command: str) -> str:
    """The README: each run's time and check, the spread per puzzle, the targets."""
    rows, outside = ours(rows), [row for row in rows if row.get("generator") == TATHAM]
    asked = [puzzle for puzzle in ASKED if any(row["puzzle"] == puzzle for row in rows)]
    commands = [f"`puzzlelab generate {puzzle} {' '.join(ASKED[puzzle].options)} --unique "
                "--seed S`" for puzzle in asked]
    listed = ", ".join(commands[:-1]) + (" and " if len(commands) > 1 else "") + commands[-1]
    counts = "; ".join(f"{puzzle.capitalize()}: {ASKED[puzzle].count.viewpoint} on "
                       f"{ASKED[puzzle].count.solver}" for puzzle in asked)
    lines = ["# Generator benchmark: unique instances of every puzzle, whole processes", "",
             f"Written by `{command}`. Each seed runs, as a fresh process (start-up included) "
             f"under the command's default 60 s budget, "
             f"{listed}. Each file is checked "
             "apart from the generator: its known solution passes the checker, and a count "
             f"to two solutions on another solver or viewpoint finds exactly one ({counts}).",
             "", *table(rows, COLUMNS), ""]
    for puzzle in asked:
        mine = [row for row in rows if row["puzzle"] == puzzle]
        slowest = max(mine, key=lambda row: float(row["seconds"]))
        times, target = [float(row["seconds"]) for row in mine], ASKED[puzzle].target_s
        lines.append(f"- {puzzle}: median {statistics.median(times):.1f} s, slowest "
                     f"{max(times):.1f} s (seed {slowest['seed']}); every seed under "
                     f"{target:g} s, each a checked unique puzzle: "
                     f"{target_verdict(max(times) < target and all(map(correct, mine)))}.")
    if outside:
        lines += ["", *tatham_section(outside)]
    return "\n".join(lines) + "\n"


def tatham_section(rows: Sequence[Row]) -> list[str]:
    """The outside generator's times at the same sizes, and why it is there."""
    def finished(puzzle: str) -> list[Row]:
        return [row for row in rows if row["puzzle"] == puzzle and row["exit"] == "0"]

    def median(puzzle: str, field: str, written: Callable[[float], str]) -> str:
        done = [float(row[field]) for row in finished(puzzle)]
        return written(statistics.median(done)) if done else "–"

    puzzles = [puzzle for puzzle in ASKED if any(row["puzzle"] == puzzle for row in rows)]
    columns: list[Column[str]] = [
        text("puzzle", str),
        text("command", lambda p: code(f"{tatham.PROGRAMS[p]} --generate 1 "
                                       f"{TATHAM_MADE[p].parameters}#S")),
        Column("seeds", lambda p: sum(row["puzzle"] == p for row in rows)),
        Column(f"made within {BUDGET_S:g} s", lambda p: len(finished(p))),
        Column("median (s)", lambda p: median(p, "seconds", "{:.1f}".format)),
        Column(", ".join(asked.sized_by for asked in ASKED.values()),
               lambda p: median(p, "size", "{:.0f}".format))]
    return ["## Another generator at the same size", "",
            "Tatham's Portable Puzzle Collection generates the same puzzles, each with one "
            "solution, and is what a user without PuzzleLab would reach for; its generator "
            "at the same board size, timed the same way (a fresh process, the same budget, "
            "the first seeds), is the outside measure of these times. Its own settings "
            "decide its difficulty and its number of clues, islands or rooms, so the sizes "
            "differ from ours; its puzzles are its own to check (game IDs are not read "
            "here).", "", *table(puzzles, columns)]


STUDY = RowsStudy(
    "experiments.studies.generator_benchmark", __doc__ or "", ("--seeds", 3, "seeds 1..N"),
    FIELDS, measure, report,
    lambda row: (None if row.get("generator", OURS) != OURS or correct(row)
                 else f"{row['puzzle']} seed {row['seed']}"),
    "generator-benchmark")
main = STUDY.main
"""Measure (or read back with ``--from``), print the report, write it with the rows."""


if __name__ == "__main__":
    run_main(main)
