"""What recording search trees costs: nothing when off, a few bytes a node when on.

``python -m experiments.studies.tree_cost [--base REV] [--rounds 5] [--puzzles 300]
[--output results/tree-cost]``

**Off.** The Sudoku throughput benchmark (:mod:`experiments.studies.throughput`) runs,
as whole processes, on the checkout's commit (``HEAD``) and on ``--base`` (a commit
from before trees were recorded), each checked out into a temporary git worktree so
that both start alike (no bytecode or compiled kernels of one side's own), round by
round in a shuffled order, for each depth-first combination that records trees. The ratio of
puzzles per CPU second, this checkout over the base, is the cost of carrying the
recording while it is off (the target: under 2 %, a ratio of at least 0.98).

**On.** Trees recorded under the default node cap: the nodes kept, whether the cap
truncated the tree, and the bytes its node arrays hold per node
(:meth:`solvers.search_tree.SearchTree.bytes_per_node`), beside the peak memory
Python's allocator saw during the solve with the recording and without it.

Every figure goes to ``runs.csv``; ``--from runs.csv`` computes the README again
without running anything.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import tracemalloc
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from experiments.studies.kit import (
    ROOT,
    Column,
    Ended,
    Process,
    Row,
    Study,
    code,
    plain_rows,
    progress,
    run_main,
    table,
    target_verdict,
    text,
    time_rounds,
    yes_no,
)

if TYPE_CHECKING:
    from solvers import Model

BASE = "75e8c25"
"""The last commit before search trees were recorded."""
COMBINATIONS = ("cp:value-position,alldiff=weak:first-fail/min",
                "cp:classic,alldiff=weak:first-fail/min",
                "automata:boolean:first-fail/min")
TARGET = 0.98
MEMORY_CASES = {
    "sudoku lambda, classic weak, cp input/min": ("lambda", "cp", "input/min"),
    "sudoku lambda, classic weak, python-constraint first-fail/min":
        ("lambda", "python-constraint", "first-fail/min"),
    "sudoku extra4, classic weak, cp input/min (past the cap)": ("extra4", "cp", "input/min"),
}
FIELDS = ("kind", "round", "side", "case", "figure", "value")
WARM_UP_PUZZLES = 5


def options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's own options."""
    parser.add_argument("--base", default=BASE, help=f"the commit to compare with "
                                                     f"(default {BASE})")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--puzzles", type=int, default=300)


def throughput(side: str, folder: Path, combination: str, puzzles: int) -> Process:
    """The throughput benchmark of one combination, a whole process in the checkout
    ``folder``, the few puzzles of the untimed round first."""
    def figures(ended: Ended) -> Mapping[str, float]:
        if ended.code != 0:
            raise SystemExit(f"{folder}: {combination} failed:\n{ended.stderr[-2000:]}")
        [found] = json.loads(ended.stdout)["figures"]
        return {name: found[name] for name in ("per_core", "correct", "attempted")}

    return Process(f"{side}, {combination}", lambda turn: [
        sys.executable, "-m", "experiments.studies.throughput", "--combination", combination,
        "--puzzles", str(puzzles if turn.round else WARM_UP_PUZZLES), "--direct", "none",
        "--json"], lambda ended: figures(ended)["correct"] == figures(ended)["attempted"],
        figures, cwd=folder)


def measure_off(base: str, rounds: int, puzzles: int) -> list[Row]:
    """The throughput rows of both sides, ``rounds`` times, in a shuffled order."""
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          check=True, capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="tree-cost-") as scratch:
        sides = {f"head {head}": Path(scratch) / "head", f"base {base}": Path(scratch) / "base"}
        for folder, commit in zip(sides.values(), ("HEAD", base), strict=True):
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach",
                            str(folder), commit], check=True, capture_output=True)
        try:
            processes = {(side, combination): throughput(side, folder, combination, puzzles)
                         for side, folder in sides.items() for combination in COMBINATIONS}
            timings = time_rounds(list(processes.values()), rounds, warm_up=True)
        finally:
            for folder in sides.values():
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(folder)], check=False, capture_output=True)
    case_of = {process.name: key for key, process in processes.items()}
    return [{"kind": "off", "round": str(t.round), "side": case_of[t.process][0],
             "case": case_of[t.process][1], "figure": name, "value": str(value)}
            for t in timings for name, value in t.figures.items()]


def _model(instance: str) -> Model:
    """A fresh classic model (weak all_different) of one of the course's Sudokus."""
    from puzzles import PUZZLES
    from viewpoints import get_viewpoint

    sudoku = PUZZLES.get("sudoku")
    chosen = next(i for i in sudoku.read(ROOT / "puzzles" / "data" / "sudoku" /
                                         "kul_named_9x9.txt")
                  if sudoku.instance_name(i) == instance)
    return get_viewpoint("sudoku", "classic").build(chosen, {"alldiff": "weak"}).model


def measure_on() -> list[Row]:
    """Trees recorded under the default cap: nodes, bytes a node, peak allocations."""
    from solvers import solve

    rows: list[Row] = []
    for case, (instance, backend, heuristic) in MEMORY_CASES.items():
        peaks, figures = {}, {}
        solve(_model(instance), backend, heuristic)  # imports and first use, not counted
        for recording in (False, True):
            tracemalloc.start()
            result = solve(_model(instance), backend, heuristic, time_limit=60,
                           record_tree=recording)
            peaks[recording] = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            if result.tree is not None:
                figures = {"nodes": len(result.tree), "truncated": int(result.tree.truncated),
                           "bytes_per_node": result.tree.bytes_per_node(),
                           "backtracks": result.statistics.backtracks or 0}
        figures |= {"peak_off_bytes": peaks[False], "peak_on_bytes": peaks[True]}
        progress(f"{case}: {figures}")
        rows += [{"kind": "on", "round": "1", "side": "checkout", "case": case,
                  "figure": name, "value": str(value)} for name, value in figures.items()]
    return rows


def values(rows: Sequence[Row], kind: str, case: str, figure: str,
           side: str | None = None) -> list[float]:
    """A figure of one case (and side), round by round."""
    return [float(r["value"]) for r in rows if r["kind"] == kind and r["case"] == case
            and r["figure"] == figure and side in (None, r["side"])]


def sides(rows: Sequence[Row]) -> tuple[str, str]:
    """The head's side and the base's, as the rows name them (``head c62c308``)."""
    named = sorted({r["side"] for r in rows if r["kind"] == "off"})
    return (next(s for s in named if s.startswith("head")),
            next(s for s in named if s.startswith("base")))


def remade_by(rows: Sequence[Row]) -> str:
    """The options that measure such rows again."""
    rounds = max(int(r["round"]) for r in rows if r["kind"] == "off")
    puzzles = int(max(float(r["value"]) for r in rows if r["figure"] == "attempted"))
    return f"--base {sides(rows)[1].removeprefix('base ')} --rounds {rounds} --puzzles {puzzles}"


def report(rows: Sequence[Row], command: str) -> str:
    """The README from the rows alone (so ``--from`` writes it again, word for word)."""
    head, base = sides(rows)
    cases = list(dict.fromkeys(r["case"] for r in rows if r["kind"] == "off"))

    def median(case: str, side: str) -> float:
        return statistics.median(values(rows, "off", case, "per_core", side))

    def ratio(case: str) -> float:
        return median(case, head) / median(case, base)

    def per_round(case: str) -> str:
        ratios = [a / b for a, b in zip(values(rows, "off", case, "per_core", head),
                                        values(rows, "off", case, "per_core", base), strict=True)]
        return f"{min(ratios):.3f}-{max(ratios):.3f}"

    off: list[Column[str]] = [
        Column("combination", code, figures=False),
        Column("head (median)", lambda case: f"{median(case, head):,.1f}"),
        Column("base (median)", lambda case: f"{median(case, base):,.1f}"),
        Column("ratio of medians", lambda case: f"{ratio(case):.3f}"),
        Column("ratio per round (min-max)", per_round),
        Column("all checked", lambda case: yes_no(values(rows, "off", case, "attempted")
                                                   == values(rows, "off", case, "correct")))]

    def one(case: str, figure: str) -> float:
        return values(rows, "on", case, figure)[0]

    on: list[Column[str]] = [
        text("tree recorded", str), Column("nodes", lambda c: f"{one(c, 'nodes'):,.0f}"),
        Column("truncated", lambda c: yes_no(bool(one(c, "truncated")))),
        Column("bytes per node", lambda c: f"{one(c, 'bytes_per_node'):.1f}"),
        Column("peak allocations off (KiB)", lambda c: f"{one(c, 'peak_off_bytes') / 1024:,.0f}"),
        Column("on (KiB)", lambda c: f"{one(c, 'peak_on_bytes') / 1024:,.0f}")]
    lines = ["# tree-cost: what recording search trees costs", "",
             f"Written by `{command}`. Off: the Sudoku throughput benchmark on commit "
             f"{head.removeprefix('head ')} and on {base.removeprefix('base ')} (before "
             "trees were recorded), each a git worktree of its own, whole processes, "
             "round by round in a shuffled order; puzzles per CPU second. "
             "On: trees recorded under the default cap of 100,000 nodes.", "",
             *table(cases, off), "",
             *(f"- `{case}`: recording off costs {100 * (1 - ratio(case)):+.1f} % (target "
               f"under 2 %): {target_verdict(ratio(case) >= TARGET)}." for case in cases), "",
             *table(dict.fromkeys(r["case"] for r in rows if r["kind"] == "on"), on)]
    return "\n".join(lines) + "\n"


def wrong(rows: Sequence[Row]) -> list[str]:
    """The throughput processes whose answers were not all checked correct."""
    attempted = {(r["round"], r["side"], r["case"]): float(r["value"]) for r in rows
                 if r["figure"] == "attempted"}
    return [f"{r['case']} ({r['side']}, round {r['round']}): {r['value']} checked"
            for r in rows if r["figure"] == "correct"
            and float(r["value"]) < attempted[r["round"], r["side"], r["case"]]]


STUDY = Study(
    "experiments.studies.tree_cost", __doc__ or "", plain_rows(FIELDS), options,
    lambda arguments: (measure_off(arguments.base, arguments.rounds, arguments.puzzles)
                       + measure_on()),
    remade_by, report, wrong, "tree-cost")
main = STUDY.main
"""Measure (or read back with ``--from``), print the report, write it with the rows."""


if __name__ == "__main__":
    run_main(main)
