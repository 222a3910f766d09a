"""``puzzlelab grade``: each instance of a file placed on its puzzle's ladder of reasoning
(:mod:`experiments.reasoning.grading`), from the weakest propagation that solves it
without search up to search itself."""

from __future__ import annotations

from argparse import ArgumentParser, BooleanOptionalAction, Namespace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from experiments.cli.app import command, note, positive_time_limit, say, styled
from experiments.cli.spinner import working

if TYPE_CHECKING:
    from experiments.reasoning import Grade
    from viewpoints.grades import Ladder

#: seconds each count and search of one instance may take, unless --time-limit says
DEFAULT_TIME_LIMIT = 60.0


def _grade_arguments(parser: ArgumentParser) -> None:
    from viewpoints import LADDERS

    parser.add_argument("puzzle", metavar="PUZZLE",
                        help="puzzle of the file, with its grades, weakest first: "
                             + "; ".join(f"{puzzle} ({', '.join(LADDERS.get(puzzle).grades)})"
                                         for puzzle in LADDERS.names()))
    parser.add_argument("file", metavar="FILE", type=Path, help="instance file")
    parser.add_argument("--instance", metavar="NAME", action="append", default=[],
                        help="grade only this instance (name or 1-based number), "
                             "repeatable; by default every instance of the file")
    parser.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT,
                        metavar="SECONDS",
                        help="seconds each count, search and explanation of one instance "
                             "may take")
    parser.add_argument("--explain", action=BooleanOptionalAction, default=True,
                        help="give each instance with one solution the difficulty of its "
                             "step-wise explanation (`puzzlelab explain`) within "
                             "--time-limit; --no-explain leaves it out (null): faster on "
                             "hard puzzles, whose explanation may take the whole limit")
    parser.add_argument("--json", action="store_true", dest="as_json",
                        help="print a JSON list of records (instance, grade, solutions, "
                             "branches, difficulty, note)")


def grade_rows() -> list[dict[str, str]]:
    """One row per grade of every puzzle, weakest first: what it means and what runs (a
    reference table, as :mod:`experiments.cli.reference` makes them)."""
    from viewpoints import LADDERS

    return [{"puzzle": puzzle, "grade": name, "what it means": meaning, "what runs": runs}
            for puzzle in LADDERS.names()
            for name, meaning, runs in LADDERS.get(puzzle).meanings()]


def generation_rows() -> list[dict[str, str]]:
    """One row per grade that ``generate --difficulty`` makes with options of its own:
    the options, why, and what to change when it is out of reach (a reference table)."""
    from viewpoints import LADDERS

    return [{"puzzle": puzzle, "grade": grade,
             "its generator options": " ".join(f"`--{name} {value}`"
                                               for name, value in made.options.items())
             or "the generator's own",
             "why": made.why, "when the budget runs out": made.otherwise or "–"}
            for puzzle in LADDERS.names()
            for grade, made in LADDERS.get(puzzle).generation.items()]


def generation_help() -> str:
    """The grades made with options of their own, for ``generate --help``."""
    lines = ["How generate --difficulty makes the grades that need it (given options win "
             "over a grade's):"]
    for row in generation_rows():
        lines.append(f"  {row['puzzle']} {row['grade']}: "
                     f"{row['its generator options'].replace('`', '')} ({row['why']}); "
                     f"out of reach: {row['when the budget runs out']}")
    return "\n".join(lines)


def ladders_help() -> str:
    """Every puzzle's grades, weakest first, with what each means and runs: the epilog
    of ``grade --help`` and ``generate --help``."""
    lines = ["Grades of each puzzle, weakest first (an instance gets the first that solves "
             "it without search):"]
    puzzle = ""
    for row in grade_rows():
        if row["puzzle"] != puzzle:
            puzzle = row["puzzle"]
            lines.append(f"\n{puzzle}:")
        lines.append(f"  {row['grade']}: {row['what it means']} [{row['what runs']}]")
    return "\n".join(lines)


@command("grade", _grade_arguments, epilog=ladders_help)
def grade(given: Namespace) -> int | None:
    """Grade each instance of a file by the weakest reasoning that solves it without
    search, on the puzzle's ladder (below); search, the last grade, with its branches on
    cp; beside it, the difficulty of its step-wise explanation (see `puzzlelab explain`).
    An instance with no solution or several says so instead."""
    import json

    from experiments.reasoning import grade as grade_instance
    from experiments.reasoning import ladder_of

    positive_time_limit(given.time_limit)
    ladder = ladder_of(given.puzzle)
    instances = picked_instances(ladder.puzzle, given.file, given.instance)
    grades = []
    for number, instance in enumerate(instances, 1):
        with working(f"grading {number} of {len(instances)}"):
            grades.append(grade_instance(ladder.puzzle, instance, given.time_limit,
                                         explained=given.explain))
    if given.as_json:
        say(json.dumps([found.to_json() for found in grades]))
    else:
        _print_grades(ladder, grades)
    if not any(found.grade for found in grades):
        note("error: no instance was graded (each needs exactly one solution)")
        return 1
    return None


def picked_instances(puzzle: str, file: Path, selectors: list[str]) -> list[Any]:
    """The instances of ``file`` that ``--instance`` picks (all of them by default), in
    the order asked; a bad file or name raises the puzzle's one-line error."""
    from puzzles import PUZZLES, pick_instance

    kind = PUZZLES.get(puzzle)
    every = kind.read(file)
    if not selectors:
        return every
    return [pick_instance(every, selector, file, kind.instance_name) for selector in selectors]


def _print_grades(ladder: Ladder, grades: list[Grade]) -> None:
    """A table: instance, grade (or what was found instead), the explanation's
    difficulty, branches for search."""
    backend = ladder.search.backend
    rows = [(found.instance, found.verdict,
             "" if found.difficulty is None else str(found.difficulty),
             "" if found.branches is None else str(found.branches)) for found in grades]
    headers = ("instance", "grade", "difficulty", f"branches on {backend}")
    widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(4)]
    say(styled(f"{headers[0]:<{widths[0]}}  {headers[1]:<{widths[1]}}  "
               f"{headers[2]:>{widths[2]}}  {headers[3]}", "bold"))
    for found, row in zip(grades, rows):
        grade_text = f"{row[1]:<{widths[1]}}"
        say(f"{row[0]:<{widths[0]}}  "
            f"{grade_text if found.grade else styled(grade_text, 'yellow')}  "
            f"{row[2]:>{widths[2]}}  {row[3]}".rstrip())
    say(styled("grades, weakest first: " + ", ".join(ladder.grades), "dim"))
