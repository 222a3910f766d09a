"""Shikaku benchmark: the best viewpoint's targets, and where the weak one gives up.

``python -m experiments.studies.shikaku_benchmark [--output FOLDER]`` solves, one after
another in this process, each run as a campaign's worker runs it and every solution
checked by the puzzle's checker (and against the file's known solution):

- every puzzlekit puzzle with the best viewpoint on ``cpsat`` (target: at most 50 ms of
  solve time each) and on ``cp`` (target: at most 1 s each);
- a 200x200 instance made by the puzzle's own generator with a fixed seed and kept only
  when a count to 2 finds one solution, with the best viewpoint on both (target: 2 s);
- the KU Leuven set on the pure-Python backend (``python-constraint``);
- the Carlsson and KU Leuven sets with the weak viewpoint (``geometry``, pairwise
  overlap) in input order and largest-room-first, to say on which sizes it times out.

The runs go to ``runs.csv`` (the campaign's columns); the report, with a line per target
saying whether it is met, is made from them alone (``--from runs.csv`` makes it again).
The best combinations were measured in ``results/shikaku-viewpoints``. A wrong answer
makes the exit status 1. It is a benchmark, not a test: its times depend on the machine
and on what else runs there.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from experiments.campaign.record import RunRecord
from experiments.studies.kit import (
    Column,
    Study,
    code,
    figure,
    ms,
    progress,
    run_main,
    table,
    target_verdict,
    text,
    yes_no,
)
from experiments.studies.kit.records import (
    RECORDS,
    Choice,
    by_choice,
    checked,
    data_set,
    run,
    solve_s,
    stored_instance,
    wrong_run,
)

PUZZLE = "shikaku"
FAST_SET, SLOW_SET = "puzzlekit_shikaku", "kul_aplai_2016"
WEAK_SETS = ("carlsson_sicstus_shikaku", "kul_aplai_2016")
SIZE, SEED, GENERATE_BUDGET_S = "200x200", "1", 60.0

# The fastest combinations of results/shikaku-viewpoints (patterns on every backend).
BEST_CPSAT = Choice("cpsat", "patterns", "first-fail/min")
BEST_CP = Choice("cp", "patterns", "input/min")
PURE_PYTHON = Choice("python-constraint", "patterns", "first-fail/min")
WEAK = tuple(Choice(solver, "geometry", heuristic, (("overlap", "pairwise"),))
             for heuristic in ("input/min", "largest-first/max")
             for solver in ("cp", "cpsat", "choco"))
TARGETS = {BEST_CPSAT.name: 0.05, BEST_CP.name: 1.0}
"""Each best combination's most solve time for a puzzle of the set, in seconds."""
TARGET_GENERATED = 2.0
TIME_LIMIT, WEAK_TIME_LIMIT = 10.0, 2.0


def options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's own options."""
    parser.add_argument("--first", type=int, default=None, metavar="N",
                        help="only the first N puzzles of each set (default: all)")
    parser.add_argument("--size", default=SIZE, help="generated grid, ROWSxCOLUMNS")
    parser.add_argument("--max-area", type=int, default=None,
                        help="the generator's largest room (default: its own default)")
    parser.add_argument("--seed", default=SEED, help="the generator's seed")
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT)
    parser.add_argument("--weak-time-limit", type=float, default=WEAK_TIME_LIMIT)


def generated(arguments: argparse.Namespace) -> tuple[str, Any]:
    """The first unique instance the generator draws from the seed, and the command that
    makes it (its label in the runs)."""
    from experiments.generate import generate

    asked = {"size": arguments.size}
    if arguments.max_area is not None:
        asked["max-area"] = str(arguments.max_area)
    command = " ".join(["generate", PUZZLE, *(f"--{k} {v}" for k, v in asked.items()),
                        f"--seed {arguments.seed}", "--unique"])
    progress(f"{command}: drawing")
    with tempfile.TemporaryDirectory() as folder:
        made = next(generate(PUZZLE, asked, seed=int(arguments.seed), unique=True,
                             output=Path(folder), time_limit=GENERATE_BUDGET_S))
    return command, made.instance


def measure(arguments: argparse.Namespace) -> list[RunRecord]:
    """Every part of the benchmark, in the order of the report."""
    records: list[RunRecord] = []

    def solve_all(choice: Choice, instances: Sequence[tuple[str, Any]], limit: float,
                  warm_up: bool = False) -> None:
        progress(f"{choice.name} on {len(instances)} puzzles")
        if warm_up:  # imports and first use, not counted
            run(choice.identity(instances[0][1], time_limit=limit), instances[0][1])
        for place, (file, instance) in enumerate(instances):
            identity = choice.identity(instance, time_limit=limit, instance_file=file,
                                       instance_position=place, position=len(records))
            records.append(run(identity, instance))

    fast = data_set(PUZZLE, FAST_SET, arguments.first)
    for choice in (BEST_CPSAT, BEST_CP):
        solve_all(choice, fast, arguments.time_limit, warm_up=True)
    command, instance = generated(arguments)
    for choice in (BEST_CPSAT, BEST_CP):
        identity = choice.identity(instance, time_limit=arguments.time_limit,
                                   position=len(records))
        records.append(run(dataclasses.replace(identity, instance=command), instance))
    solve_all(PURE_PYTHON, data_set(PUZZLE, SLOW_SET, arguments.first), arguments.time_limit)
    weak = [item for name in WEAK_SETS for item in data_set(PUZZLE, name, arguments.first)]
    for choice in WEAK:
        solve_all(choice, weak, arguments.weak_time_limit)
    return records


def part(records: Sequence[RunRecord], *choices: Choice, in_file: bool = True
         ) -> dict[str, list[RunRecord]]:
    """The runs of ``choices`` on instances of a file (or on the generated one)."""
    names = {choice.name for choice in choices}
    return {name: runs for name, runs in by_choice(
        r for r in records if bool(r.identity.instance_file) == in_file).items()
        if name in names}


def correct(record: RunRecord) -> bool:
    """Solved, checked, and the file's known solution where it gives one."""
    return checked(record) and record.matches_known is not False


def remade_by(records: Sequence[RunRecord]) -> str:
    """The options that measure such runs again."""
    fast = part(records, BEST_CPSAT)[BEST_CPSAT.name]
    [made] = part(records, BEST_CPSAT, in_file=False)[BEST_CPSAT.name]
    words = made.identity.instance.split()[2:-1]  # generate shikaku OPTIONS --unique
    asked = dict(zip(words[::2], words[1::2], strict=True))
    defaults = {"--size": SIZE, "--seed": SEED}
    weak = part(records, *WEAK)[WEAK[0].name]
    given = [*((o, v) for o, v in asked.items() if defaults.get(o) != v),
             ("--first", len(fast) if len(fast) < len(data_set(PUZZLE, FAST_SET)) else None),
             ("--time-limit", fast[0].identity.time_limit),
             ("--weak-time-limit", weak[0].identity.time_limit)]
    shown = {"--time-limit": TIME_LIMIT, "--weak-time-limit": WEAK_TIME_LIMIT}
    return " ".join(f"{o} {v:g}" if isinstance(v, float) else f"{o} {v}" for o, v in given
                    if v is not None and v != shown.get(o))


def size(record: RunRecord) -> str:
    """The grid's size, ``ROWSxCOLUMNS``, of a run on a shipped instance."""
    instance = stored_instance(record)
    return f"{instance.rows}x{instance.columns}"


def fast_section(records: Sequence[RunRecord]) -> list[str]:
    """The best viewpoint on cpsat and cp over the fast set, against the targets."""
    fast = part(records, BEST_CPSAT, BEST_CP)

    def slowest(name: str) -> RunRecord:
        return max(fast[name], key=solve_s)

    def over(name: str) -> int:
        return sum(1 for r in fast[name] if solve_s(r) > TARGETS[name])

    def solved(name: str) -> int:
        return sum(map(correct, fast[name]))

    columns: list[Column[str]] = [
        text("combination", code),
        Column("solved+checked", lambda n: f"{solved(n)}/{len(fast[n])}"),
        Column("max solve (ms)", lambda n: ms(solve_s(slowest(n)))),
        text("slowest", lambda n: f"{slowest(n).identity.instance} ({size(slowest(n))})"),
        Column("mean solve (ms)", lambda n: ms(sum(map(solve_s, fast[n])) / len(fast[n]))),
        Column("max build (ms)", lambda n: ms(max(r.statistics.build_s or 0 for r in fast[n]))),
        Column("over target", over), text("target", lambda n: f"{ms(TARGETS[n])} ms")]
    return [*table(fast, columns), "",
            *(f"- `{n}`: every puzzle in at most {ms(TARGETS[n])} ms of solve time: "
              f"{target_verdict(over(n) == 0 and solved(n) == len(fast[n]))} (max "
              f"{ms(solve_s(slowest(n)))} ms)." for n in fast)]


RUN_COLUMNS: list[Column[RunRecord]] = [
    text("status", lambda r: r.status.value), text("checked", lambda r: yes_no(correct(r))),
    Column("solve (ms)", lambda r: ms(solve_s(r))),
    Column("build (ms)", lambda r: ms(r.statistics.build_s)),
    Column("wall (ms)", lambda r: ms(r.wall_s))]


def generated_section(records: Sequence[RunRecord]) -> list[str]:
    """The generated instance, solved with the best viewpoint on both backends."""
    made = [runs[0] for runs in part(records, BEST_CPSAT, BEST_CP, in_file=False).values()]
    best = min(made, key=solve_s)
    reached = correct(best) and solve_s(best) <= TARGET_GENERATED
    return [f"Generated with `puzzlelab {made[0].identity.instance}` (the first candidate "
            "a count to 2 finds unique, within the command's default budget of "
            f"{GENERATE_BUDGET_S:g} s; the generator's own time is the generator "
            "benchmark's).", "",
            *table(made, [text("combination", lambda r: code(Choice.of(r.identity).name)),
                          *RUN_COLUMNS]), "",
            f"- the generated instance in at most {TARGET_GENERATED:g} s of solve time with "
            f"the best viewpoint: {target_verdict(reached)} ({solve_s(best):.3f} s)."]


def pure_python_section(records: Sequence[RunRecord]) -> list[str]:
    """The pure-Python backend over the slow set, one row per instance."""
    runs = part(records, PURE_PYTHON)[PURE_PYTHON.name]
    solved = [r for r in runs if correct(r)]
    limit = runs[0].identity.time_limit or 0
    return [f"`{PURE_PYTHON.name}`, {limit:g} s per puzzle: {len(solved)}/{len(runs)} solved "
            "and checked" + (f", total solve {sum(map(solve_s, solved)):.2f} s, max "
                             f"{max(map(solve_s, solved)):.3f} s" if solved else "") + ".", "",
            *table(runs, [text("puzzle", lambda r: r.identity.instance), text("size", size),
                          text("status", lambda r: r.status.value),
                          Column("solve (ms)", lambda r: ms(solve_s(r))),
                          Column("backtracks", lambda r: figure(r.statistics.backtracks))])]


def timeouts_by_size(runs: Sequence[RunRecord]) -> dict[str, tuple[int, int]]:
    """For each grid size, smallest area first: (runs not solved, runs)."""
    counts: dict[str, tuple[int, int]] = {}
    for record in runs:
        missed, total = counts.get(size(record), (0, 0))
        counts[size(record)] = (missed + (not correct(record)), total + 1)
    return dict(sorted(counts.items(), key=lambda item: (_area(item[0]), item[0])))


def _area(grid: str) -> int:
    rows, _, columns = grid.partition("x")
    return int(rows) * int(columns)


def weak_section(records: Sequence[RunRecord]) -> list[str]:
    """On which sizes the weak viewpoint does not finish within its limit."""
    weak = {name: timeouts_by_size(runs) for name, runs in part(records, *WEAK).items()}
    sizes = list(next(iter(weak.values()), {}))
    limit = next(r.identity.time_limit for r in records if r.identity.viewpoint_name == "geometry")
    def cell(name: str, grid: str) -> str:
        return "{}/{}".format(*weak[name][grid])

    cells: list[Column[str]] = [text("combination", code), *(
        Column(grid, functools.partial(cell, grid=grid)) for grid in sizes)]
    return [f"{limit:g} s per puzzle; a cell gives the puzzles not solved in time / the "
            "puzzles of that size.", "", *table(weak, cells)]


def report(records: Sequence[RunRecord], command: str) -> str:
    """The whole report, from the runs alone."""
    sections: list[tuple[str, Callable[[Sequence[RunRecord]], list[str]]]] = [
        (f"Best viewpoint on every `{FAST_SET}` puzzle", fast_section),
        ("A generated unique instance", generated_section),
        (f"The pure-Python backend on `{SLOW_SET}`", pure_python_section),
        ("Where `geometry` with pairwise overlap times out ("
         + ", ".join(f"`{name}`" for name in WEAK_SETS) + ")", weak_section)]
    lines = ["# Shikaku benchmark: the best viewpoint's targets, and the weak one's limits", "",
             f"Written by `{command}`; every run made as a campaign's worker makes it, every "
             "solution checked by the puzzle's checker and against the file's known solution. "
             "Solve time is the search's wall clock (`solve_s`); build time (compiling the "
             "model into the solver) is beside it, and wall time is the whole run: the "
             "viewpoint's model, build, search, decoding and both checks."]
    for title, section in sections:
        lines += ["", f"## {title}", "", *section(records)]
    return "\n".join(lines) + "\n"


def wrong(records: Sequence[RunRecord]) -> list[str]:
    """Runs that failed, or whose solution the checker or the known solution rejects."""
    return [wrong_run(r) or f"{r.identity.instance}: not the known solution" for r in records
            if wrong_run(r) or (checked(r) and r.matches_known is False)]


STUDY = Study("experiments.studies.shikaku_benchmark", __doc__ or "", RECORDS, options,
              measure, remade_by, report, wrong, "shikaku-benchmark")
main = STUDY.main
"""Measure (or read back with ``--from``), print the report, write it with the rows."""


if __name__ == "__main__":
    run_main(main)
