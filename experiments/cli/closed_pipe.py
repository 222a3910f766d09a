"""A reader that closes the pipe early (``puzzlelab list | head``) has what it wanted:
the command ends quietly, with status 0, rather than with a traceback or status 1."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from contextlib import suppress
from typing import Any, TextIO


class ReaderGone(Exception):
    """Stdout's reader closed the pipe. Not an ``OSError``, which the command line would
    turn into an error message and exit status 1."""


class PipeGuard:
    """Stdout while a command runs: writing to a closed pipe raises :class:`ReaderGone`;
    everything else is the stream's own."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        """Write ``text``; a closed pipe raises :class:`ReaderGone`."""
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            raise ReaderGone from None

    def flush(self) -> None:
        """Flush the stream; a closed pipe raises :class:`ReaderGone`."""
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise ReaderGone from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def run_guarded(command: Callable[[], None]) -> None:
    """Run ``command`` with stdout guarded. When its reader has gone, stdout goes to the
    null device (so the interpreter's last flush does not fail again) and the process
    ends with the command's own status if it had ended (1 for a wrong answer), else 0."""
    stdout = sys.stdout
    sys.stdout = PipeGuard(stdout)  # type: ignore[assignment]  # a TextIO where it is used
    try:
        try:
            command()
        finally:
            sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's last flush
    except ReaderGone as gone:
        with suppress(OSError, ValueError):  # ValueError: a stream without a descriptor
            os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
        ended = gone.__context__
        sys.exit(ended.code if isinstance(ended, SystemExit) else 0)
    finally:
        sys.stdout = stdout
