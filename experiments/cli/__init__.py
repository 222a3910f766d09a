"""The ``puzzlelab`` command line: argument handling over importable functions.

One module per group of commands registers its commands (:mod:`~experiments.cli.app`):
:mod:`~experiments.cli.solving` (``solve``, ``draw``), :mod:`~experiments.cli.campaigns`
(``run``, ``table``, ``report``), :mod:`~experiments.cli.catalogue` (``list``,
``generate``), :mod:`~experiments.cli.grading` (``grade``),
:mod:`~experiments.cli.explaining` (``explain``) and :mod:`~experiments.cli.studies`
(``study``). This module picks the command, parses its arguments and turns PuzzleLab's
errors into one line and an exit status.
"""

from __future__ import annotations

import sys

from experiments.cli import (  # noqa: F401 (commands)
    campaigns,
    catalogue,
    explaining,
    exporting,
    grading,
    solving,
    studies,
)
from experiments.cli.app import COMMANDS, INTERRUPTED, UsageError
from puzzlelab.collector import settled
from puzzlelab.errors import PuzzleLabError

__all__ = ["COMMANDS", "INTERRUPTED", "main", "overview", "run"]

SUMMARY = "PuzzleLab: constraint models of logic puzzles, their solvers and experiments."


def main(arguments: list[str] | None = None) -> None:
    """Console entry point: PuzzleLab errors become one clear line and exit status 2."""
    try:
        code = run(sys.argv[1:] if arguments is None else arguments)
    except UsageError as error:
        print(f"{error.usage}\nerror: {error}", file=sys.stderr)
        sys.exit(2)
    except PuzzleLabError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    except OSError as error:  # the file system said no: a file we write, a folder we make
        where = f": {error.filename}" if error.filename else ""
        print(f"error: {error.strerror or error}{where}", file=sys.stderr)
        sys.exit(1)
    except MemoryError:  # a model or a file too large for this machine
        print("error: out of memory (try a smaller instance, or a viewpoint or solver that "
              "needs less)", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(INTERRUPTED)
    if code:
        sys.exit(code)


def run(arguments: list[str]) -> int | None:
    """Run the command ``arguments`` name; its exit status."""
    first = arguments[0] if arguments else "--help"
    if first in ("-h", "--help"):
        print(overview(), end="")
        return None
    if first == "--version":
        import puzzlelab

        print(f"puzzlelab {puzzlelab.__version__}")
        return None
    usage = "usage: puzzlelab [--version] [--help] COMMAND [ARGUMENTS...]"
    if first.startswith("-"):
        raise UsageError(f"unknown option {first} (the options go after the command)", usage)
    if first not in COMMANDS:
        raise UsageError(f"no such command {first!r}; the commands are "
                         f"{', '.join(sorted(COMMANDS))}", usage)
    chosen = COMMANDS[first]
    parsed = chosen.parse(arguments[1:])
    settled()  # the command line's modules stay to the end (puzzlelab.collector)
    return chosen.run(parsed)


def overview() -> str:
    """``puzzlelab --help``: the commands, each with the first sentence of its help."""
    width = max(map(len, COMMANDS))
    lines = [f"  {name.ljust(width)}  {COMMANDS[name].help.split('. ')[0].rstrip('.')}"
             for name in sorted(COMMANDS)]
    return (f"usage: puzzlelab [--version] [--help] COMMAND [ARGUMENTS...]\n\n{SUMMARY}\n\n"
            "commands:\n" + "\n".join(lines) + "\n\noptions:\n"
            "  --version  print the version and stop\n  -h, --help  show this help\n\n"
            "`puzzlelab COMMAND --help` shows a command's arguments and options.\n")
