"""Hashi default benchmark: the default Hashi campaign against a direct CP-SAT script with
lazy cuts, end to end, whole processes, interleaved.

``python -m experiments.studies.hashi_default [--rounds 3] [--output FOLDER]`` writes two
sets of 30 puzzles as ``.has`` files: every 12th of the Coelho et al. 200-island set
(24x24), and 30 of 400 islands on 34x34 boards from PuzzleLab's generator (seed 1, the
Coelho density: the 400-island Coelho files are not shipped). For each set it writes a
spec naming only the puzzle and the files, and each round runs, in a shuffled order,
as fresh processes: the direct script (:mod:`experiments.studies.hashi_direct`, CP-SAT
with its default parameters, no improvements) over the 30 files, ``puzzlelab run SPEC``
(every core, as a user runs it) and ``puzzlelab run SPEC --jobs 1``. Every answer is
checked: the script's by the Hashi checker here, the campaigns' by the store's
verdicts. The figures go to ``runs.csv``; ``--from runs.csv`` makes the README again.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from experiments.studies.kit import RowsStudy, target_verdict
from experiments.studies.startup import ROOT, puzzlelab_script
from puzzles import PUZZLES

DIRECT = Path(__file__).with_name("hashi_direct.py")
COELHO = ROOT / "puzzles" / "data" / "hashi" / "coelho2019_200islands.txt"
SETS = ("coelho 200 islands", "generated 400 islands")
DIRECT_NAME, DEFAULT, ONE_JOB = "direct CP-SAT script", "puzzlelab run", "puzzlelab run --jobs 1"
PROCESSES = (DIRECT_NAME, DEFAULT, ONE_JOB)
TARGET = 1.5
KIND = PUZZLES.get("hashi")


def prepare(folder: Path) -> dict[str, list[Path]]:
    """The two sets' ``.has`` files and their specs in ``folder``."""
    from experiments.generate import generate

    coelho = folder / "set0"
    coelho.mkdir()
    files = {SETS[0]: [], SETS[1]: [made.path for made in generate(
        "hashi", {"size": "34x34", "islands": "400"}, seed=1, count=30,
        output=folder / "set1")]}
    for instance in list(KIND.read(COELHO))[::12][:30]:
        path = coelho / KIND.instance_name(instance)
        path.write_text(KIND.write(instance), encoding="utf-8")
        files[SETS[0]].append(path)
    for number, name in enumerate(SETS):
        listed = ", ".join(f'"{p.relative_to(folder).as_posix()}"' for p in files[name])
        (folder / f"set{number}.toml").write_text(
            f'name = "hashi-default-{number}"\npuzzle = "hashi"\ninstances = [{listed}]\n')
    return files


def direct_correct(output: str, files: Sequence[Path]) -> bool:
    """Whether the script printed, for every file, bridges the Hashi checker accepts."""
    blocks = [block.strip().splitlines() for block in output.split("== ")[1:]]
    if len(blocks) != len(files):
        return False
    for block, path in zip(blocks, files):
        bridges = [[int(v) for v in line.split()] for line in block[1:]]
        if block[0] != str(path) or KIND.check(KIND.load(path),
                                               KIND.solution_from_json(bridges)):
            return False
    return True


def campaign_correct(database: Path, runs: int) -> bool:
    """Whether the store holds ``runs`` runs, each solved and correct."""
    from experiments.campaign.stored_campaign import read_campaign

    stored = read_campaign(database).runs
    return len(stored) == runs and all(r.status.value == "solved" and
                                       r.verdict.value == "correct" for r in stored)


def measure(rounds: int) -> list[dict[str, str]]:
    """Every round's rows: each process's time and whether all its answers held."""
    rows: list[dict[str, str]] = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        files = prepare(folder)
        for number in range(1, rounds + 1):
            for index, which in enumerate(SETS):
                order = list(PROCESSES)
                random.Random(number * 10 + index).shuffle(order)
                for process in order:
                    out = folder / f"out-{number}-{index}-{len(rows)}"
                    command = ([sys.executable, str(DIRECT), *map(str, files[which])]
                               if process == DIRECT_NAME else
                               [*puzzlelab_script(), "run", f"set{index}.toml",
                                "--no-progress", "--out", str(out),
                                *(["--jobs", "1"] if process == ONE_JOB else [])])
                    start = time.perf_counter()
                    done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
                    seconds = time.perf_counter() - start
                    correct = done.returncode == 0 and (
                        direct_correct(done.stdout, files[which]) if process == DIRECT_NAME
                        else campaign_correct(out / "runs.sqlite", len(files[which])))
                    rows.append({"round": str(number), "set": which, "process": process,
                                 "seconds": f"{seconds:.6f}", "correct": str(int(correct))})
            print(f"round {number}/{rounds} done", file=sys.stderr, flush=True)
    return rows


def report(rows: Sequence[dict[str, str]], command: str) -> str:
    """The README: each set's times, the speed-ups over the script, the targets."""
    lines = ["# Hashi default benchmark (issue 43, item 3)", "",
             f"Written by `{command}`. For each set of 30 puzzles, each round runs as fresh "
             "processes, in a shuffled order: the direct script over the 30 files, and the "
             "default Hashi campaign (a spec naming only the puzzle and the files: the "
             "`bridges` viewpoint, lazy cuts, every improvement, islands first, on CP-SAT) "
             "on every core and with `--jobs 1`, start-up, the runs, the tables and the "
             "report included. Every answer is checked.", "",
             "| set | process | rounds | all correct | median (s) | min (s) | max (s) |",
             "|---|---|---:|---:|---:|---:|---:|"]
    medians: dict[tuple[str, str], float] = {}
    for which in SETS:
        for process in PROCESSES:
            mine = [r for r in rows if r["set"] == which and r["process"] == process]
            times = [float(r["seconds"]) for r in mine]
            medians[which, process] = statistics.median(times)
            lines.append(f"| {which} | `{process}` | {len(mine)} | "
                         f"{sum(r['correct'] == '1' for r in mine)} | "
                         f"{medians[which, process]:.2f} | {min(times):.2f} | "
                         f"{max(times):.2f} |")
    lines.append("")
    for which in SETS:
        for process in (DEFAULT, ONE_JOB):
            speed = medians[which, DIRECT_NAME] / medians[which, process]
            lines.append(f"- {which}, `{process}`: {speed:.2f}x the direct script's speed "
                         f"(medians); at least {TARGET:g}x: "
                         f"{target_verdict(speed >= TARGET)}.")
    lines += ["", "Recompute every figure above from the committed rows with `python -m "
              "experiments.studies.hashi_default --from results/hashi-default/runs.csv`."]
    return "\n".join(lines) + "\n"


STUDY = RowsStudy(
    "experiments.studies.hashi_default", __doc__ or "", ("--rounds", 3, "rounds"),
    ["round", "set", "process", "seconds", "correct"], measure, report,
    lambda row: (None if row["correct"] == "1" else
                 f"{row['set']}: {row['process']} (round {row['round']})"))


def main(argv: Sequence[str] | None = None) -> int:
    """Measure (or read back with ``--from``), print the report, write it with the rows."""
    return STUDY.main(argv)


if __name__ == "__main__":
    from experiments.studies.kit import run_main

    run_main(main)
