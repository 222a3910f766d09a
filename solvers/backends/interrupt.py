"""Ctrl-C for searches that run in compiled code.

Python runs its SIGINT handler only when the main thread is back in Python, so a
search inside OR-tools never sees Ctrl-C (and CP-SAT, left to itself, catches the
signal and reports an unexplained stop). While ``interruptible`` is active, the
signal's byte reaches a watcher thread through ``signal.set_wakeup_fd``; the watcher
asks the search to stop, and the block ends with ``KeyboardInterrupt`` as Ctrl-C
does anywhere else. Where SIGINT is not Python's default (ignored in the runner's
workers, or handled by the caller), nothing changes.
"""

from __future__ import annotations

import signal
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType


class StopRequest:
    """Set once Ctrl-C arrives; searches poll it between steps."""

    def __init__(self, on_stop: Callable[[], None] | None = None) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()  # the watcher and the handler may both ask
        self._on_stop = on_stop
        self.watched = False  # whether Ctrl-C can set it at all (else polling is waste)

    def request(self) -> None:
        """Set the request; ``on_stop`` runs once, whichever thread asks first."""
        with self._lock:
            if self._event.is_set():
                return
            self._event.set()
        if self._on_stop is not None:
            self._on_stop()

    def is_set(self) -> bool:
        return self._event.is_set()


@contextmanager
def interruptible(on_stop: Callable[[], None] | None = None) -> Iterator[StopRequest]:
    """Within the block, Ctrl-C sets the yielded request and calls ``on_stop`` (from
    another thread, so it must be thread-safe); leaving the block then raises
    ``KeyboardInterrupt``."""
    stop = StopRequest(on_stop)
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield stop
        return
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    watcher = threading.Thread(target=_watch, args=(reader, stop), daemon=True)
    watcher.start()
    previous_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)

    def note(signum: int, frame: FrameType | None) -> None:
        stop.request()  # the watcher has usually done it already

    previous_handler = signal.signal(signal.SIGINT, note)
    stop.watched = True
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous_handler)
        signal.set_wakeup_fd(previous_fd)
        writer.send(b"\0")  # wakes the watcher up to finish
        watcher.join()
        reader.close()
        writer.close()
    if stop.is_set():
        raise KeyboardInterrupt


def _watch(reader: socket.socket, stop: StopRequest) -> None:
    while True:
        data = reader.recv(64)
        if signal.SIGINT in data:
            stop.request()
        if not data or b"\0" in data:
            return
