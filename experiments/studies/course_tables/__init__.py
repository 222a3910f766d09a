"""The course's Sudoku tables beside ours, cell by cell (``puzzlelab study course-tables``).

Reads a campaign's ``runs.csv`` (the committed ``results/sudoku-eclipse/runs.csv``, made
by ``experiments/specs/sudoku-eclipse.toml``: the classic viewpoint with ``ic`` and
``ic_global`` all_different, labelled d-way) and sets each run's ``deep_backtracks``
beside the figure the course report publishes (``published.toml``, with its source),
marking which match exactly. Columns the report's quoted figures do not cover (the
first-fail ones) are shown as ours alone.
"""

from __future__ import annotations

import argparse
import csv
import functools
import tomllib
from collections.abc import Sequence
from pathlib import Path

from experiments.studies.kit import Column, table, text
from puzzlelab.errors import PuzzleLabError

PUBLISHED = Path(__file__).with_name("published.toml")
ORDERS = {"input": "input/min+dway", "first-fail": "first-fail/min+dway"}
"""The course's labelling orders, and the heuristic that labels as each does."""

Figures = dict[str, dict[str, dict[str, int]]]


def published_figures() -> Figures:
    """The published figures: propagation (``ic``, ``ic_global``) -> order -> puzzle ->
    backtracks."""
    data = tomllib.loads(PUBLISHED.read_text(encoding="utf-8"))
    puzzles = data["puzzles"]
    return {propagation: {order: dict(zip(puzzles, counts, strict=True))
                          for order, counts in columns.items()}
            for propagation, columns in data.items() if isinstance(columns, dict)}


def read_runs(path: Path) -> dict[tuple[str, str, str, str], int | None]:
    """``deep_backtracks`` by (viewpoint label, solver, heuristic, instance)."""
    try:
        with path.open(encoding="utf-8", newline="") as stream:
            rows = list(csv.DictReader(stream))
    except OSError as error:
        raise PuzzleLabError(f"{path}: cannot read the runs ({error.strerror})") from None
    if rows and "deep_backtracks" not in rows[0]:
        raise PuzzleLabError(f"{path}: no deep_backtracks column: not a runs.csv of "
                             f"PuzzleLab's (or one made before the figure existed)")
    return {(row["viewpoint"], row["solver"], row["heuristic"], row["instance"]):
            int(row["deep_backtracks"]) if row["deep_backtracks"] else None
            for row in rows if row["status"] == "solved"}


def comparison(runs: dict[tuple[str, str, str, str], int | None],
               published: Figures) -> list[str]:
    """Markdown: a table per propagation and order, a row per puzzle, the published
    figure then each solver's, ``=`` where it matches; a closing line of matches."""
    lines = []
    for propagation, columns in published.items():
        puzzles = list(next(iter(columns.values())))
        for order, heuristic in ORDERS.items():
            solvers = sorted({solver for (label, solver, named, _) in runs
                              if label == propagation and named == heuristic})
            if not solvers:
                continue
            theirs = columns.get(order)

            def ours(puzzle: str, solver: str, propagation: str = propagation,
                     heuristic: str = heuristic) -> int | None:
                return runs.get((propagation, solver, heuristic, puzzle))

            def cell(puzzle: str, solver: str, theirs: dict[str, int] | None = theirs) -> str:
                found = ours(puzzle, solver)
                same = theirs is not None and found == theirs[puzzle]
                return "–" if found is None else f"{found}{' =' if same else ''}"

            def given(puzzle: str, theirs: dict[str, int] | None = theirs) -> object:
                return "kept back" if theirs is None else theirs[puzzle]

            shown: list[Column[str]] = [
                text("puzzle", str), Column("published", given),
                *(Column(solver, functools.partial(cell, solver=solver)) for solver in solvers)]
            lines += [f"### {propagation}, {order} ({heuristic})", "", *table(puzzles, shown)]
            if theirs is not None:
                lines += ["", "Equal to the published figure: " + ", ".join(
                    f"{solver} {sum(ours(p, solver) == theirs[p] for p in puzzles)}/"
                    f"{len(puzzles)}" for solver in solvers) + "."]
            lines.append("")
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    """Print (or write) the comparison of a campaign's runs with the published tables."""
    parser = argparse.ArgumentParser(prog="puzzlelab study course-tables",
                                     description=main.__doc__)
    parser.add_argument("runs", type=Path, help="a campaign's runs.csv "
                                                "(results/sudoku-eclipse/runs.csv)")
    parser.add_argument("--output", type=Path, help="write the Markdown here too")
    arguments = parser.parse_args(argv)
    text = "\n".join(comparison(read_runs(arguments.runs), published_figures()))
    print(text, end="")
    if arguments.output is not None:
        arguments.output.write_text(text, encoding="utf-8")
