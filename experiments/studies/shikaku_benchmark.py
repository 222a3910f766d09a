"""Shikaku benchmark: the issue 34 targets, measured side by side in one run.

``python -m experiments.studies.shikaku_benchmark [--output FILE]`` solves, one after another
in this process and every solution checked by the puzzle's checker (and against the
file's known solution):

- every puzzlekit puzzle with the best viewpoint on ``cpsat`` (target: at most 50 ms of
  solve time each) and on ``cp`` (target: at most 1 s each);
- a 200x200 instance made by the puzzle's own generator with a fixed seed and kept only
  when a count to 2 finds one solution, with the best viewpoint on both (target: 2 s);
- the KU Leuven set on the pure-Python backend (``python-constraint``);
- the Carlsson and KU Leuven sets with the weak viewpoint (``geometry``, pairwise
  overlap) in input order and largest-room-first, to say on which sizes it times out.

It prints the figures as Markdown (and writes them to ``--output``), with a line per
target saying whether it is met. The best combinations were measured in
``results/shikaku-viewpoints``. A wrong answer makes the exit status 1. It is a
benchmark, not a test: its times depend on the machine and on what else runs there.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from experiments.campaign.solving import solve
from experiments.generate import generate
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
from solvers import Status

PUZZLE = "shikaku"
OUTPUT = Path(__file__).resolve().parents[2] / "results" / "shikaku-benchmark" / "README.md"


# The fastest combinations of results/shikaku-viewpoints (patterns on every backend).
BEST_CPSAT = Choice("patterns", "cpsat", "first-fail/min")
BEST_CP = Choice("patterns", "cp", "input/min")
PURE_PYTHON = Choice("patterns", "python-constraint", "first-fail/min")
WEAK = tuple(Choice("geometry", solver, heuristic, {"overlap": "pairwise"})
             for heuristic in ("input/min", "largest-first/max")
             for solver in ("cp", "cpsat", "choco"))
#: solve-time targets of issue 34, in seconds
TARGET_CPSAT, TARGET_CP, TARGET_GENERATED = 0.05, 1.0, 2.0


@dataclass(frozen=True)
class Settings:
    """What one benchmark run measures; the defaults are the issue's."""

    fast_set: str = "puzzlekit_shikaku"
    slow_set: str = "kul_aplai_2016"
    weak_sets: tuple[str, ...] = ("carlsson_sicstus_shikaku", "kul_aplai_2016")
    first: int | None = None  # only the first N instances of each set
    size: str = "200x200"
    max_area: int | None = None  # the generator's default
    seed: int = 1
    time_limit: float = 10.0
    weak_time_limit: float = 2.0
    count_time_limit: float = 20.0


@dataclass(frozen=True)
class Outcome:
    """One instance solved by one choice: status, checker's verdict and times."""

    instance: str
    size: str
    status: str
    correct: bool  # solved, accepted by the checker, equal to any known solution
    solve_s: float
    build_s: float
    wall_s: float
    backtracks: int | None


@dataclass
class Benchmark:
    """Every figure of one run."""

    settings: Settings
    fast: dict[str, list[Outcome]] = field(default_factory=dict)
    generated: dict[str, Outcome] = field(default_factory=dict)
    generated_rooms: int = 0
    candidates: int = 0
    generation_s: float = 0.0
    pure_python: list[Outcome] = field(default_factory=list)
    weak: dict[str, list[Outcome]] = field(default_factory=dict)

    def wrong(self) -> list[str]:
        """Runs that ended with a solution the checker or the known solution rejects."""
        everything = [*(o for runs in self.fast.values() for o in runs),
                      *self.generated.values(), *self.pure_python,
                      *(o for runs in self.weak.values() for o in runs)]
        return wrong_runs(everything)


def solve_one(choice: Choice, instance: Any, time_limit: float) -> Outcome:
    """Build, search, decode and check one instance."""
    started = time.perf_counter()
    run = solve(instance, viewpoint=choice.viewpoint, solver=choice.solver,
                heuristic=choice.heuristic, options=dict(choice.options), time_limit=time_limit)
    wall = time.perf_counter() - started
    statistics = run.result.statistics
    return Outcome(run.identity.instance, f"{instance.rows}x{instance.columns}",
                   run.result.status.value, run.correct and run.matches_known is not False,
                   statistics.solve_s or 0.0, statistics.build_s or 0.0, wall,
                   statistics.backtracks)


def generated_instance(settings: Settings) -> tuple[Any, int, float]:
    """The first unique instance the generator draws from ``settings.seed``, the
    candidates drawn and the seconds it took (drawing and counting included)."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        options: dict[str, object] = {"size": settings.size}
        if settings.max_area is not None:
            options["max-area"] = settings.max_area
        made = next(generate(PUZZLE, options, seed=settings.seed, unique=True,
                             output=Path(folder), time_limit=settings.count_time_limit))
    return made.instance, made.candidates, time.perf_counter() - started


def run_benchmark(settings: Settings) -> Benchmark:
    """Measure every part of the benchmark, in the order of the report."""
    figures = Benchmark(settings)
    fast_instances = instances_of(PUZZLE, settings.fast_set, settings.first)
    slow_instances = instances_of(PUZZLE, settings.slow_set, settings.first)
    weak_instances = [instance for set_name in settings.weak_sets
                      for instance in instances_of(PUZZLE, set_name, settings.first)]
    for choice in (BEST_CPSAT, BEST_CP):
        progress(f"{choice.name} on {len(fast_instances)} {settings.fast_set} puzzles")
        solve_one(choice, fast_instances[0], settings.time_limit)  # warm-up, not counted
        figures.fast[choice.name] = [solve_one(choice, instance, settings.time_limit)
                                     for instance in fast_instances]
    progress(f"generating a unique {settings.size} instance (seed {settings.seed})")
    instance, figures.candidates, figures.generation_s = generated_instance(settings)
    figures.generated_rooms = sum(1 for row in instance.clues for clue in row if clue)
    for choice in (BEST_CPSAT, BEST_CP):
        figures.generated[choice.name] = solve_one(choice, instance, settings.time_limit)
    progress(f"{PURE_PYTHON.name} on {len(slow_instances)} {settings.slow_set} puzzles")
    figures.pure_python = [solve_one(PURE_PYTHON, instance, settings.time_limit)
                           for instance in slow_instances]
    for choice in WEAK:
        progress(f"{choice.name} on {len(weak_instances)} puzzles")
        figures.weak[choice.name] = [solve_one(choice, instance, settings.weak_time_limit)
                                     for instance in weak_instances]
    return figures


def _solved(outcomes: Sequence[Outcome]) -> int:
    return sum(1 for o in outcomes if o.status == Status.SOLVED.value and o.correct)


def fast_section(figures: Benchmark) -> list[str]:
    """The best viewpoint on cpsat and cp over the fast set, against the targets."""
    lines = ["| combination | solved+checked | max solve (ms) | slowest | mean solve (ms) "
             "| max build (ms) | over target | target |", "|---|---:|---:|---|---:|---:|---:|---|"]
    verdicts = []
    for (name, outcomes), target in zip(figures.fast.items(), (TARGET_CPSAT, TARGET_CP)):
        slowest = max(outcomes, key=lambda o: o.solve_s)
        over = sum(1 for o in outcomes if o.solve_s > target)
        solved = _solved(outcomes)
        lines.append(f"| `{name}` | {solved}/{len(outcomes)} | {ms(slowest.solve_s)} | "
                     f"{slowest.instance} ({slowest.size}) | "
                     f"{ms(sum(o.solve_s for o in outcomes) / len(outcomes))} | "
                     f"{ms(max(o.build_s for o in outcomes))} | {over} | "
                     f"{ms(target)} ms |")
        verdicts.append(f"- `{name}`: every puzzle in at most {ms(target)} ms of solve time: "
                        f"{met(over == 0 and solved == len(outcomes))} (max "
                        f"{ms(slowest.solve_s)} ms).")
    return [*lines, "", *verdicts]


def generated_section(figures: Benchmark) -> list[str]:
    """The generated instance, solved with the best viewpoint on both backends."""
    settings = figures.settings
    max_area = "" if settings.max_area is None else f" --max-area {settings.max_area}"
    lines = [f"Generated with `generate shikaku --size {settings.size}{max_area} --seed "
             f"{settings.seed} --unique`: {figures.generated_rooms} "
             f"rooms; {figures.candidates} candidate(s) drawn, kept when a count to 2 "
             f"({settings.count_time_limit:g} s limit) finds one solution; "
             f"{figures.generation_s:.1f} s in all.",
             "", "| combination | status | checked | solve (ms) | build (ms) | wall (ms) |",
             "|---|---|---|---:|---:|---:|"]
    for name, outcome in figures.generated.items():
        lines.append(f"| `{name}` | {outcome.status} | {'yes' if outcome.correct else 'no'} | "
                     f"{ms(outcome.solve_s)} | {ms(outcome.build_s)} | "
                     f"{ms(outcome.wall_s)} |")
    best = min(figures.generated.values(), key=lambda o: o.solve_s)
    reached = best.correct and best.solve_s <= TARGET_GENERATED
    return [*lines, "", f"- the {settings.size} instance in at most {TARGET_GENERATED:g} s "
                        f"of solve time with the best viewpoint: {met(reached)} "
                        f"({best.solve_s:.3f} s)."]


def pure_python_section(figures: Benchmark) -> list[str]:
    """The pure-Python backend over the slow set, one row per instance."""
    outcomes = figures.pure_python
    solved = [o for o in outcomes if o.status == Status.SOLVED.value and o.correct]
    lines = [f"`{PURE_PYTHON.name}`, {figures.settings.time_limit:g} s per puzzle: "
             f"{len(solved)}/{len(outcomes)} solved and checked"
             + (f", total solve {sum(o.solve_s for o in solved):.2f} s, max "
                f"{max(o.solve_s for o in solved):.3f} s" if solved else "") + ".",
             "", "| puzzle | size | status | solve (ms) | backtracks |", "|---|---|---|---:|---:|"]
    lines += [f"| {o.instance} | {o.size} | {o.status} | {ms(o.solve_s)} | "
              f"{'–' if o.backtracks is None else f'{o.backtracks:,}'} |" for o in outcomes]
    return lines


def timeouts_by_size(outcomes: Sequence[Outcome]) -> dict[str, tuple[int, int]]:
    """For each grid size, smallest area first: (runs not solved, runs)."""
    counts: dict[str, tuple[int, int]] = {}
    for outcome in outcomes:
        missed, runs = counts.get(outcome.size, (0, 0))
        counts[outcome.size] = (missed + (outcome.status != Status.SOLVED.value), runs + 1)
    return dict(sorted(counts.items(), key=lambda item: _area(item[0])))


def _area(size: str) -> tuple[int, str]:
    rows, _, columns = size.partition("x")
    return int(rows) * int(columns), size


def weak_section(figures: Benchmark) -> list[str]:
    """On which sizes the weak viewpoint does not finish within its limit."""
    lines = [f"{figures.settings.weak_time_limit:g} s per puzzle; a cell gives the puzzles "
             f"not solved in time / the puzzles of that size.", ""]
    sizes = list(timeouts_by_size(next(iter(figures.weak.values()), [])))
    lines += ["| combination | " + " | ".join(sizes) + " |",
              "|---|" + "---:|" * len(sizes)]
    for name, outcomes in figures.weak.items():
        counts = timeouts_by_size(outcomes)
        lines.append(f"| `{name}` | " + " | ".join(
            f"{counts[size][0]}/{counts[size][1]}" for size in sizes) + " |")
    return lines


def markdown(figures: Benchmark) -> str:
    """The whole report."""
    settings = figures.settings
    sections = [
        ["# Shikaku benchmark (issue 34)", "",
         "Written by `python -m experiments.studies.shikaku_benchmark`; every solution checked by "
         "the puzzle's checker and against the file's known solution. Solve time is the "
         "search's wall clock (`solve_s`); build time (compiling the model into the solver) "
         "is beside it, and wall time is the whole solve: the viewpoint's model, build, "
         "search, decoding and both checks."],
        [f"## Best viewpoint on every `{settings.fast_set}` puzzle", "", *fast_section(figures)],
        [f"## A generated {settings.size} unique instance", "", *generated_section(figures)],
        [f"## The pure-Python backend on `{settings.slow_set}`", "",
         *pure_python_section(figures)],
        [f"## Where `geometry` with pairwise overlap times out "
         f"({', '.join(f'`{name}`' for name in settings.weak_sets)})", "",
         *weak_section(figures)],
    ]
    return "\n".join(line for section in sections for line in [*section, ""]).rstrip() + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, measure, print and write the report; 1 on a wrong answer."""
    defaults = Settings()
    parser = argparse.ArgumentParser(prog="python -m experiments.studies.shikaku_benchmark",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=None, metavar="N",
                        help="only the first N puzzles of each set (default: all)")
    parser.add_argument("--size", default=defaults.size, help="generated grid, ROWSxCOLUMNS")
    parser.add_argument("--max-area", type=int, default=defaults.max_area,
                        help="the generator's largest room (default: its own default)")
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--time-limit", type=float, default=defaults.time_limit)
    parser.add_argument("--weak-time-limit", type=float, default=defaults.weak_time_limit)
    parser.add_argument("--output", type=Path, default=None,
                        help=f"also write the report here (e.g. {OUTPUT})")
    options = parser.parse_args(argv)
    settings = Settings(first=options.first, size=options.size, max_area=options.max_area,
                        seed=options.seed, time_limit=options.time_limit,
                        weak_time_limit=options.weak_time_limit)
    figures = run_benchmark(settings)
    return publish(markdown(figures), options.output, figures.wrong())


if __name__ == "__main__":
    run_main(main)
