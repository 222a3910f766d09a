"""Ending a process without the interpreter's teardown: the command line and the
campaign's worker processes end this way once their work is written."""

from __future__ import annotations

import atexit
import os
import sys
import threading
from contextlib import suppress


def leave(code: object) -> None:
    """End the process with ``code`` (as ``sys.exit`` takes it) without the interpreter's
    teardown, which frees every module and object one by one: a tenth of a second after a
    campaign, longer than some commands. Everything a command writes is closed when it
    returns; the exit functions still run and the streams are flushed. While a thread
    that is not a daemon still runs, or a profiler or tracer (``python -m cProfile``)
    still has to write its figures, the interpreter ends as usual."""
    if sys.getprofile() is not None or sys.gettrace() is not None or any(
            not t.daemon and t is not threading.main_thread() for t in threading.enumerate()):
        return
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with suppress(OSError, ValueError):  # a closed pipe or stream: nothing more to say
            stream.flush()
    os._exit(code or 0)
