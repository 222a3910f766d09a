"""Ctrl-C during a search: it stops the search, and the solve then ends as ``KeyboardInterrupt``.

While a search runs, Ctrl-C does not raise at once (that could tear a solver's
state apart mid-step): it marks the search's :class:`~solvers.limits.SearchLimits`
interrupted. A search that runs Python between its steps sees that when it polls;
Python runs the handler there, in the main thread, so nothing else is needed. A
search inside compiled code never returns to Python until it ends, so for the
backends that register a stop (``SearchLimits.on_stop``) the signal's byte also
reaches one watcher thread, started once per process, through
``signal.set_wakeup_fd``; it calls the stop at once. Where SIGINT is not Python's
default (ignored in the runner's workers, or handled by the caller), nothing changes.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

from solvers.limits import SearchLimits


class _Watcher:
    """One thread per process that passes the SIGINT byte to the search being watched."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.target: SearchLimits | None = None
        self.pid: int | None = None
        self.writer: object = None  # what keeps the wakeup descriptor open
        self.writer_fd = -1

    def attach(self, limits: SearchLimits) -> int:
        """Watch ``limits``; returns the wakeup descriptor to restore on detaching."""
        if self.pid != os.getpid():  # first use, or a forked child without the thread
            receive = self._open()
            threading.Thread(target=self._run, args=(receive,), daemon=True,
                             name="puzzlelab-ctrl-c").start()
            self.pid = os.getpid()
        with self.lock:
            self.target = limits
        return signal.set_wakeup_fd(self.writer_fd, warn_on_full_buffer=False)

    def _open(self) -> Callable[[], bytes]:
        """The wakeup descriptor's pair: a pipe (a socket pair where signals wake only
        sockets: Windows); how the thread reads what it is sent."""
        if os.name == "posix":
            reader, writer = os.pipe()
            os.set_blocking(writer, False)
            self.writer, self.writer_fd = writer, writer
            return lambda: os.read(reader, 64)
        import socket

        ends = socket.socketpair()
        ends[1].setblocking(False)
        self.writer, self.writer_fd = ends, ends[1].fileno()
        return lambda: ends[0].recv(64)

    def detach(self, previous_fd: int) -> None:
        signal.set_wakeup_fd(previous_fd)
        with self.lock:
            self.target = None

    def _run(self, receive: Callable[[], bytes]) -> None:
        while True:
            data = receive()
            if not data:
                return
            if signal.SIGINT in data:
                with self.lock:
                    target = self.target
                if target is not None:
                    target.interrupt()


_WATCHER = _Watcher()


@contextmanager
def ctrl_c_stops(limits: SearchLimits) -> Iterator[None]:
    """Within the block Ctrl-C interrupts ``limits`` instead of raising; leaving the
    block then raises ``KeyboardInterrupt``. Register compiled searches' stops first."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return

    def note(signum: int, frame: FrameType | None) -> None:
        limits.interrupt()  # the watcher may have done it already: interrupt() is idempotent

    previous_handler = signal.signal(signal.SIGINT, note)
    previous_fd = _WATCHER.attach(limits) if limits.stops else None
    limits.watched = True
    try:
        yield
    finally:
        if previous_fd is not None:
            _WATCHER.detach(previous_fd)
        signal.signal(signal.SIGINT, previous_handler)
    if limits.interrupted:
        raise KeyboardInterrupt
