"""``puzzlelab study NAME [ARGUMENTS...]``: a benchmark or study, by its registered name."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from experiments.cli.app import app, console
from experiments.studies import STUDIES


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True,
                               "help_option_names": []})
def study(
    context: typer.Context,
    name: Annotated[str | None, typer.Argument(
        help="the study to run; none (or --help) lists them")] = None,
) -> None:
    """Run a benchmark or study with its own arguments (`puzzlelab study NAME --help`
    shows them); with no name, list them."""
    if name is None or name in ("--help", "-h"):
        console.print("[bold]studies[/] (puzzlelab study NAME --help for each one's "
                      "arguments)")
        for known in STUDIES.names():
            console.print(f"  [cyan]{known}[/]: {escape(STUDIES.get(known).summary)}",
                          highlight=False)
        return
    code = STUDIES.get(name).run(context.args)
    if code:
        raise typer.Exit(code)
