"""Campaign benchmark: the default Sudoku campaign over 2,000 17-clue puzzles against a
direct pychoco script solving the same puzzles, whole processes, interleaved.

``python -m experiments.studies.campaign_benchmark [--rounds 3] [--output FOLDER]``
writes the 1,000 17-clue puzzles of Royle's collection shipped with PuzzleLab and
1,000 more made from them (each transposed and its digits renamed by a seeded
permutation: other puzzles, as hard, each with one solution), a spec naming only the
puzzle and the two files, and then, each round in a shuffled order, runs as fresh
processes: the direct script (:mod:`experiments.studies.sudoku_direct`),
``puzzlelab run SPEC --jobs 1`` and ``puzzlelab run SPEC`` (every core). Every answer
is checked: the script's by the Sudoku checker here, the campaigns' by the store's
verdicts. A campaign's bookkeeping per run is the time between two of its results
less the worker's own time for a run (``wall_s``), both from its store.

The figures go to ``runs.csv``; ``--from runs.csv`` makes the README from it again.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from experiments.campaign.verdicts import Verdict
from experiments.studies.kit import (
    Column,
    Ended,
    Process,
    Row,
    RowsStudy,
    Spread,
    Turn,
    code,
    puzzlelab_script,
    run_main,
    spread_columns,
    table,
    target_verdict,
    time_rounds,
)
from experiments.studies.startup import DIRECT, PUZZLE_FILE
from experiments.studies.sudoku_direct import WHY_THIS_SCRIPT
from solvers import Status

if TYPE_CHECKING:
    from experiments.campaign.record import RunRecord

DIRECT_NAME, ONE_JOB, ALL_CORES = "direct pychoco script", "puzzlelab run --jobs 1", "puzzlelab run"
PROCESSES = (DIRECT_NAME, ONE_JOB, ALL_CORES)
BOOKKEEPING, WORKER = "bookkeeping per run (--jobs 1)", "worker's time per run (--jobs 1)"
RATIO_TARGET, BOOKKEEPING_TARGET = 0.8, 0.0005
RUNS = 2000


def renamed_copies(puzzles: Sequence[str], seed: int = 1) -> list[str]:
    """Each 81-character puzzle transposed, its digits renamed by a seeded permutation."""
    rng, made = random.Random(seed), []
    for puzzle in puzzles:
        digits = list("123456789")
        rng.shuffle(digits)
        rename = {str(d + 1): digits[d] for d in range(9)} | {"0": "0", ".": "."}
        made.append("".join(rename[puzzle[9 * r + c]] for c in range(9) for r in range(9)))
    return made


def prepare(folder: Path) -> list[Path]:
    """The two puzzle files and the default spec, in ``folder``; the files."""
    shipped = [line.strip() for line in PUZZLE_FILE.read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    files = [folder / "royle17.txt", folder / "royle17-renamed.txt"]
    files[0].write_text("\n".join(shipped) + "\n")
    files[1].write_text("\n".join(renamed_copies(shipped)) + "\n")
    (folder / "default.toml").write_text(
        'name = "sudoku-default"\npuzzle = "sudoku"\n'
        'instances = ["royle17.txt", "royle17-renamed.txt"]\n')
    return files


def direct_correct(output: str, files: Sequence[Path]) -> bool:
    """Whether the script printed a checked solution for every puzzle, in order."""
    from puzzles import PUZZLES

    kind = PUZZLES.get("sudoku")
    instances = [instance for path in files for instance in kind.read(path)]
    lines = output.split()
    if len(lines) != len(instances):
        return False
    return all(len(line) == 81 and not kind.check(instance, kind.solution_from_json(
        [[int(d) for d in line[9 * r:9 * r + 9]] for r in range(9)]))
               for line, instance in zip(lines, instances))


def stored_runs(ended: Ended) -> list[RunRecord]:
    """The runs a campaign process stored in its turn's folder."""
    from experiments.campaign.stored_campaign import read_campaign

    return list(read_campaign(ended.turn.folder / "runs.sqlite").runs)


def campaign_correct(ended: Ended) -> bool:
    """Whether the campaign ended well and stored every run, each solved and correct."""
    stored = stored_runs(ended) if ended.code == 0 else []
    return len(stored) == RUNS and all(
        r.status is Status.SOLVED and r.verdict is Verdict.CORRECT for r in stored)


def bookkeeping(ended: Ended) -> Mapping[str, float]:
    """The worker's mean time for a run, and the time between two results less it (the
    runner's bookkeeping), in seconds, from the campaign's store."""
    stored = stored_runs(ended)
    finished = sorted(datetime.fromisoformat(r.finished_at or "") for r in stored)
    between = (finished[-1] - finished[0]).total_seconds() / (len(finished) - 1)
    worker = statistics.fmean(r.wall_s or 0.0 for r in stored)
    return {BOOKKEEPING: between - worker, WORKER: worker}


def processes(folder: Path, files: Sequence[Path]) -> list[Process]:
    """The direct script and both campaigns, run in ``folder``, each checked."""
    campaign = [*puzzlelab_script(), "run", "default.toml", "--no-progress"]

    def out(turn: Turn) -> list[str]:
        return ["--out", str(turn.folder)]

    return [Process(DIRECT_NAME, lambda turn: [sys.executable, str(DIRECT), *map(str, files)],
                    lambda ended: ended.code == 0 and direct_correct(ended.stdout, files),
                    cwd=folder),
            Process(ONE_JOB, lambda turn: [*campaign, "--jobs", "1", *out(turn)],
                    campaign_correct, bookkeeping, cwd=folder),
            Process(ALL_CORES, lambda turn: [*campaign, *out(turn)], campaign_correct,
                    cwd=folder)]


def measure(rounds: int) -> list[Row]:
    """The rounds' rows: each process's time and check, and the bookkeeping figures."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        timings = time_rounds(processes(folder, prepare(folder)), rounds)
    return [_row(t.round, what, seconds, t.correct) for t in timings
            for what, seconds in [*t.figures.items(), (t.process, t.seconds)]]


def _row(round_number: int, what: str, seconds: float, correct: bool) -> Row:
    return {"round": str(round_number), "measure": what, "seconds": f"{seconds:.6f}",
            "correct": str(int(correct))}


def report(rows: Sequence[Row], command: str) -> str:
    """The README: each process's times, the ratios and the targets."""
    def seconds(what: str) -> list[float]:
        return [float(row["seconds"]) for row in rows if row["measure"] == what]

    spreads = {what: Spread.of(seconds(what)) for what in PROCESSES}
    columns: list[Column[str]] = [
        Column("process", code, figures=False), Column("rounds", lambda w: spreads[w].count),
        Column("all correct", lambda w: sum(row["correct"] == "1" for row in rows
                                            if row["measure"] == w)),
        *spread_columns(spreads, ("median (s)", "min (s)", "max (s)"), "{:.2f}".format)]
    lines = ["# Campaign benchmark: the default Sudoku campaign against a direct script", "",
             f"Written by `{command}`. Each round runs, as fresh processes in a shuffled "
             "order: the direct script over the 2,000 puzzles, and the default Sudoku "
             "campaign (a spec naming only the puzzle and the two files) with `--jobs 1` and "
             "with every core, start-up, the 2,000 runs, the tables and the report included. "
             "Every answer is checked. The puzzles are Royle's published 17-clue collection "
             "and, beside it, a copy of each transposed with its digits renamed (as hard, "
             "each with one solution). " + WHY_THIS_SCRIPT, "", *table(PROCESSES, columns)]
    direct = spreads[DIRECT_NAME].median
    lines.append("")
    for what in (ONE_JOB, ALL_CORES):
        ratio = direct / spreads[what].median
        lines.append(f"- `{what}` against the direct script (its speed, medians): "
                     f"{ratio:.2f}x; at least {RATIO_TARGET:g}x: "
                     f"{target_verdict(ratio >= RATIO_TARGET)}.")
    kept, worker = statistics.median(seconds(BOOKKEEPING)), statistics.median(seconds(WORKER))
    lines.append(f"- the runner's bookkeeping per run (`--jobs 1`: the time between two "
                 f"results less the worker's own time for a run, "
                 f"{worker * 1000:.2f} ms): {kept * 1000:.2f} ms; under "
                 f"{BOOKKEEPING_TARGET * 1000:g} ms: {target_verdict(kept < BOOKKEEPING_TARGET)}.")
    one_job = spreads[ONE_JOB].median
    rest = one_job - RUNS * (worker + kept)
    lines += ["", "## What it shows", "",
              f"With `--jobs 1` the campaign's 2,000 runs take {RUNS * (worker + kept):.2f} s "
              f"({(worker + kept) * 1000:.2f} ms a run: the worker's {worker * 1000:.2f} ms and "
              f"the bookkeeping's {kept * 1000:.2f} ms), and the rest of the process "
              f"{rest:.2f} s: start-up, reading and checking the 2,000 puzzles, starting the "
              f"worker, the tables, the report and the interpreter's exit. The direct script "
              f"takes {direct * 1000 / RUNS:.2f} ms a puzzle, its start-up included. A worker's "
              "run is the whole checked solve: the viewpoint's model, its posting on Choco, the "
              "search, the check of the assignment against every constraint and of the "
              "solution by the puzzle's checker, the verdict and the record; the search and "
              "posting alone take less than the script's, which builds its model through "
              "pychoco's higher-level calls. With every core the runs are shared by the "
              "workers, but the runner's process takes a core of its own share."]
    return "\n".join(lines) + "\n"


STUDY = RowsStudy(
    "experiments.studies.campaign_benchmark", __doc__ or "", ("--rounds", 3, "rounds"),
    ["round", "measure", "seconds", "correct"], measure, report,
    lambda row: None if row["correct"] == "1" else f"{row['measure']} (round {row['round']})",
    "campaign-benchmark")
main = STUDY.main
"""Measure (or read back with ``--from``), print the report, write it with the rows."""


if __name__ == "__main__":
    run_main(main)
