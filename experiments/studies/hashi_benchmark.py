"""Hashiwokakero benchmark: the issue 35 targets, measured side by side in one run.

``python -m experiments.studies.hashi_benchmark [--output FILE]`` solves, one after another in
this process and every solution checked by the puzzle's checker:

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
It prints the figures as Markdown (and writes them to ``--output``), with a line per
target saying whether it is met. A wrong answer makes the exit status 1. It is a
benchmark, not a test: its times depend on the machine and on what else runs there.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from experiments.campaign.solving import solve
from experiments.studies.kit import (
    Choice,
    instances_of,
    met,
    ms,
    progress,
    publish,
    run_main,
    wrong_runs,
)
from puzzlelab.wording import ordinal
from puzzles import PUZZLES
from solvers import Status

PUZZLE = "hashi"
OUTPUT = Path(__file__).resolve().parents[2] / "results" / "hashi-benchmark" / "README.md"


def strategy(choice: Choice) -> str:
    """The choice's connectivity strategy (its ``connect`` option)."""
    return choice.options.get("connect", "propagator")


def _bridges(connect: str, solver: str, heuristic: str = "auto", improve: str = "none",
             slow: bool = False) -> Choice:
    return Choice("bridges", solver, heuristic, {"connect": connect, "improve": improve}, slow)


# Each strategy on the solvers where it finishes (results/hashi-connectivity): flow on
# cp and choco thrashes and is left out; propagator on cpsat is the flow decomposition.
CHOICES = (
    _bridges("lazy", "cpsat"),  # the project's default combination
    _bridges("lazy", "cpsat", improve="all"),
    _bridges("lazy", "choco"),
    _bridges("lazy", "choco", improve="all"),
    _bridges("propagator", "choco", improve="all"),
    _bridges("propagator", "cpsat", improve="all"),
    _bridges("flow", "cpsat", improve="all"),
    _bridges("after-search", "choco", improve="all", slow=True),
    _bridges("propagator", "cp"),
    _bridges("propagator", "cp", "first-fail/min", slow=True),
)
#: the ``connected`` propagator on cp (its impact-based search), whose mean issue 43 bounds
CP_PROPAGATOR = CHOICES[-2]
#: targets of issue 35, in seconds
TARGET_EACH, TARGET_BEST_MEAN, TARGET_CP_MEAN = 10.0, 0.02, 0.5


@dataclass(frozen=True)
class Settings:
    """What one benchmark run measures; the defaults are the issue's."""

    main_set: str = "coelho2019_200islands"
    board_set: str = "kul_aplai_2019"
    board: str = "puzzle_6"
    first: int | None = None  # only the first N puzzles of the main set
    slow_every: int = 1  # the slow choices on every K-th puzzle only
    time_limit: float = TARGET_EACH
    choices: tuple[Choice, ...] = CHOICES


@dataclass(frozen=True)
class Outcome:
    """One instance solved by one choice: status, checker's verdict, times and counts."""

    instance: str
    status: str
    correct: bool  # solved and accepted by the checker
    solve_s: float
    wall_s: float
    backtracks: int | None
    rejected: int | None
    lazy_rounds: int | None


@dataclass
class Benchmark:
    """Every figure of one run."""

    settings: Settings
    main: dict[str, list[Outcome]] = field(default_factory=dict)
    board: dict[str, Outcome] = field(default_factory=dict)
    puzzles: int = 0

    def wrong(self) -> list[str]:
        """Runs that ended in an error or with a solution the checker rejects."""
        everything = [*(o for runs in self.main.values() for o in runs), *self.board.values()]
        return wrong_runs(everything)


def solve_one(choice: Choice, instance: Any, time_limit: float) -> Outcome:
    """Build, search, decode and check one instance."""
    started = time.perf_counter()
    run = solve(instance, viewpoint=choice.viewpoint, solver=choice.solver,
                heuristic=choice.heuristic, options=dict(choice.options), time_limit=time_limit)
    wall = time.perf_counter() - started
    statistics = run.result.statistics
    return Outcome(run.identity.instance, run.result.status.value, run.correct,
                   statistics.solve_s or 0.0,
                   wall, statistics.backtracks, statistics.rejected, statistics.lazy_rounds)


def run_benchmark(settings: Settings) -> Benchmark:
    """Measure every part of the benchmark, in the order of the report."""
    figures = Benchmark(settings)
    kind = PUZZLES.get(PUZZLE)
    puzzles = instances_of(PUZZLE, settings.main_set)[:settings.first]
    figures.puzzles = len(puzzles)
    boards = [i for i in instances_of(PUZZLE, settings.board_set)
              if kind.instance_name(i) == settings.board]
    if not boards:
        raise SystemExit(f"no puzzle {settings.board!r} in {settings.board_set}")
    for choice in settings.choices:
        chosen = puzzles[::settings.slow_every] if choice.slow else puzzles
        progress(f"{choice.name} on {len(chosen)} {settings.main_set} puzzles")
        solve_one(choice, puzzles[0], settings.time_limit)  # warm-up, not counted
        figures.main[choice.name] = [solve_one(choice, instance, settings.time_limit)
                                     for instance in chosen]
        figures.board[choice.name] = solve_one(choice, boards[0], settings.time_limit)
    return figures


def solved(outcomes: Sequence[Outcome], limit: float) -> int:
    """Runs solved, checked, within ``limit`` seconds of solve time."""
    return sum(1 for o in outcomes
               if o.status == Status.SOLVED.value and o.correct and o.solve_s <= limit)


def mean_solve(outcomes: Sequence[Outcome]) -> float:
    """Mean solve time, a timeout counted at its limit (so a mean is never flattered)."""
    return sum(o.solve_s for o in outcomes) / len(outcomes) if outcomes else float("nan")


def _total(outcomes: Sequence[Outcome], name: str) -> str:
    values = [getattr(o, name) for o in outcomes if getattr(o, name) is not None]
    return f"{sum(values):,}" if values else "–"


def best_choice(figures: Benchmark) -> str:
    """The choice run on every puzzle with every one solved and the lowest mean."""
    complete = {name: runs for name, runs in figures.main.items()
                if len(runs) == figures.puzzles
                and solved(runs, figures.settings.time_limit) == len(runs)}
    candidates = complete or figures.main
    return min(candidates, key=lambda name: mean_solve(candidates[name]))


def main_section(figures: Benchmark) -> list[str]:
    """Every strategy over the main set, against the targets."""
    limit = figures.settings.time_limit
    lines = ["| strategy | combination | puzzles | solved+checked in limit | mean solve (ms) "
             "| max solve (ms) | slowest | rejected | lazy rounds (max) |",
             "|---|---|---:|---:|---:|---:|---|---:|---:|"]
    verdicts = []
    for choice in figures.settings.choices:
        outcomes = figures.main[choice.name]
        slowest = max(outcomes, key=lambda o: o.solve_s)
        count = solved(outcomes, limit)
        rounds = [o.lazy_rounds for o in outcomes if o.lazy_rounds is not None]
        lines.append(f"| {strategy(choice)} | `{choice.name}` | {len(outcomes)} | {count} | "
                     f"{ms(mean_solve(outcomes))} | {ms(slowest.solve_s)} | "
                     f"{slowest.instance} | {_total(outcomes, 'rejected')} | "
                     + (f"{sum(rounds):,} ({max(rounds)})" if rounds else "–") + " |")
        sampled = "" if len(outcomes) == figures.puzzles else \
            f" (every {ordinal(figures.settings.slow_every)} puzzle only)"
        verdicts.append(f"- `{choice.name}` solves every puzzle within {limit:g} s{sampled}: "
                        f"{met(count == len(outcomes))} ({count}/{len(outcomes)}).")
    best = best_choice(figures)
    best_mean = mean_solve(figures.main[best])
    cp_mean = mean_solve(figures.main.get(CP_PROPAGATOR.name, []))
    verdicts.append(f"- the best combination, `{best}`, has a mean solve time under "
                    f"{ms(TARGET_BEST_MEAN)} ms: {met(best_mean < TARGET_BEST_MEAN)} "
                    f"({ms(best_mean)} ms).")
    if CP_PROPAGATOR.name in figures.main:
        verdicts.append(f"- `{CP_PROPAGATOR.name}` (the `connected` propagator in "
                        f"Python) has a mean under {TARGET_CP_MEAN:g} s: "
                        f"{met(cp_mean < TARGET_CP_MEAN)} "
                        f"({cp_mean:.3f} s, a timeout counted at {limit:g} s).")
    return [*lines, "", *verdicts]


def board_section(figures: Benchmark) -> list[str]:
    """The KU Leuven board on every combination."""
    lines = ["| strategy | combination | status | checked | solve (ms) | wall (ms) | "
             "backtracks | rejected | lazy rounds |", "|---|---|---|---|---:|---:|---:|---:|---:|"]
    for choice in figures.settings.choices:
        o = figures.board[choice.name]
        lines.append(f"| {strategy(choice)} | `{choice.name}` | {o.status} | "
                     f"{'yes' if o.correct else 'no'} | {ms(o.solve_s)} | {ms(o.wall_s)} | "
                     + " | ".join("–" if v is None else f"{v:,}"
                                  for v in (o.backtracks, o.rejected, o.lazy_rounds)) + " |")
    return lines


def markdown(figures: Benchmark) -> str:
    """The whole report."""
    settings = figures.settings
    sampled = ("" if settings.slow_every == 1 else
               f" The slow combinations ran on every {ordinal(settings.slow_every)} puzzle only "
               f"(`--slow-every {settings.slow_every}`).")
    sections = [
        ["# Hashiwokakero benchmark (issue 35)", "",
         "Written by `python -m experiments.studies.hashi_benchmark`; every solution checked "
         "by the puzzle's checker. Solve time is the search's wall clock (`solve_s`, every search "
         "and check of the lazy rounds included); wall time is the whole solve: the "
         "viewpoint's model, build, search, decoding and the check. A timeout counts at "
         f"its limit in a mean.{sampled}"],
        [f"## Every strategy on `{settings.main_set}` ({figures.puzzles} puzzles, "
         f"{settings.time_limit:g} s each)", "", *main_section(figures)],
        [f"## `{settings.board}` of `{settings.board_set}` on every combination", "",
         *board_section(figures)],
    ]
    return "\n".join(line for section in sections for line in [*section, ""]).rstrip() + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, measure, print and write the report; 1 on a wrong answer."""
    defaults = Settings()
    parser = argparse.ArgumentParser(prog="python -m experiments.studies.hashi_benchmark",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=None, metavar="N",
                        help="only the first N puzzles of the set (default: all)")
    parser.add_argument("--slow-every", type=int, default=defaults.slow_every, metavar="K",
                        help="the slow combinations on every K-th puzzle only (default: all)")
    parser.add_argument("--set", default=defaults.main_set, help="the data set of the "
                        f"strategies (default: {defaults.main_set})")
    parser.add_argument("--board-set", default=defaults.board_set)
    parser.add_argument("--board", default=defaults.board,
                        help="the puzzle of --board-set every combination solves")
    parser.add_argument("--time-limit", type=float, default=defaults.time_limit)
    parser.add_argument("--output", type=Path, default=None,
                        help=f"also write the report here (e.g. {OUTPUT})")
    options = parser.parse_args(argv)
    if options.slow_every < 1:
        parser.error("--slow-every must be at least 1")
    settings = Settings(main_set=options.set, board_set=options.board_set,
                        board=options.board, first=options.first,
                        slow_every=options.slow_every, time_limit=options.time_limit)
    figures = run_benchmark(settings)
    return publish(markdown(figures), options.output, figures.wrong())


if __name__ == "__main__":
    run_main(main)
