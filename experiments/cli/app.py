"""The ``puzzlelab`` command line's application, its consoles and the helpers every
command shares. Each group of commands lives in a module of its own, which adds its
commands to :data:`app`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

import puzzlelab
from puzzlelab.errors import OptionError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="PuzzleLab: constraint models of logic puzzles, their solvers and "
                       "experiments.")
console = Console(soft_wrap=True)  # paths and messages stay on one line
status_console = Console(stderr=True, soft_wrap=True)  # stdout stays clean for --json, pipes
INTERRUPTED = 130  # the exit status of a command stopped by Ctrl-C (128 + SIGINT)


def _show_version(asked: bool) -> None:
    if asked:
        console.print(f"puzzlelab {puzzlelab.__version__}", highlight=False)
        raise typer.Exit()


@app.callback()
def _options(version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=_show_version,
        help="print the version and stop")] = False) -> None:
    """PuzzleLab: constraint models of logic puzzles, their solvers and experiments."""


def parse_options(pairs: list[str]) -> dict[str, str]:
    """``["alldiff=strong", ...]`` as a dict; a pair without ``=``, or a name given twice
    (which value was meant?), is an ``OptionError``."""
    options: dict[str, str] = {}
    for pair in pairs:
        name, equals, value = pair.partition("=")
        name, value = name.strip(), value.strip()
        if not equals or not name:
            raise OptionError(f"option {pair!r} must be written NAME=VALUE")
        if name in options:
            raise OptionError(f"option {name!r} is given twice ({name}={options[name]}, "
                              f"{name}={value}): give it once")
        options[name] = value
    return options


def listed(text: str) -> list[str]:
    """``"a, b"`` as ``["a", "b"]``: a comma-separated option's items."""
    return [item.strip() for item in text.split(",") if item.strip()]


@contextmanager
def working(description: str, shown: bool = True) -> Iterator[Callable[[str], None]]:
    """Spinner and elapsed time on a terminal while a search runs, so a long one shows it
    is alive and how to stop it; transient, and nothing at all when stderr is not a
    terminal. Yields a function that changes the text."""
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  TextColumn("[dim](Ctrl-C stops)"), console=status_console, transient=True,
                  redirect_stdout=False, redirect_stderr=False,
                  disable=not (shown and status_console.is_terminal)) as progress:
        task = progress.add_task(description, total=None)
        yield lambda text: progress.update(task, description=text)
