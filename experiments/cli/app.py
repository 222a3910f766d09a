"""The ``puzzlelab`` commands' registry and the helpers every command shares.

A command is a function registered with :func:`command`, with the function that adds
its arguments to an ``argparse`` parser. Only the parser of the command asked for is
built, and a command module imports what its command uses inside the command, so
``puzzlelab --help`` or ``solve`` pays for no other command's libraries (the standard
library's ``argparse`` starts in a millisecond, where a richer framework costs a tenth
of a second before anything is solved).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TextIO

from puzzlelab.errors import OptionError, PuzzleLabError

INTERRUPTED = 130  # the exit status of a command stopped by Ctrl-C (128 + SIGINT)

Handler = Callable[[argparse.Namespace], int | None]
"""A command: the parsed arguments in, an exit status (None for 0) out."""


@dataclass(frozen=True)
class Command:
    """A registered command: its name, how its arguments are declared, what it runs."""

    name: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[Any], int | None]
    epilog: Callable[[], str] | None = None
    """Text after the options in ``--help``, made only when help is asked for."""
    verbatim: bool = False
    """The command takes the rest of the command line as it is (``study NAME ARGS...``)."""
    passes_unknown: bool = False
    """Options its parser does not know are kept, in ``extra`` (``generate --size 5x5``)."""

    @property
    def help(self) -> str:
        """The command's docstring: its ``--help`` text and the docs' summary."""
        return " ".join((self.run.__doc__ or "").split())

    def parse(self, arguments: list[str]) -> Any:
        """The command's arguments: parsed, or as given for a verbatim command."""
        if self.verbatim:
            return arguments
        if not self.passes_unknown:
            return self.parser().parse_args(arguments)
        parsed, extra = self.parser().parse_known_args(arguments)
        parsed.extra = extra
        return parsed

    def parser(self) -> CommandParser:
        """The command's own parser (``puzzlelab NAME ...``)."""
        parser = CommandParser(prog=f"puzzlelab {self.name}", description=self.help,
                               epilog_of=self.epilog)
        self.arguments(parser)
        return parser


COMMANDS: dict[str, Command] = {}
"""Every command by name; each command module registers its own."""


def command(name: str, arguments: Callable[[argparse.ArgumentParser], None], *,
            epilog: Callable[[], str] | None = None, verbatim: bool = False,
            passes_unknown: bool = False) -> Callable[[Callable[[Any], int | None]],
                                                Callable[[Any], int | None]]:
    """Register the decorated function as the command ``name``."""

    def register(run: Callable[[Any], int | None]) -> Callable[[Any], int | None]:
        COMMANDS[name] = Command(name, arguments, run, epilog, verbatim, passes_unknown)
        return run

    return register


class UsageError(PuzzleLabError):
    """The command line itself is wrong: an unknown option, a missing argument."""

    def __init__(self, message: str, usage: str) -> None:
        super().__init__(message)
        self.usage = usage


class CommandParser(argparse.ArgumentParser):
    """An ``argparse`` parser whose errors are raised, not printed with a bare exit, so
    they end as every PuzzleLab error does; its epilog is made when help is shown."""

    def __init__(self, prog: str, description: str,
                 epilog_of: Callable[[], str] | None = None) -> None:
        super().__init__(prog=prog, description=description, allow_abbrev=False,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
        self._epilog_of = epilog_of

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, self.format_usage().strip())

    def format_help(self) -> str:
        if self._epilog_of is not None and self.epilog is None:
            self.epilog = self._epilog_of()
        return super().format_help()


def at_least(low: int) -> Callable[[str], int]:
    """An ``argparse`` type: an integer of at least ``low``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value

    parse.__name__ = f"integer of at least {low}"
    return parse


def positive_time_limit(seconds: float) -> None:
    """Refuse a ``--time-limit`` of 0 seconds or less, naming it."""
    from solvers.limits import checked_time_limit  # the solving layer's own rule

    checked_time_limit(seconds, "--time-limit")


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


# ------------------------------------------------------------------ printing

_STYLES = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "cyan": "36"}


def styled(text: str, style: str, stream: TextIO | None = None) -> str:
    """``text`` in ``style`` (bold, dim, red, green, yellow, cyan) where ``stream``
    (stdout by default) is a terminal and ``NO_COLOR`` is not set; else plain."""
    stream = sys.stdout if stream is None else stream
    if os.environ.get("NO_COLOR") or not _is_terminal(stream):
        return text
    return f"\033[{_STYLES[style]}m{text}\033[0m"


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


def say(text: str) -> None:
    """A line of the command's output, on stdout."""
    print(text)


def note(text: str) -> None:
    """A line about the command rather than its result (a warning, a file written beside
    ``--json``), on stderr, so stdout stays clean for pipes."""
    print(text, file=sys.stderr)


def writable(option: str, path: Path | None) -> None:
    """Make the folder of a file an option names, before the work whose result it will
    hold: a solve of minutes is not lost to a folder that was still to make, and a
    folder that cannot be written is said first."""
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_dir():
        raise OptionError(f"{option} {path}: a folder, not a file")
    if not os.access(path.parent, os.W_OK):
        raise OptionError(f"{option} {path}: cannot write into {path.parent}")


def writable_folder(folder: Path, what: str) -> None:
    """Make ``folder``, where ``what`` is to be written, or refuse it when it cannot be
    written (a read-only mount, a folder not ours, a path under a file), before the work
    and saying to give ``--out`` another: the file system's bare reason says neither
    where nor what to do."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        usable = os.access(folder, os.W_OK | os.X_OK)
        reason = "not writable"
    except OSError as error:
        usable, reason = False, error.strerror or str(error)
    if not usable:
        raise OptionError(f"{folder}: cannot write {what} there ({reason}); give --out a "
                          f"folder you can write to")


def say_first_use(solvers: list[str]) -> None:
    """Say, on stderr, what the solvers' first use on this machine does before solving
    and how long it takes (compiling the automata engine), so a first run that takes
    seconds is not taken for a hung one. Unknown names are left to the command."""
    from solvers.backends import BACKENDS

    for solver in dict.fromkeys(solvers):
        if solver in BACKENDS:
            said = BACKENDS.get(solver).first_use()
            if said:
                note(f"note: {said}")
