"""``puzzlelab list`` and ``puzzlelab generate``: what there is, and new instances of it."""

from __future__ import annotations

import os
import sys
from argparse import ArgumentParser, BooleanOptionalAction, Namespace
from collections.abc import Callable
from pathlib import Path

from experiments.cli.app import command, parse_options, say, styled
from experiments.cli.spinner import working
from puzzlelab.wording import counted


def _generate_arguments(parser: ArgumentParser) -> None:
    from experiments.generate import FILE_FORMATS, NATIVE_FORMAT
    from puzzles import PUZZLES  # names only: no puzzle module is imported
    from puzzles.kind import GAME_ID_FORMAT

    parser.add_argument("puzzle", metavar="PUZZLE",
                        help="puzzle to generate: " + ", ".join(PUZZLES.names()))
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                        help="generator option NAME=VALUE, repeatable; or --NAME VALUE after "
                             "the puzzle (see below)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random instances")
    parser.add_argument("--count", type=int, default=1, help="instances to write")
    parser.add_argument("--unique", action=BooleanOptionalAction, default=False,
                        help="keep only instances with exactly one solution (checked by a "
                             "solver)")
    parser.add_argument("--output", type=Path, default=Path("."), metavar="FOLDER",
                        help="folder to write into")
    parser.add_argument("--time-limit", type=float, default=60.0, metavar="SECONDS",
                        help="budget of the whole command (default 60): when it is spent, "
                             "the instances written so far stay and the command stops with "
                             "one line saying what it reached, exit status 1")
    parser.add_argument("--format", choices=FILE_FORMATS, default=NATIVE_FORMAT,
                        help=f"{NATIVE_FORMAT}: the puzzle's own file format, with the "
                             f"solution the instance was made from; {GAME_ID_FORMAT}: its game "
                             f"ID of Simon Tatham's Portable Puzzle Collection, a .txt of one "
                             f"line")
    parser.add_argument("--difficulty", metavar="GRADE",
                        help="keep only unique instances of this grade (implies --unique): "
                             + _grades()
                             + " (weakest first; `puzzlelab grade --help` says what each "
                               "means)")
    parser.add_argument("--explained-difficulty", metavar="LOW-HIGH",
                        help="keep only unique instances whose step-wise explanation has a "
                             "difficulty (its hardest step's cost, as `puzzlelab explain` "
                             "gives it) from LOW to HIGH, or of one value (implies --unique; "
                             "combines with --difficulty)")


def _grades() -> str:
    """Each puzzle's grades, weakest first, in one line: ``sudoku: weak, strong, ...``."""
    from viewpoints import LADDERS

    return "; ".join(f"{puzzle}: {', '.join(LADDERS.get(puzzle).grades)}"
                     for puzzle in LADDERS.names())


def _generator_options() -> str:
    from experiments.cli.grading import generation_help, ladders_help
    from experiments.generate import options_help

    return ("Generator options of each puzzle:\n\n" + options_help() + "\n\n"
            + ladders_help() + "\n\n" + generation_help())


PLAIN_EVERY_S = 10.0
"""Seconds between progress lines on a standard error that is not a terminal."""


@command("generate", _generate_arguments, epilog=_generator_options, passes_unknown=True)
def generate(given: Namespace) -> int | None:
    """Write random instances made by the puzzle's own generator (files named after the
    puzzle, its options, the seed and the number), within the --time-limit budget; with
    --difficulty only those of one grade (see `puzzlelab grade`), with
    --explained-difficulty only those whose explanation's difficulty is in a range (see
    `puzzlelab explain`), with --format tatham as game IDs."""
    from experiments.generate import BudgetSpent, named_options
    from experiments.generate import generate as generate_instances
    from experiments.reasoning.difficulty import explained_range

    describe: Callable[[str], None]  # bound by each instance's spinner below, before use

    def drawn(index: int, candidates: int) -> None:
        describe(f"generating {index} of {count}: checking candidate {candidates}")

    bounds = (None if given.explained_difficulty is None
              else explained_range(given.explained_difficulty))
    count = given.count
    unique = given.unique or given.difficulty is not None or bounds is not None
    options = parse_options([*given.option, *named_options(given.extra)])
    made = generate_instances(given.puzzle, options, given.seed, count, unique, given.output,
                              time_limit=given.time_limit, on_candidate=drawn,
                              difficulty=given.difficulty, file_format=given.format,
                              explained_difficulty=bounds)
    for index in range(1, count + 1):
        # one spinner per instance (plain lines off a terminal), closed before its line
        # goes to stdout
        with working(f"generating {index} of {count}", shown=unique,
                     plain_every=PLAIN_EVERY_S) as describe:
            try:
                written = next(made)
            except BudgetSpent as spent:
                stopped = str(spent)
            else:
                stopped = ""
        if stopped:
            print(f"error: {stopped}", file=sys.stderr)
            return 1
        grade = f", grade {given.difficulty}" if given.difficulty is not None else ""
        grade += (f", explained difficulty {bounds[0]}-{bounds[1]}" if bounds is not None
                  else "")
        tried = (f" (unique{grade}; {counted(written.candidates, 'candidate')} drawn)"
                 if unique else "")
        say(f"wrote {written.path}{tried}")
    return None


@command("list", lambda parser: None)
def list_registry(given: Namespace) -> None:
    """Show every puzzle, viewpoint (with options), solver and heuristic."""
    from experiments.cli.reference_tables import backend_rows, statistic_rows
    from puzzles import PUZZLES
    from solvers.heuristics import heuristic_names
    from viewpoints import DEFAULTS, viewpoints_of

    for puzzle in PUZZLES.names():
        defaults = DEFAULTS.get(puzzle) if puzzle in DEFAULTS else None
        say(styled(puzzle, "bold") + (f"  (default: {defaults.describe()})" if defaults else ""))
        for viewpoint in viewpoints_of(puzzle):
            say(f"  viewpoint {styled(viewpoint.name, 'cyan')}: "
                f"{viewpoint.summary.replace('``', '`')}")  # rST to plain
            for name, spec in viewpoint.options.items():
                say(f"      option {name}: {spec.describe()}")
        kind = PUZZLES.get(puzzle)
        for name, spec in kind.generator_options.items():
            say(f"  generate --{name}: {spec.describe()}")
        data = ", ".join(f"{data_set.name} ({counted(len(data_set.files), 'file')})"
                         for data_set in kind.data_sets())
        say(f"  data in {os.path.relpath(kind.data_folder())}: {data}")
    _print_rows("solvers", backend_rows())
    say(styled("heuristics", "bold") + " (VARORDER/VALUEORDER; a bare VARORDER means /min)")
    say("  " + ", ".join(heuristic_names()))
    say("  plus static orders a viewpoint supplies; append +probe (probing at the root) or "
        "+probe-all (at every node) where the solver has it (above)")
    say("  append +symmetric to look first among the solutions the instance's symmetries "
        "leave unchanged (one solution; not with --all)")
    _print_rows("statistics", statistic_rows())


def _print_rows(title: str, rows: list[dict[str, str]]) -> None:
    """A reference table as a list: the first column names each entry."""
    say(styled(title, "bold"))
    for row in rows:
        name, *rest = row.items()
        say(f"  {styled(name[1], 'cyan')}")
        for header, value in rest:
            say(f"      {header}: {value}")
