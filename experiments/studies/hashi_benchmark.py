"""Hashiwokakero benchmark: every connectivity strategy against its targets, side by side.

``python -m experiments.studies.hashi_benchmark [--output FOLDER]`` solves, one after
another in this process, each run as a campaign's worker runs it and every solution
checked by the puzzle's checker:

- the Coelho et al. 200-island set (360 puzzles, 24x24) with every ``connect``
  strategy, each on the viewpoint and solver where it works best (measured in
  ``results/hashi-connectivity``), 10 s per puzzle: solved within the limit, mean and
  max solve time (target: every strategy solves all 360);
- the best of those combinations (the lowest mean; target: under 20 ms) and ``cp``
  with its ``connected`` propagator, in Python, under its own impact-based search
  (target: a mean under 0.5 s);
- KU Leuven puzzle 6 (20x20, 140 islands) on every combination.

The combinations that time out on many puzzles (``after-search``, and the ``cp``
propagator under ``first-fail/min``) would take the better part of an hour over all
360; ``--slow-every K`` runs them on every K-th puzzle only, and the report says so.
The runs go to ``runs.csv`` (the campaign's columns); the report, with a line per
target saying whether it is met, is made from them alone (``--from runs.csv`` makes it
again). A wrong answer makes the exit status 1. It is a benchmark, not a test: its times
depend on the machine and on what else runs there.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Sequence

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
    choice_name,
    data_set,
    run,
    set_named,
    solve_s,
    wrong_runs,
)
from puzzlelab.wording import ordinal
from puzzles import PUZZLES

PUZZLE = "hashi"
MAIN_SET, BOARD_SET, BOARD = "coelho2019_200islands", "kul_aplai_2019", "puzzle_6"


def bridges(solver: str, connect: str, heuristic: str = "auto", improve: str = "none"
            ) -> Choice:
    """The ``bridges`` viewpoint with a connectivity strategy and improvements."""
    return Choice(solver, "bridges", heuristic, (("connect", connect), ("improve", improve)))


# Each strategy on the solvers where it finishes (results/hashi-connectivity): flow on
# cp and choco thrashes and is left out; propagator on cpsat is the flow decomposition.
CP_PROPAGATOR = bridges("cp", "propagator")
"""The ``connected`` propagator on cp (its impact-based search), whose mean is bounded."""
SLOW = (bridges("choco", "after-search", improve="all"),
        bridges("cp", "propagator", "first-fail/min"))
"""The combinations run on every K-th puzzle only under ``--slow-every K``."""
CHOICES = (
    bridges("cpsat", "lazy"),
    bridges("cpsat", "lazy", improve="all"),
    bridges("choco", "lazy"),
    bridges("choco", "lazy", improve="all"),
    bridges("choco", "propagator", improve="all"),
    bridges("cpsat", "propagator", improve="all"),
    bridges("cpsat", "flow", improve="all"),
    SLOW[0],
    CP_PROPAGATOR,
    SLOW[1],
)
TARGET_EACH, TARGET_BEST_MEAN, TARGET_CP_MEAN = 10.0, 0.02, 0.5
"""Every puzzle within 10 s, the best mean under 20 ms, cp's propagator's under 0.5 s."""


def options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's own options."""
    parser.add_argument("--first", type=int, default=None, metavar="N",
                        help="only the first N puzzles of the set (default: all)")
    parser.add_argument("--slow-every", type=int, default=1, metavar="K",
                        help="the slow combinations on every K-th puzzle only (default: all)")
    parser.add_argument("--set", default=MAIN_SET,
                        help=f"the data set of the strategies (default: {MAIN_SET})")
    parser.add_argument("--board-set", default=BOARD_SET)
    parser.add_argument("--board", default=BOARD,
                        help="the puzzle of --board-set every combination solves")
    parser.add_argument("--time-limit", type=float, default=TARGET_EACH)


def measure(arguments: argparse.Namespace) -> list[RunRecord]:
    """Every choice on the set's puzzles (a slow one on every K-th), then on the board:
    the board is the benchmark's last instance, after the set's."""
    if arguments.slow_every < 1:
        raise SystemExit("--slow-every must be at least 1")
    puzzles = data_set(PUZZLE, arguments.set, arguments.first)
    boards = [(file, instance) for file, instance in data_set(PUZZLE, arguments.board_set)
              if PUZZLES.get(PUZZLE).instance_name(instance) == arguments.board]
    if not boards:
        raise SystemExit(f"no puzzle {arguments.board!r} in {arguments.board_set}")
    records: list[RunRecord] = []
    for choice in CHOICES:
        every = arguments.slow_every if choice in SLOW else 1
        chosen = [*((place, *puzzles[place]) for place in range(0, len(puzzles), every)),
                  (len(puzzles), *boards[0])]
        progress(f"{choice.name} on {len(chosen) - 1} {arguments.set} puzzles and the board")
        run(choice.identity(puzzles[0][1], time_limit=arguments.time_limit), puzzles[0][1])
        records += [run(choice.identity(instance, time_limit=arguments.time_limit,
                                        instance_file=file, instance_position=place,
                                        position=len(records) + number), instance)
                    for number, (place, file, instance) in enumerate(chosen)]
    return records


def parts(records: Sequence[RunRecord]) -> tuple[list[RunRecord], list[RunRecord]]:
    """The runs on the set's puzzles, and those on the board (the last instance)."""
    board = max(r.identity.instance_position for r in records)
    return ([r for r in records if r.identity.instance_position < board],
            [r for r in records if r.identity.instance_position == board])


def sampled_every(main: Sequence[RunRecord]) -> int:
    """K of ``--slow-every K``: the step between the puzzles a sampled choice ran."""
    steps = [later - earlier for runs in by_choice(main).values()
             for earlier, later in zip(sorted(r.identity.instance_position for r in runs),
                                       sorted(r.identity.instance_position for r in runs)[1:])]
    return max(steps, default=1)


def remade_by(records: Sequence[RunRecord]) -> str:
    """The options that measure such runs again."""
    main, board = parts(records)
    set_name = set_named(PUZZLE, main[0].identity.instance_file)
    puzzles = board[0].identity.instance_position
    given = {"--set": (set_name, MAIN_SET),
             "--first": (puzzles, len(data_set(PUZZLE, set_name))),
             "--slow-every": (sampled_every(main), 1),
             "--board-set": (set_named(PUZZLE, board[0].identity.instance_file), BOARD_SET),
             "--board": (board[0].identity.instance_name, BOARD),
             "--time-limit": (main[0].identity.time_limit, TARGET_EACH)}
    return " ".join(f"{option} {value:g}" if isinstance(value, float) else f"{option} {value}"
                    for option, (value, default) in given.items() if value != default)


def strategy(runs: Sequence[RunRecord]) -> str:
    """The runs' connectivity strategy (their ``connect`` option)."""
    return str(runs[0].identity.options.get("connect", "propagator"))


def solved(runs: Sequence[RunRecord]) -> int:
    """Runs solved and checked within their limit of solve time."""
    return sum(1 for r in runs if checked(r) and solve_s(r) <= (r.identity.time_limit or 0))


def mean_solve(runs: Sequence[RunRecord]) -> float:
    """Mean solve time, a timeout counted at its limit (so a mean is never flattered)."""
    return sum(map(solve_s, runs)) / len(runs) if runs else float("nan")


def best_choice(main: dict[str, list[RunRecord]], puzzles: int) -> str:
    """The choice run on every puzzle with every one solved and the lowest mean."""
    complete = {name: runs for name, runs in main.items()
                if len(runs) == puzzles and solved(runs) == len(runs)}
    candidates = complete or main
    return min(candidates, key=lambda name: mean_solve(candidates[name]))


def total(runs: Sequence[RunRecord], name: str) -> str:
    """The sum of a statistic over the runs that report it."""
    found = [v for r in runs if (v := r.figure(name)) is not None]
    return figure(sum(found)) if found else figure(None)


def main_section(main: dict[str, list[RunRecord]], puzzles: int, every: int) -> list[str]:
    """Every strategy over the main set, against the targets."""
    def rounds(runs: list[RunRecord]) -> str:
        found = [int(v) for r in runs if (v := r.statistics.lazy_rounds) is not None]
        return f"{sum(found):,} ({max(found)})" if found else figure(None)

    def slowest(runs: list[RunRecord]) -> RunRecord:
        return max(runs, key=solve_s)

    columns: list[Column[str]] = [
        text("strategy", lambda name: strategy(main[name])), text("combination", code),
        Column("puzzles", lambda name: len(main[name])),
        Column("solved+checked in limit", lambda name: solved(main[name])),
        Column("mean solve (ms)", lambda name: ms(mean_solve(main[name]))),
        Column("max solve (ms)", lambda name: ms(solve_s(slowest(main[name])))),
        text("slowest", lambda name: slowest(main[name]).identity.instance),
        Column("rejected", lambda name: total(main[name], "rejected")),
        Column("lazy rounds (max)", lambda name: rounds(main[name]))]
    verdicts = []
    for name, runs in main.items():
        limit, count = runs[0].identity.time_limit or 0, solved(runs)
        sampled = "" if len(runs) == puzzles else f" (every {ordinal(every)} puzzle only)"
        verdicts.append(f"- `{name}` solves every puzzle within {limit:g} s{sampled}: "
                        f"{target_verdict(count == len(runs))} ({count}/{len(runs)}).")
    best = best_choice(main, puzzles)
    best_mean = mean_solve(main[best])
    verdicts.append(f"- the best combination, `{best}`, has a mean solve time under "
                    f"{ms(TARGET_BEST_MEAN)} ms: {target_verdict(best_mean < TARGET_BEST_MEAN)} "
                    f"({ms(best_mean)} ms).")
    if CP_PROPAGATOR.name in main:
        cp_mean = mean_solve(main[CP_PROPAGATOR.name])
        verdicts.append(f"- `{CP_PROPAGATOR.name}` (the `connected` propagator in Python) "
                        f"has a mean under {TARGET_CP_MEAN:g} s: "
                        f"{target_verdict(cp_mean < TARGET_CP_MEAN)}"
                        f" ({cp_mean:.3f} s, a timeout counted at its limit).")
    return [*table(main, columns), "", *verdicts]


def statistic(record: RunRecord, name: str) -> str:
    """A statistic of a run, as the tables write it."""
    return figure(record.figure(name))


def board_section(board: Sequence[RunRecord]) -> list[str]:
    """The board on every combination."""
    columns: list[Column[RunRecord]] = [
        text("strategy", lambda r: strategy([r])), text("combination", lambda r:
                                                        code(choice_name(r))),
        text("status", lambda r: r.status.value), text("checked", lambda r: yes_no(checked(r))),
        Column("solve (ms)", lambda r: ms(solve_s(r))), Column("wall (ms)", lambda r: ms(r.wall_s)),
        *(Column(name.replace("_", " "), functools.partial(statistic, name=name))
          for name in ("backtracks", "rejected", "lazy_rounds"))]
    return table(board, columns)


def report(records: Sequence[RunRecord], command: str) -> str:
    """The whole report, from the runs alone."""
    main_runs, board = parts(records)
    main, every = by_choice(main_runs), sampled_every(main_runs)
    puzzles = board[0].identity.instance_position
    set_name = set_named(PUZZLE, main_runs[0].identity.instance_file)
    board_set = set_named(PUZZLE, board[0].identity.instance_file)
    limit = main_runs[0].identity.time_limit or 0
    sampled = ("" if every == 1 else f" The slow combinations ran on every {ordinal(every)} "
               f"puzzle only (`--slow-every {every}`).")
    sections = [
        ["# Hashiwokakero benchmark: every connectivity strategy against its targets", "",
         f"Written by `{command}`; every run made as a campaign's worker makes it, every "
         "solution checked by the puzzle's checker. Solve time is the search's wall clock "
         "(`solve_s`, every search and check of the lazy rounds included); wall time is the "
         "whole run: the viewpoint's model, build, search, decoding and the check. A timeout "
         f"counts at its limit in a mean.{sampled}"],
        [f"## Every strategy on `{set_name}` ({puzzles} puzzles, {limit:g} s each)", "",
         *main_section(main, puzzles, every)],
        [f"## `{board[0].identity.instance_name}` of `{board_set}` on every combination", "",
         *board_section(board)],
    ]
    return "\n".join(line for section in sections for line in [*section, ""]).rstrip() + "\n"


STUDY = Study("experiments.studies.hashi_benchmark", __doc__ or "", RECORDS, options, measure,
              remade_by, report, wrong_runs, "hashi-benchmark")
main = STUDY.main
"""Measure (or read back with ``--from``), print the report, write it with the rows."""


if __name__ == "__main__":
    run_main(main)
