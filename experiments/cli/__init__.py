"""The ``puzzlelab`` command line: argument handling over importable functions.

One module per group of commands adds its commands to :data:`~experiments.cli.app.app`:
:mod:`~experiments.cli.solving` (``solve``, ``draw``), :mod:`~experiments.cli.campaigns`
(``run``, ``table``, ``report``), :mod:`~experiments.cli.catalogue` (``list``,
``generate``) and :mod:`~experiments.cli.studies` (``study``). This module turns
PuzzleLab's errors into one line and an exit status.
"""

from __future__ import annotations

import sys

import typer

from experiments.cli import campaigns, catalogue, solving, studies  # noqa: F401 (commands)
from experiments.cli.app import INTERRUPTED, app
from puzzlelab.errors import PuzzleLabError

__all__ = ["INTERRUPTED", "app", "main"]


def main() -> None:
    """Console entry point: PuzzleLab errors become one clear line and exit status 2."""
    try:
        code = app(standalone_mode=False)  # click returns typer.Exit's code in this mode
        if code == INTERRUPTED:  # Typer's answer to a KeyboardInterrupt in a command
            print("interrupted", file=sys.stderr)
        if isinstance(code, int) and code:
            sys.exit(code)
    except PuzzleLabError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except OSError as error:  # the file system said no: a file we write, a folder we make
        where = f": {error.filename}" if error.filename else ""
        print(f"error: {error.strerror or error}{where}", file=sys.stderr)
        sys.exit(1)
    except MemoryError:  # a model or a file too large for this machine
        print("error: out of memory (try a smaller instance, or a viewpoint or solver that "
              "needs less)", file=sys.stderr)
        sys.exit(1)
    except (typer.Abort, KeyboardInterrupt):
        print("interrupted", file=sys.stderr)
        sys.exit(INTERRUPTED)
    except typer.TyperException as error:  # usage errors arrive here in non-standalone mode
        show = getattr(error, "show", None)  # usage errors show the usage line and a hint
        if show:
            show()
        else:
            print(f"error: {error.format_message()}", file=sys.stderr)
        sys.exit(error.exit_code)
