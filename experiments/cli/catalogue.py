"""``puzzlelab list`` and ``puzzlelab generate``: what there is, and new instances of it."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from experiments.cli.app import app, console, parse_options, working
from experiments.cli.reference import backend_rows, statistic_rows
from experiments.generate import generate as generate_instances
from experiments.generate import named_options, options_help
from puzzlelab.wording import counted
from puzzles import PUZZLES
from solvers import heuristic_names, load_backends
from viewpoints import DEFAULTS, viewpoints_of


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
             epilog="Generator options of each puzzle:\n\n" + options_help())
def generate(
    context: typer.Context,
    puzzle: Annotated[str, typer.Argument(help="puzzle to generate: "
                                               + ", ".join(PUZZLES.names()))],
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="generator option NAME=VALUE, repeatable; or --NAME VALUE "
                               "after the puzzle (see below)")] = None,
    seed: Annotated[int, typer.Option(help="seed of the random instances")] = 0,
    count: Annotated[int, typer.Option(help="instances to write")] = 1,
    unique: Annotated[bool, typer.Option(help="keep only instances with exactly one "
                                              "solution (checked by a solver)")] = False,
    output: Annotated[Path, typer.Option(help="folder to write into")] = Path("."),
) -> None:
    """Write random instances made by the puzzle's own generator (files named after the
    puzzle, its options, the seed and the number)."""
    describe: Callable[[str], None]  # bound by each instance's spinner below, before use

    def drawn(index: int, candidates: int) -> None:
        describe(f"generating {index} of {count}: checking candidate {candidates}")

    given = parse_options([*(option or []), *named_options(context.args)])
    made = generate_instances(puzzle, given, seed, count, unique, output, on_candidate=drawn)
    for index in range(1, count + 1):
        # one spinner per instance, closed before its line goes to stdout
        with working(f"generating {index} of {count}", shown=unique) as describe:
            written = next(made)
        tried = f" (unique; {counted(written.candidates, 'candidate')} drawn)" if unique else ""
        console.print(f"wrote {written.path}{tried}", highlight=False)


@app.command(name="list")
def list_registry() -> None:
    """Show every puzzle, viewpoint (with options), solver and heuristic."""
    load_backends()
    for puzzle in PUZZLES.names():
        defaults = DEFAULTS.get(puzzle) if puzzle in DEFAULTS else None
        console.print(f"[bold]{puzzle}[/]"
                      + (f"  (default: {escape(defaults.describe())})" if defaults else ""))
        for viewpoint in viewpoints_of(puzzle):
            console.print(f"  viewpoint [cyan]{viewpoint.name}[/]: "
                          f"{escape(viewpoint.summary.replace('``', '`'))}")  # rST to plain
            for name, spec in viewpoint.options.items():
                console.print(f"      option {name}: {escape(spec.describe())}",
                              highlight=False)
        kind = PUZZLES.get(puzzle)
        for name, spec in kind.generator_options.items():
            console.print(f"  generate --{name}: {escape(spec.describe())}", highlight=False)
        data = ", ".join(f"{data_set.name} ({counted(len(data_set.files), 'file')})"
                         for data_set in kind.data_sets())
        console.print(f"  data in {os.path.relpath(kind.data_folder())}: {escape(data)}",
                      highlight=False)
    _print_rows("solvers", backend_rows())
    console.print("[bold]heuristics[/] (VARORDER/VALUEORDER; a bare VARORDER means /min)")
    console.print("  " + ", ".join(heuristic_names()))
    console.print("  plus static orders a viewpoint supplies; append +probe (probing at the "
                  "root) or +probe-all (at every node) where the solver has it (above)")
    console.print("  append +symmetric to look first among the solutions the instance's "
                  "symmetries leave unchanged (one solution; not with --all)")
    _print_rows("statistics", statistic_rows())


def _print_rows(title: str, rows: list[dict[str, str]]) -> None:
    """A reference table as a list: the first column names each entry."""
    console.print(f"[bold]{title}[/]")
    for row in rows:
        name, *rest = row.items()
        console.print(f"  [cyan]{escape(name[1])}[/]")
        for header, value in rest:
            console.print(f"      {header}: {escape(value)}", highlight=False)
