"""What recording search trees costs: nothing when off, a few bytes a node when on.

``python -m experiments.studies.tree_cost [--base REV] [--rounds 5] [--puzzles 300]
[--output results/tree-cost]``

**Off.** The Sudoku throughput benchmark (:mod:`experiments.studies.throughput`) runs,
as whole processes, on the checkout's commit (``HEAD``) and on ``--base`` (a commit
from before trees were recorded), each checked out into a temporary git worktree so
that both start alike (no bytecode or compiled kernels of one side's own), round by
round in a shuffled order, for each depth-first combination that records trees. The ratio of
puzzles per CPU second, this checkout over the base, is the cost of carrying the
recording while it is off (the issue's target: under 2 %, a ratio of at least 0.98).

**On.** Trees recorded under the default node cap: the nodes kept, whether the cap
truncated the tree, and the bytes its node arrays hold per node
(:meth:`solvers.search_tree.SearchTree.bytes_per_node`), beside the peak memory
Python's allocator saw during the solve with the recording and without it.

Every figure goes to ``runs.csv``; ``--from runs.csv`` computes the README again
without running anything.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import statistics
import subprocess
import sys
import tempfile
import tracemalloc
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from experiments.studies.kit import met, progress, publish, run_main

if TYPE_CHECKING:
    from solvers import Model

ROOT = Path(__file__).resolve().parents[2]
BASE = "75e8c25"
"""The last commit before search trees were recorded (issue 46)."""
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


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m experiments.studies.tree_cost",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default=BASE, help=f"the commit to compare with "
                                                     f"(default {BASE})")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--puzzles", type=int, default=300)
    parser.add_argument("--output", type=Path, help="write README.md and runs.csv here")
    parser.add_argument("--from", dest="source", type=Path,
                        help="compute the README from this runs.csv instead of measuring")
    return parser.parse_args(argv)


def _throughput(folder: Path, combination: str, puzzles: int) -> dict[str, float]:
    """One whole process of the throughput benchmark in ``folder``: its figures."""
    done = subprocess.run(
        [sys.executable, "-m", "experiments.studies.throughput", "--combination", combination,
         "--puzzles", str(puzzles), "--direct", "none", "--json"],
        cwd=folder, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{folder}: {combination} failed:\n{done.stderr[-2000:]}")
    [figures] = json.loads(done.stdout)["figures"]
    return {"per_core": figures["per_core"], "correct": figures["correct"],
            "attempted": figures["attempted"]}


def measure_off(base: str, rounds: int, puzzles: int) -> list[dict[str, object]]:
    """The throughput rows of both sides, ``rounds`` times, in a shuffled order."""
    rows: list[dict[str, object]] = []
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          check=True, capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="tree-cost-") as scratch:
        sides = {f"head {head}": Path(scratch) / "head", f"base {base}": Path(scratch) / "base"}
        for folder, commit in zip(sides.values(), ("HEAD", base), strict=True):
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach",
                            str(folder), commit], check=True, capture_output=True)
        try:
            for folder in sides.values():  # untimed: bytecode and numba's caches
                for combination in COMBINATIONS:
                    _throughput(folder, combination, 5)
            order = [(side, c) for side in sides for c in COMBINATIONS]
            for number in range(1, rounds + 1):
                random.Random(number).shuffle(order)
                for side, combination in order:
                    figures = _throughput(sides[side], combination, puzzles)
                    progress(f"round {number}: {side}, {combination}: "
                             f"{figures['per_core']:.1f} puzzles/s per core")
                    rows += [{"kind": "off", "round": number, "side": side,
                              "case": combination, "figure": name, "value": value}
                             for name, value in figures.items()]
        finally:
            for folder in sides.values():
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(folder)], check=False, capture_output=True)
    return rows


def _model(instance: str) -> Model:
    """A fresh classic model (weak all_different) of one of the course's Sudokus."""
    from puzzles import PUZZLES
    from viewpoints import get_viewpoint

    sudoku = PUZZLES.get("sudoku")
    chosen = next(i for i in sudoku.read(ROOT / "puzzles" / "data" / "sudoku" /
                                         "kul_named_9x9.txt")
                  if sudoku.instance_name(i) == instance)
    return get_viewpoint("sudoku", "classic").build(chosen, {"alldiff": "weak"}).model


def measure_on() -> list[dict[str, object]]:
    """Trees recorded under the default cap: nodes, bytes a node, peak allocations."""
    from solvers import solve

    rows: list[dict[str, object]] = []
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
        rows += [{"kind": "on", "round": 1, "side": "checkout", "case": case,
                  "figure": name, "value": value} for name, value in figures.items()]
    return rows


def report(rows: list[dict[str, object]]) -> str:
    """The README from the rows alone (so ``--from`` writes it again, word for word)."""
    def value(kind: str, case: str, figure: str, side: str | None = None) -> list[float]:
        return [float(str(r["value"])) for r in rows if r["kind"] == kind and
                r["case"] == case and r["figure"] == figure and (side is None or
                                                                 r["side"] == side)]

    sides = sorted({str(r["side"]) for r in rows if r["kind"] == "off"})
    base = next(side for side in sides if side.startswith("base"))
    head = next(side for side in sides if side.startswith("head"))
    rounds = max(int(str(r["round"])) for r in rows if r["kind"] == "off")
    puzzles = int(max(float(str(r["value"])) for r in rows if r["figure"] == "attempted"))
    command = (f"python -m experiments.studies.tree_cost --base {base.removeprefix('base ')} "
               f"--rounds {rounds} --puzzles {puzzles} --output results/tree-cost")
    lines = ["# tree-cost: what recording search trees costs (issue 46)", "",
             f"Written by `{command}`. Off: the Sudoku throughput benchmark on commit "
             f"{head.removeprefix('head ')} and on {base.removeprefix('base ')} (before "
             "trees were recorded), each a git worktree of its own, whole processes, "
             "round by round in a shuffled order; puzzles per CPU second. "
             "On: trees recorded under the default cap of 100,000 nodes.", "",
             "| combination | head (median) | base (median) | ratio of medians | "
             "ratio per round (min-max) | all checked |", "|---|---:|---:|---:|---:|---:|"]
    verdicts = []
    for case in dict.fromkeys(str(r["case"]) for r in rows if r["kind"] == "off"):
        ours = value("off", case, "per_core", head)
        theirs = value("off", case, "per_core", base)
        per_round = [a / b for a, b in zip(ours, theirs, strict=True)]
        ratio = statistics.median(ours) / statistics.median(theirs)
        checked = all(a == c for a, c in zip(value("off", case, "attempted"),
                                              value("off", case, "correct"), strict=True))
        lines.append(f"| `{case}` | {statistics.median(ours):,.1f} | "
                     f"{statistics.median(theirs):,.1f} | {ratio:.3f} | "
                     f"{min(per_round):.3f}-{max(per_round):.3f} | "
                     f"{'yes' if checked else 'NO'} |")
        verdicts.append(f"- `{case}`: recording off costs {100 * (1 - ratio):+.1f} % "
                        f"(target under 2 %): {met(ratio >= TARGET)}.")
    lines += ["", *verdicts, "", "| tree recorded | nodes | truncated | bytes per node | "
              "peak allocations off (KiB) | on (KiB) |", "|---|---:|---:|---:|---:|---:|"]
    for case in dict.fromkeys(str(r["case"]) for r in rows if r["kind"] == "on"):
        def one(figure: str, case: str = case) -> float:
            return value("on", case, figure)[0]
        lines.append(f"| {case} | {one('nodes'):,.0f} | {'yes' if one('truncated') else 'no'}"
                     f" | {one('bytes_per_node'):.1f} | {one('peak_off_bytes') / 1024:,.0f} |"
                     f" {one('peak_on_bytes') / 1024:,.0f} |")
    lines += ["", "Recompute every figure above from the committed rows with "
              "`python -m experiments.studies.tree_cost --from results/tree-cost/runs.csv`."]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str]) -> int | None:
    arguments = parse_arguments(argv)
    if arguments.source is not None:
        with arguments.source.open(encoding="utf-8", newline="") as lines:
            rows: list[dict[str, object]] = list(csv.DictReader(lines))
    else:
        rows = measure_off(arguments.base, arguments.rounds, arguments.puzzles) + measure_on()
    text = report(rows)
    if arguments.output is not None and arguments.source is None:
        arguments.output.mkdir(parents=True, exist_ok=True)
        with (arguments.output / "runs.csv").open("w", encoding="utf-8", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
    wrong = [f"{r['case']} ({r['side']}, round {r['round']}): {r['value']} checked"
             for r in rows if r["figure"] == "correct" and
             float(str(r["value"])) < float(str(next(
                 o["value"] for o in rows if o["figure"] == "attempted" and
                 (o["round"], o["side"], o["case"]) == (r["round"], r["side"], r["case"]))))]
    return publish(text, None if arguments.output is None else
                   arguments.output / "README.md", wrong)


if __name__ == "__main__":
    run_main(main)
