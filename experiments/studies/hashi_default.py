"""Hashi default benchmark: the default Hashi campaign against the strongest direct CP-SAT
script with lazy cuts, end to end, whole processes, interleaved.

``python -m experiments.studies.hashi_default [--rounds 3] [--output FOLDER]`` writes three
sets of 30 puzzles as ``.has`` files: every 12th of the Coelho et al. 200-island set
(24x24), the 30 published Coelho et al. 400-island boards (34x34) PuzzleLab ships, and,
beside them, 30 of 400 islands on 34x34 boards from PuzzleLab's own generator (seed 1,
the Coelho density). For each set it writes a spec naming only the puzzle and the files,
and each round runs, in a shuffled order, as fresh processes: the direct script
(:mod:`experiments.studies.hashi_direct`) over the 30 files with its best one-worker
settings, the same with CP-SAT's clause inprocessing on (better on some sets), and with a
process per core; ``puzzlelab run SPEC`` (every core, as a user runs it) and ``puzzlelab
run SPEC --jobs 1``, all on this checkout's code. ``--jobs 1`` is compared with the
faster one-worker script, every core with the fastest script. Every answer is checked:
the script's by the Hashi checker here, the campaigns' by the store's verdicts.
The figures go to ``runs.csv``; ``--from runs.csv`` makes the README again.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from experiments.studies.kit import (
    ROOT,
    Column,
    Ended,
    Process,
    Row,
    RowsStudy,
    Spread,
    code,
    puzzlelab_script,
    run_main,
    spread_columns,
    table,
    target_verdict,
    text,
    time_rounds,
)
from puzzles import PUZZLES

DIRECT = Path(__file__).with_name("hashi_direct.py")
DATA = ROOT / "puzzles" / "data" / "hashi"
SETS = ("coelho 200 islands", "coelho 400 islands", "generated 400 islands")
PUBLISHED = SETS[:2]  # the targets are judged on instances we did not make
DIRECT_ONE, DIRECT_EVERY = "direct script, one worker", "direct script, a process per core"
DIRECT_INPROCESSING = "direct script, one worker, inprocessing"
DEFAULT, ONE_JOB = "puzzlelab run", "puzzlelab run --jobs 1"
DIRECTS = {DIRECT_ONE: [], DIRECT_INPROCESSING: ["--inprocessing"],
           DIRECT_EVERY: ["--processes", "0"]}
ONE_WORKER = (DIRECT_ONE, DIRECT_INPROCESSING)  # the script's settings on one core
PROCESSES = (*DIRECTS, DEFAULT, ONE_JOB)
TARGET = 1.5
KIND = PUZZLES.get("hashi")


def prepare(folder: Path) -> dict[str, list[Path]]:
    """The three sets' ``.has`` files and their specs (``set0.toml``...) in ``folder``."""
    from experiments.generate import generate

    files: dict[str, list[Path]] = {SETS[2]: [made.path for made in generate(
        "hashi", {"size": "34x34", "islands": "400"}, seed=1, count=30,
        output=folder / "set2")]}
    published = (list(KIND.read(DATA / "coelho2019_200islands.txt"))[::12][:30],
                 list(KIND.read(DATA / "coelho2019_400islands.txt")))
    for number, instances in enumerate(published):
        (folder / f"set{number}").mkdir()
        files[SETS[number]] = []
        for instance in instances:
            path = folder / f"set{number}" / KIND.instance_name(instance)
            path.write_text(KIND.write(instance), encoding="utf-8")
            files[SETS[number]].append(path)
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


def campaign_correct(ended: Ended, runs: int) -> bool:
    """Whether the campaign ended well and stored ``runs`` runs, each solved and correct."""
    from experiments.campaign.stored_campaign import read_campaign

    if ended.code != 0:
        return False
    stored = read_campaign(ended.turn.folder / "runs.sqlite").runs
    return len(stored) == runs and all(r.status.value == "solved" and
                                       r.verdict.value == "correct" for r in stored)


def processes(folder: Path, index: int, files: Sequence[Path]) -> list[Process]:
    """The direct script in each setting and both campaigns on one set, each checked."""
    spec = [*puzzlelab_script(), "run", f"set{index}.toml", "--no-progress"]

    def direct(name: str, settings: Sequence[str]) -> Process:
        return Process(name, lambda turn: [sys.executable, str(DIRECT), *settings,
                                           *map(str, files)],
                       lambda ended: ended.code == 0 and direct_correct(ended.stdout, files),
                       cwd=folder)

    def campaign(jobs: Sequence[str]) -> Process:
        return Process(DEFAULT if not jobs else ONE_JOB,
                       lambda turn: [*spec, "--out", str(turn.folder), *jobs],
                       lambda ended: campaign_correct(ended, len(files)), cwd=folder)

    return [*(direct(name, settings) for name, settings in DIRECTS.items()),
            campaign([]), campaign(["--jobs", "1"])]


def measure(rounds: int) -> list[Row]:
    """Every round's rows: each process's time on each set and whether its answers held;
    the processes of a set interleaved, round by round, a seed per set."""
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        files = prepare(folder)
        for index, which in enumerate(SETS):
            for timing in time_rounds(processes(folder, index, files[which]), rounds,
                                      seed=10 * index):
                rows.append({"round": str(timing.round), "set": which,
                             "process": timing.process, "seconds": f"{timing.seconds:.6f}",
                             "correct": str(int(timing.correct))})
    return rows


def report(rows: Sequence[Row], command: str) -> str:
    """The README: each set's times, the speed-ups over the script, the targets."""
    def spread(which: str, process: str) -> Spread:
        return Spread.of(float(r["seconds"]) for r in rows
                         if r["set"] == which and r["process"] == process)

    spreads = {f"{which}|{process}": spread(which, process)
               for which in SETS for process in PROCESSES}
    columns: list[Column[str]] = [
        text("set", lambda key: key.split("|")[0]),
        Column("process", lambda key: code(key.split("|")[1]), figures=False),
        Column("rounds", lambda key: spreads[key].count),
        Column("all correct", lambda key: sum(
            f"{r['set']}|{r['process']}" == key and r["correct"] == "1" for r in rows)),
        *spread_columns(spreads, ("median (s)", "min (s)", "max (s)"), "{:.2f}".format)]
    lines = ["# Hashi default benchmark: the default campaign against the strongest direct "
             "CP-SAT script", "",
             f"Written by `{command}`. For each set of 30 puzzles, each round runs as fresh "
             "processes, in a shuffled order: the direct script over the 30 files (its best "
             "one-worker settings, with CP-SAT's clause inprocessing on, and a process per "
             "core), and the default Hashi campaign (a spec naming only the puzzle and the "
             "files: Hashi's defaults) on every core and with `--jobs 1`, start-up, the runs, "
             "the tables and the report included. Every answer is checked. The targets are "
             f"judged on the published sets ({', '.join(PUBLISHED)}); PuzzleLab's generated "
             "boards are shown beside them.", "", *table(spreads, columns), ""]
    for which in SETS:
        def median(process: str, which: str = which) -> float:
            return spreads[f"{which}|{process}"].median

        one, fastest = min(ONE_WORKER, key=median), min(DIRECTS, key=median)
        for process, against in ((ONE_JOB, one), (DEFAULT, fastest)):
            speed = median(against) / median(process)
            verdict = (f"at least {TARGET:g}x: {target_verdict(speed >= TARGET)}"
                       if which in PUBLISHED else "no target on our own boards")
            lines.append(f"- {which}, `{process}`: {speed:.2f}x `{against}` (medians); "
                         f"{verdict}.")
    lines += ["", "Recompute every figure above from the committed rows with `python -m "
              "experiments.studies.hashi_default --from results/hashi-default/runs.csv`."]
    return "\n".join(lines) + "\n"


STUDY = RowsStudy(
    "experiments.studies.hashi_default", __doc__ or "", ("--rounds", 3, "rounds"),
    ["round", "set", "process", "seconds", "correct"], measure, report,
    lambda row: (None if row["correct"] == "1" else
                 f"{row['set']}: {row['process']} (round {row['round']})"))
main = STUDY.main


if __name__ == "__main__":
    run_main(main)
