"""Messages between the runner and a worker over a pipe: each a pickle after its length.

This is what ``multiprocessing.connection.Connection`` does over a pipe, in the few lines
the pool needs: that module imports ``socket`` (for the sockets it also speaks), which
neither the runner nor its workers otherwise use.
"""

from __future__ import annotations

import os
import pickle
import select
import struct
from collections.abc import Sequence
from typing import Any

_LENGTH = struct.Struct("!Q")
"""The length of a message's pickle, before it."""
_CHUNK = 1 << 20
"""Bytes read from the pipe at a time, at most."""


class Channel:
    """One end of a pipe (its descriptor, owned): send or receive whole messages."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def fileno(self) -> int:
        return self.fd

    def send(self, message: object) -> None:
        """Write ``message`` whole (``OSError``, such as ``BrokenPipeError``, when the
        other end is gone)."""
        body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        data = memoryview(_LENGTH.pack(len(body)) + body)
        while data:
            data = data[os.write(self.fd, data):]

    def recv(self) -> Any:
        """The next message; ``EOFError`` when the other end closed the pipe."""
        (size,) = _LENGTH.unpack(self._read(_LENGTH.size))
        return pickle.loads(self._read(size))

    def _read(self, size: int) -> bytes:
        chunks, left = [], size
        while left:
            chunk = os.read(self.fd, min(left, _CHUNK))
            if not chunk:
                raise EOFError("the other end of the pipe closed it")
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    def close(self) -> None:
        os.close(self.fd)


def readable(channels: Sequence[Channel], timeout: float | None) -> list[Channel]:
    """Those of ``channels`` with a message (or an end: a closed pipe is readable) to
    read, waiting up to ``timeout`` seconds for one. ``poll`` where there is one: unlike
    ``select`` it takes descriptors past 1023 (a pool of many workers, other files)."""
    if not hasattr(select, "poll"):
        ready, _, _ = select.select(channels, [], [], timeout)
        return ready
    poller = select.poll()
    for channel in channels:
        poller.register(channel.fd, select.POLLIN)
    events = poller.poll(None if timeout is None else timeout * 1000)
    ready_fds = {fd for fd, _ in events}
    return [channel for channel in channels if channel.fd in ready_fds]
