"""Work done in a forked copy of this process, while this one goes on.

At the end of a campaign the workers are idle and the runner has the tables, ``runs.csv``
and the report to write, one after another, on one core. The report (its figures most
of all) is the longest of them, and needs nothing the others make: :func:`run_forked` starts
it in a child forked from the runner, which has its libraries imported already, and the
runner writes the rest meanwhile. Where forking is not safe or brings nothing (not
Linux, one core, other threads running), the work is done in place, with the same
result.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable
from contextlib import suppress
from typing import Generic, TypeVar

T = TypeVar("T")


class Pending(Generic[T]):
    """A result being made in a forked child; :meth:`result` waits for it."""

    def __init__(self, pid: int | None, reader: int | None, done: tuple[bool, object]) -> None:
        self._pid, self._reader, self._done = pid, reader, done

    def result(self) -> T:
        """The function's return value, or its exception raised here."""
        if self._reader is not None:
            with os.fdopen(self._reader, "rb") as pipe:
                data = pipe.read()
            self._reader = None
            assert self._pid is not None
            _, status = os.waitpid(self._pid, 0)
            try:
                self._done = pickle.loads(data)
            except Exception:  # the child died before it answered
                self._done = (False, RuntimeError(
                    f"the forked process ended without an answer "
                    f"(exit status {os.waitstatus_to_exitcode(status)})"))
        succeeded, value = self._done
        if not succeeded:
            raise value  # type: ignore[misc]
        return value  # type: ignore[return-value]

    def __del__(self) -> None:
        # never asked for (the caller failed first): the child is stopped, not left
        # blocked on a full pipe for as long as this process lives
        if self._reader is not None and self._pid is not None:
            with suppress(OSError):
                os.close(self._reader)
                os.kill(self._pid, signal.SIGKILL)
                os.waitpid(self._pid, 0)


def can_fork() -> bool:
    """Whether a forked child may run beside this process: Linux, a second core, and no
    other thread (a lock another thread holds would stay held in the child forever)."""
    return (sys.platform == "linux" and len(os.sched_getaffinity(0)) > 1
            and threading.active_count() == 1)


def run_forked(function: Callable[[], T]) -> Pending[T]:
    """Run ``function`` in a forked child (see :func:`can_fork`; else here, now)."""
    if not can_fork():
        return Pending(None, None, _outcome(function))
    for stream in (sys.stdout, sys.stderr):  # or the child would write their buffers again
        with suppress(OSError, ValueError):
            stream.flush()
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answer through the pipe, then leave without any clean-up
        os.close(reader)
        try:
            with os.fdopen(writer, "wb") as pipe:
                pipe.write(_pickled(_outcome(function)))
        finally:
            os._exit(0)
    os.close(writer)
    return Pending(pid, reader, (False, None))


def _outcome(function: Callable[[], T]) -> tuple[bool, object]:
    try:
        return True, function()
    except Exception as error:  # raised again by the parent
        return False, error


def _pickled(outcome: tuple[bool, object]) -> bytes:
    try:
        return pickle.dumps(outcome)
    except Exception as error:  # an exception that cannot be pickled: its text
        return pickle.dumps((False, RuntimeError(f"{type(outcome[1]).__name__}: "
                                                 f"{outcome[1]} ({error})")))
