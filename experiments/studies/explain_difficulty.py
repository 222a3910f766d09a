"""Explained difficulty against Tatham's levels: does the hardest step of our explanation
rank puzzles as the generator of Simon Tatham's Portable Puzzle Collection grades them?

``python -m experiments.studies.explain_difficulty [--count 10] [--output FOLDER]``
makes ``--count`` game IDs at each level of Solo (9x9 Sudoku, its six levels) and of
Bridges (10x10 Hashi, its three levels) with fixed seeds, in two samples of seeds (the
weights of a step's cost are chosen on the training sample, judged on the test sample),
and explains each level's IDs in one process, ``puzzlelab explain PUZZLE FILE
--difficulty-only --json``. Each explanation's difficulty (its hardest step's cost)
against the level's rank gives Spearman's rho per puzzle and sample; the targets are on
the test sample. It needs Debian's ``sgt-puzzles`` (``apt-get install sgt-puzzles``).
The figures go to ``runs.csv``, a figure per puzzle beside it; ``--from runs.csv`` makes
the README and the figures again.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from experiments.studies.explain_figures import draw_levels
from experiments.studies.kit import (
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
)
from experiments.studies.kit.study import every_problem
from experiments.studies.rank_correlation import spearman

FIELDS = ["puzzle", "sample", "level", "rank", "seed", "game_id", "exit", "difficulty",
          "total_cost", "steps", "ending", "seconds", "costs"]
TIME_LIMIT_S = 300.0
"""What one explanation may take (``--time-limit``): Solo's hardest take under half a minute."""
SAMPLES = {"train": 1, "test": 1001}
"""Each sample's first seed: the training sample's seeds are 1..N, the test's 1001..."""


@dataclass(frozen=True)
class Levels:
    """A Tatham generator's levels, easiest first: its parameters with ``{}`` for the
    level's letter, each level's letter and name, and the rho the test sample must reach."""

    parameters: str
    levels: tuple[tuple[str, str], ...]
    target: float


LADDERS = {
    "sudoku": Levels("3x3d{}", (("t", "trivial"), ("b", "basic"), ("i", "intermediate"),
                                ("a", "advanced"), ("e", "extreme"), ("u", "unreasonable")),
                     0.9),
    "hashi": Levels("10x10i30e10m2d{}", (("0", "easy"), ("1", "medium"), ("2", "hard")), 0.8),
}
"""What is generated of each puzzle, and its target."""


def cost_definition() -> str:
    """The weights of a step's cost as this checkout declares them
    (:mod:`experiments.reasoning.explain_units`), written into each row so that the
    README says which definition its figures were measured under."""
    from experiments.reasoning import explain_units as units

    groups = ", ".join(f"{group} {weight}" for group, weight in units.GROUP_WEIGHTS.items())
    from viewpoints import load_viewpoints
    from viewpoints.terms import RULED_OUT_WEIGHTS

    load_viewpoints()  # each puzzle declares its own weight beside its terms
    puzzles = "".join(f", {weight} on {puzzle}" for puzzle, weight
                      in sorted(RULED_OUT_WEIGHTS.items()))
    return (f"constraint {units.UNIT_WEIGHT} ({groups}); premise fixing a value "
            f"{units.FIXED_PREMISE_WEIGHT}, else {units.RULED_OUT_WEIGHT} a value it rules out"
            f"{puzzles}")


def explaining(puzzle: str, said: dict[str, str]) -> Process:
    """``explain --difficulty-only --json`` of the turn's file of game IDs; what it
    prints is kept in ``said``."""
    def figures(ended: Ended) -> dict[str, float]:
        said["stdout"] = ended.stdout
        return {"exit": ended.code}

    return Process(puzzle, lambda turn: [
        *puzzlelab_script(), "explain", puzzle, str(turn.folder / "ids.txt"),
        "--difficulty-only", "--json", "--time-limit", f"{TIME_LIMIT_S:g}"],
        lambda ended: ended.code == 0, figures)


def level_rows(puzzle: str, sample: str, rank: int, count: int, scratch: Path) -> list[Row]:
    """One row a game ID of one level and sample: what its explanation found."""
    ladder = LADDERS[puzzle]
    letter, name = ladder.levels[rank]
    seeds = range(SAMPLES[sample], SAMPLES[sample] + count)
    ids = [tatham.generated(puzzle, f"{ladder.parameters.format(letter)}#{seed}")[0]
           for seed in seeds]
    turn = Turn(rank, scratch / f"{puzzle}-{sample}-{letter}")
    turn.folder.mkdir(parents=True)
    (turn.folder / "ids.txt").write_text("\n".join(ids) + "\n", encoding="utf-8")
    said: dict[str, str] = {}
    code = int(run_once(explaining(puzzle, said), turn).figures["exit"])
    found = json.loads(said["stdout"]) if code == 0 else [{} for _ in ids]
    costs = cost_definition()
    return [{"puzzle": puzzle, "sample": sample, "level": name, "rank": str(rank + 1),
             "seed": str(seed), "game_id": game_id, "exit": str(code),
             "difficulty": str(summary.get("difficulty", "")),
             "total_cost": str(summary.get("total_cost", "")),
             "steps": str(summary.get("steps", "")), "ending": summary.get("ending", ""),
             "seconds": str(summary.get("seconds", "")), "costs": costs}
            for seed, game_id, summary in zip(seeds, ids, found, strict=True)]


def measure(arguments: argparse.Namespace) -> list[Row]:
    """Every level of every ladder, both samples."""
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="explain-difficulty-") as name:
        for puzzle, ladder in LADDERS.items():
            for sample in SAMPLES:
                for rank in range(len(ladder.levels)):
                    made = level_rows(puzzle, sample, rank, arguments.count, Path(name))
                    rows += made
                    progress(f"{puzzle} {sample} {made[0]['level']}: difficulties "
                             f"{', '.join(row['difficulty'] or '?' for row in made)}")
    return rows


def finished(row: Row) -> bool:
    """The explanation ran to the end: its difficulty is the hardest step's."""
    return row["exit"] == "0" and row["ending"] == "solved"


def rho(rows: Sequence[Row]) -> float | None:
    """Spearman's rho between difficulty and level over the finished rows (None: fewer
    than two, or one side constant)."""
    done = [row for row in rows if finished(row)]
    return spearman([int(row["rank"]) for row in done],
                    [int(row["difficulty"]) for row in done])


def _written(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def puzzle_section(puzzle: str, rows: Sequence[Row]) -> list[str]:
    """One puzzle's levels (the difficulties of each, by seed), rho per sample and the
    target, and its figure."""
    ladder = LADDERS[puzzle]
    samples = [sample for sample in SAMPLES if any(row["sample"] == sample for row in rows)]
    keys = [(level, sample) for _, level in ladder.levels for sample in samples
            if any(row["level"] == level and row["sample"] == sample for row in rows)]

    def of(key: tuple[str, str]) -> list[Row]:
        return [row for row in rows if (row["level"], row["sample"]) == key]

    def difficulties(key: tuple[str, str]) -> list[int]:
        return [int(row["difficulty"]) for row in of(key) if finished(row)]

    def median(key: tuple[str, str]) -> str:
        found = difficulties(key)
        return f"{statistics.median(found):g}" if found else "–"

    levels: list[Column[tuple[str, str]]] = [
        text("level", lambda key: key[0]), text("sample", lambda key: key[1]),
        Column("finished", lambda key: f"{len(difficulties(key))}/{len(of(key))}"),
        Column("median", median),
        text("difficulty by seed", lambda key: ", ".join(
            row["difficulty"] if finished(row) else f"({row['ending'] or 'exit ' + row['exit']})"
            for row in of(key)))]
    judged: list[Column[str]] = [
        text("sample", str),
        Column("seeds", lambda sample: _seeds(rows, sample)),
        Column("explanations in rho", lambda sample: sum(
            finished(row) for row in rows if row["sample"] == sample)),
        Column("Spearman's rho", lambda sample: _written(rho(
            [row for row in rows if row["sample"] == sample]))),
        text(f"target rho >= {ladder.target:g}", lambda sample: _verdict(rows, sample,
                                                                      ladder.target))]
    name = "Solo's" if puzzle == "sudoku" else "Bridges'"
    params = code(f"{tatham.PROGRAMS[puzzle]} --generate 1 {ladder.parameters.format('L')}#S")
    return [f"## {puzzle.capitalize()}: {name} {len(ladder.levels)} levels", "",
            f"Made by {params}, L each level's letter "
            f"({', '.join(f'{letter} {level}' for letter, level in ladder.levels)}).", "",
            *table(keys, levels), "", *table(samples, judged), "",
            f"![{puzzle}: difficulty by level]({figure_name(puzzle)})", ""]


def _seeds(rows: Sequence[Row], sample: str) -> str:
    seeds = sorted({int(row["seed"]) for row in rows if row["sample"] == sample})
    return f"{seeds[0]}..{seeds[-1]}" if seeds else "–"


def _verdict(rows: Sequence[Row], sample: str, target: float) -> str:
    """The target is judged on the test sample; the training sample's rho is what the
    weights were chosen on, shown beside it."""
    if sample != "test":
        return "(weights chosen here)"
    found = rho([row for row in rows if row["sample"] == sample])
    return target_verdict(found is not None and found >= target)


def figure_name(puzzle: str) -> str:
    """The file of a puzzle's figure, beside the README."""
    return f"difficulty-{puzzle}.svg"


def report(rows: Sequence[Row], command: str) -> str:
    """The README: what is measured, each puzzle's levels, rho and target."""
    puzzles = [puzzle for puzzle in LADDERS if any(row["puzzle"] == puzzle for row in rows)]
    definitions = sorted({row["costs"] for row in rows})
    lines = ["# Explained difficulty against Tatham's levels", "",
             f"Written by `{command}` (the generators are Debian's `sgt-puzzles`: "
             "`apt-get install sgt-puzzles`). Each game ID is made with a fixed seed by the "
             "generator of Simon Tatham's Portable Puzzle Collection at one of its levels, "
             "so neither the instances nor their grades are ours; each level's IDs are "
             "explained in one process by `puzzlelab explain PUZZLE FILE --difficulty-only "
             f"--json --time-limit {TIME_LIMIT_S:g}`, every step checked. An explanation's "
             "difficulty is the cost of its hardest step. Spearman's rho (ties given their "
             "average rank) is taken between that difficulty and the level's rank, over "
             "the explanations that reached the solution. The weights of a step's cost "
             "were chosen on the training sample's seeds; the targets are judged on the "
             "test sample, whose seeds played no part in choosing them.", "",
             "Cost of a step, as measured: " + "; ".join(map(code, definitions)) + ".", ""]
    for puzzle in puzzles:
        lines += puzzle_section(puzzle, [row for row in rows if row["puzzle"] == puzzle])
    return "\n".join(lines)


def wrong(row: Row) -> str | None:
    """A process that failed (a time limit reached is an unfinished row, not a failure)."""
    return None if row["exit"] == "0" else f"{row['puzzle']} {row['level']} seed {row['seed']}"


def options(parser: argparse.ArgumentParser) -> None:
    """The study's own options."""
    parser.add_argument("--count", type=int, default=10,
                        help="game IDs per level and sample (default 10)")


def remade_by(rows: Sequence[Row]) -> str:
    """The options that measure such rows again."""
    counts = {(row["puzzle"], row["sample"], row["level"]) for row in rows}
    return f"--count {len(rows) // max(1, len(counts))}"


STUDY = Study("experiments.studies.explain_difficulty", __doc__ or "", plain_rows(FIELDS),
              options, measure, remade_by, report, lambda rows: every_problem(rows, wrong),
              "explain-difficulty")


def main(argv: Sequence[str] | None) -> int:
    """Measure (or read back with ``--from``), print the report, and with ``--output``
    write it, the rows and a figure per puzzle."""
    code = STUDY.main(argv)
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--output", type=Path)
    parser.add_argument("--from", dest="source", type=Path)
    given = parser.parse_known_args(argv)[0]
    if given.output is not None:
        rows = STUDY.rows.read(given.source or given.output / "runs.csv")
        for puzzle, ladder in LADDERS.items():
            mine = [row for row in rows if row["puzzle"] == puzzle and finished(row)]
            if mine:
                draw_levels(mine, [level for _, level in ladder.levels],
                            given.output / figure_name(puzzle),
                            f"{puzzle}: explained difficulty by Tatham's level")
    return code


if __name__ == "__main__":
    run_main(main)
