"""Benchmark of the Nonogram default: every shipped survey and MiniZinc puzzle, 10 s each.

``python -m experiments.studies.nonogram_default`` solves each puzzle of the ``webpbn_survey``
and ``minizinc_challenge`` sets with the puzzle's defaults (``puzzlelab solve nonogram
FILE`` with no options), one after another in this process, each run as a campaign's
worker runs it, and prints a Markdown table: status, the checker's verdict, wall time
(the whole run: build, search, check), and, for the portfolio (``auto``), which
configuration answered. ``--solver`` and ``--heuristic`` measure another choice the same
way (the former default: ``--solver cpsat --heuristic auto+symmetric``); ``--cores 1``
makes the portfolio run its configurations in turn, as in the runner's one-core workers.
``--output`` keeps the runs (the campaign's ``runs.csv``), which ``--from`` tables again.
It is a benchmark, not a test: its times depend on the machine and on what else runs
there.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

from experiments.campaign.record import RunRecord
from experiments.studies.kit import Column, Study, code, figure, progress, run_main, table, text
from experiments.studies.kit.records import (
    RECORDS,
    Choice,
    checked,
    data_set,
    run,
    set_named,
    wrong_runs,
)
from solvers.portfolio import CORES_VARIABLE
from viewpoints import DEFAULTS

PUZZLE = "nonogram"
SETS = ("webpbn_survey", "minizinc_challenge")
TIME_LIMIT = 10.0


def options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's own options."""
    defaults = DEFAULTS.get(PUZZLE)
    parser.add_argument("--solver", default=defaults.solver)
    parser.add_argument("--heuristic", default=defaults.heuristic)
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT)
    parser.add_argument("--cores", type=int, help=f"sets {CORES_VARIABLE} for the portfolio")
    parser.add_argument("--sets", nargs="+", default=list(SETS))


def measure(arguments: argparse.Namespace) -> list[RunRecord]:
    """Solve every puzzle of the sets, one after another, with the default viewpoint."""
    if arguments.cores is not None:
        os.environ[CORES_VARIABLE] = str(arguments.cores)
    defaults = DEFAULTS.get(PUZZLE)
    choice = Choice(arguments.solver, defaults.viewpoint, arguments.heuristic,
                    tuple((k, str(v)) for k, v in defaults.options.items()))
    records: list[RunRecord] = []
    for file, instance in (item for name in arguments.sets for item in data_set(PUZZLE, name)):
        records.append(run(choice.identity(instance, time_limit=arguments.time_limit,
                                           instance_file=file, position=len(records),
                                           instance_position=len(records)), instance))
        progress(f"{records[-1].identity.instance}: {records[-1].status.value}, "
                 f"{records[-1].wall_s or 0:.2f} s")
    return records


def remade_by(records: Sequence[RunRecord]) -> str:
    """The options that measure such runs again (bar ``--cores``, which no run keeps)."""
    first, defaults = records[0].identity, DEFAULTS.get(PUZZLE)
    sets = list(dict.fromkeys(set_named(PUZZLE, r.identity.instance_file) for r in records))
    given = {"--solver": (first.solver, defaults.solver),
             "--heuristic": (first.heuristic, defaults.heuristic),
             "--time-limit": (f"{first.time_limit:g}", f"{TIME_LIMIT:g}"),
             "--sets": (" ".join(sets), " ".join(SETS))}
    return " ".join(f"{option} {value}" for option, (value, default) in given.items()
                    if value != default)


COLUMNS: list[Column[RunRecord]] = [
    text("puzzle", lambda r: r.identity.instance), text("status", lambda r: r.status.value),
    text("check", lambda r: "–" if r.violations is None else
         "correct" if checked(r) else "wrong"),
    Column("wall (s)", lambda r: f"{r.wall_s or 0:.2f}"),
    text("answered by", lambda r: (r.portfolio and r.portfolio.answered_by) or "–"),
    Column("runs", lambda r: figure(None if r.portfolio is None else len(r.portfolio.runs)))]


def report(records: Sequence[RunRecord], command: str) -> str:
    """The table and a summary line, from the runs alone."""
    first = records[0].identity
    limit = first.time_limit or 0
    solved = [r for r in records if checked(r)]
    within = [r for r in solved if (r.wall_s or 0) <= limit]
    slowest = max(records, key=lambda r: r.wall_s or 0)
    return "\n".join([
        f"Written by `{command}`: {code(f'{PUZZLE}/{first.viewpoint_name}')} on "
        f"{first.solver} under {first.heuristic}, {limit:g} s each.", "",
        *table(records, COLUMNS), "",
        f"solved and checked: {len(solved)}/{len(records)}; within {limit:g} s wall: "
        f"{len(within)}; total wall {sum(r.wall_s or 0 for r in records):.1f} s; slowest "
        f"{slowest.identity.instance} {slowest.wall_s or 0:.2f} s"]) + "\n"


STUDY = Study("experiments.studies.nonogram_default", __doc__ or "", RECORDS, options, measure,
              remade_by, report, wrong_runs)
main = STUDY.main
"""Measure (or read back with ``--from``), print the report, write it with the rows."""


if __name__ == "__main__":
    run_main(main)
