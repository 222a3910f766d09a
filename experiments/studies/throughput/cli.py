"""The command line of the throughput benchmark: measure, print the table and the ratios."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from experiments.campaign.environment import describe_machine
from experiments.studies.kit import Column, figure, progress, table, text
from experiments.studies.kit.records import Choice
from experiments.studies.throughput import direct_choco, direct_cpsat
from experiments.studies.throughput.combinations import (
    BEST_BY_SOLVER,
    DEFAULTS,
    LEFT_OUT,
    PUZZLE,
    candidates,
    parse_combination,
    registered,
)
from experiments.studies.throughput.direct import DirectSolve, read_lines
from experiments.studies.throughput.measure import (
    Figures,
    measure_combination,
    measure_direct,
    preflight,
    read_instances,
)
from puzzlelab.errors import PuzzleLabError, UnsupportedCombination
from solvers import BACKENDS, load_backends

DATA = (Path(__file__).resolve().parents[3] / "puzzles" / "data" / "sudoku"
        / "royle_17clue_first1000.txt")
DIRECT_SCRIPTS: dict[str, DirectSolve] = {"cpsat": direct_cpsat.solve,
                                          "choco": direct_choco.solve}
#: the targets: PuzzleLab's best combination on a backend over the direct script
TARGETS = {"cpsat": 1.0, "choco": 0.8}
FAILURES_SHOWN = 5


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    """The options (see ``--help``)."""
    parser = argparse.ArgumentParser(
        prog="python -m experiments.studies.throughput",
        description="Sudoku throughput: puzzles per second per core, model building and "
                    "checking included, for PuzzleLab combinations and direct scripts.")
    parser.add_argument("--file", type=Path, default=DATA,
                        help="9x9 puzzles, one 81-character line each, with X.solutions.txt "
                             "beside (default: the 1,000 17-clue puzzles)")
    parser.add_argument("--puzzles", type=int, default=None, metavar="N",
                        help="the first N puzzles only (default: all)")
    parser.add_argument("--combination", action="append", default=None, metavar="NAME",
                        help="SOLVER:VIEWPOINT[,OPTION=VALUE...]:HEURISTIC, or a backend's "
                             "name for its best combination; repeatable (default: every "
                             "registered backend's best but python-constraint's)")
    parser.add_argument("--candidates", default=None, metavar="SOLVERS",
                        help="instead, measure the grid the defaults were chosen from, for "
                             "these comma-separated backends ('all' for every one)")
    parser.add_argument("--direct", default="cpsat,choco", metavar="SCRIPTS",
                        help="direct scripts to measure, comma-separated: cpsat,choco (the "
                             "default), one of them, or none")
    parser.add_argument("--time-limit", type=float, default=60.0, metavar="SECONDS",
                        help="search time limit per puzzle (default 60)")
    parser.add_argument("--budget", type=float, default=None, metavar="SECONDS",
                        help="stop a combination after this many CPU seconds")
    parser.add_argument("--json", action="store_true",
                        help="print the figures as one JSON object instead of the table")
    arguments = parser.parse_args(argv)
    if arguments.puzzles is not None and arguments.puzzles < 1:
        parser.error("--puzzles must be at least 1")
    return arguments


def chosen_combinations(arguments: argparse.Namespace) -> tuple[list[Choice], list[str]]:
    """The combinations to measure and notes on those skipped (backend not registered);
    a name that does not parse or names nothing known raises a ``PuzzleLabError``."""
    load_backends()
    if arguments.candidates is not None:
        names = arguments.candidates.split(",")
        solvers = BACKENDS.names() if names == ["all"] else [n.strip() for n in names]
        grid = candidates(solvers)
        for combination in grid:
            combination.check_names(PUZZLE)
        return grid, []
    if arguments.combination is None:
        kept = [c for c in DEFAULTS if registered(c)]
        notes = [f"skipped {c.name}: backend {c.solver!r} is not registered here"
                 for c in DEFAULTS if not registered(c)]
        notes += [f"left out {BEST_BY_SOLVER[solver].name}: {reason}; name it with "
                  f"--combination {solver}" for solver, reason in LEFT_OUT.items()]
        return kept, notes
    combinations = [parse_combination(text) for text in arguments.combination]
    for combination in combinations:
        combination.check_names(PUZZLE)
    return combinations, []


def chosen_direct_scripts(text: str) -> tuple[list[str], list[str]]:
    """The direct scripts to run, and notes on those that cannot run here."""
    names = [] if text.strip() == "none" else [name.strip() for name in text.split(",")]
    unknown = [name for name in names if name not in DIRECT_SCRIPTS]
    if unknown:
        raise PuzzleLabError(f"unknown direct script {unknown[0]!r}; valid: "
                             f"{', '.join(DIRECT_SCRIPTS)} or none")
    if "choco" in names and not direct_choco.available():
        return [n for n in names if n != "choco"], ["skipped the direct Choco script: "
                                                    "pychoco cannot be imported here"]
    return names, []


def best_ratios(measured: list[tuple[Choice, Figures]],
                direct: dict[str, Figures]) -> dict[str, float]:
    """For each backend with a direct script: its fastest fully correct combination's
    puzzles/s per core over the direct script's."""
    ratios = {}
    for solver, script in direct.items():
        rates = [figures.per_core for combination, figures in measured
                 if combination.solver == solver and figures.correct == figures.attempted > 0
                 and not figures.stopped_early]
        if rates and script.per_core > 0 and script.correct == script.attempted:
            ratios[solver] = max(rates) / script.per_core
    return ratios


COLUMNS: list[Column[Figures]] = [
    text("combination", lambda f: f.name),
    Column("puzzles/s/core", lambda f: figure(f.per_core, 1)),
    Column("puzzles/s wall", lambda f: figure(f.per_wall_second, 1)),
    Column("mean backtracks", lambda f: figure(f.mean_backtracks, 2)),
    Column("mean branches", lambda f: figure(f.mean_branches, 2)),
    Column("solved+checked", lambda f: f"{f.correct}/{f.attempted}"
                                       + (" (budget)" if f.stopped_early else ""))]


def table_of(rows: list[Figures]) -> str:
    """The figures as a Markdown table, its columns lined up for a terminal."""
    return "\n".join(table(rows, COLUMNS, padded=True))


def _summary(figures: Figures) -> str:
    """One line per measurement as it ends, so a run that dies keeps what it measured."""
    return (f"  {figure(figures.per_core, 1)} puzzles/s per core, {figures.correct}/"
            f"{figures.attempted} solved and checked")


def measure_combinations(combinations: list[Choice], instances: list[Any],
                         arguments: argparse.Namespace,
                         notes: list[str]) -> list[tuple[Choice, Figures]]:
    """Check every combination on the first puzzle, then measure each. A refusal ends
    the run, but in ``--candidates`` mode, where it is noted and skipped."""
    runnable = []
    for combination in combinations:
        try:
            preflight(combination, instances[0])
        except UnsupportedCombination as refusal:
            if arguments.candidates is None:
                raise
            notes.append(f"refused {combination.name}: {refusal}")
            progress(notes[-1])
            continue
        runnable.append(combination)
    measured = []
    for combination in runnable:
        progress(f"measuring {combination.name} on {len(instances)} puzzles")
        figures = measure_combination(combination, instances, arguments.time_limit,
                                      arguments.budget)
        measured.append((combination, figures))
        progress(_summary(figures))
    return measured


def run(arguments: argparse.Namespace) -> int:
    """Measure, report, and return the exit status: 1 when any answer was wrong."""
    combinations, notes = chosen_combinations(arguments)
    scripts, direct_notes = chosen_direct_scripts(arguments.direct)
    notes += direct_notes
    for note in notes:
        progress(note)
    instances = read_instances(arguments.file)[:arguments.puzzles]
    lines = read_lines(arguments.file)[:arguments.puzzles] if scripts else []
    load_at_start = os.getloadavg()[0]
    measured = measure_combinations(combinations, instances, arguments, notes)
    direct: dict[str, Figures] = {}
    for name in scripts:
        progress(f"measuring the direct {name} script on {len(lines)} puzzles")
        direct[name] = measure_direct(f"direct {name} script", DIRECT_SCRIPTS[name], lines)
        progress(_summary(direct[name]))
    ratios = best_ratios(measured, direct)
    rows = [figures for _, figures in measured] + list(direct.values())
    load = {"one_minute_at_start": load_at_start, "one_minute_at_end": os.getloadavg()[0]}
    if arguments.json:
        print(json.dumps(_json(arguments, len(instances), rows, ratios, notes, load),
                         indent=1))
    else:
        _print_report(arguments, len(instances), rows, ratios, load)
    return 1 if any(figures.failures for figures in rows) else 0


def _json(arguments: argparse.Namespace, puzzles: int, rows: list[Figures],
          ratios: dict[str, float], notes: list[str], load: dict[str, float]) -> dict[str, Any]:
    return {"file": str(arguments.file), "puzzles": puzzles,
            "time_limit_s": arguments.time_limit, "budget_s": arguments.budget,
            "machine": dataclasses.asdict(describe_machine()) | {"load_average": load},
            "figures": [figures.to_json() for figures in rows],
            "ratios": {solver: {"ratio": ratio, "target": TARGETS[solver]}
                       for solver, ratio in ratios.items()},
            "notes": notes}


def _print_report(arguments: argparse.Namespace, puzzles: int, rows: list[Figures],
                  ratios: dict[str, float], load: dict[str, float]) -> None:
    print(f"{puzzles} puzzles of {arguments.file.name}; {os.cpu_count()} cores, load "
          f"average {load['one_minute_at_start']:.2f} at the start, "
          f"{load['one_minute_at_end']:.2f} at the end (figures are indicative)")
    print(table_of(rows))
    for solver, ratio in ratios.items():
        verdict = "meets" if ratio >= TARGETS[solver] else "is below"
        print(f"best {solver} combination / direct {solver} script: {ratio:.2f}x "
              f"({verdict} the target {TARGETS[solver]:.1f}x)")
    for figures in rows:
        for failure in figures.failures[:FAILURES_SHOWN]:
            print(f"FAILED {figures.name}: {failure}")
        if len(figures.failures) > FAILURES_SHOWN:
            print(f"FAILED {figures.name}: ... and {len(figures.failures) - FAILURES_SHOWN} "
                  "more")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; a bad name or file is one line on stderr and exit status 2."""
    arguments = parse_arguments(argv)
    try:
        return run(arguments)
    except PuzzleLabError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
