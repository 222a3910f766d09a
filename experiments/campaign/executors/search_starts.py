"""How a worker tells the runner that a search starts, without waking it.

The runner's kill timer runs from each search's start, since building a model may take
as long as a search. A message on the results pipe woke the runner a second time for
every run, which for runs of a millisecond cost the campaign a tenth of its speed.
Instead the worker writes a fixed-size record to a pipe of its own, which the runner
reads only when it needs to know: as a task ends, and before it kills one at its
deadline. A record holds the task's number in the worker (1 for its first), the seconds
from the task's start to the search's, and the search's time limit (NaN for none).
"""

from __future__ import annotations

import math
import os
import struct
import time
from contextlib import suppress

from solvers.solving import SearchStart

RECORD = struct.Struct("<qdd")
"""One search's start: small enough that the pipe writes it whole (``PIPE_BUF``)."""


class SearchStarts:
    """The worker's side: :meth:`next_task` gives each task what tells of its searches."""

    def __init__(self, fd: int) -> None:
        os.set_blocking(fd, False)
        self.fd = fd
        self.tasks = 0

    def next_task(self) -> SearchStart:
        """What tells the runner that a search of the task now starting starts, and
        with what time limit. A pipe left full (thousands of searches in one task, not
        read yet) drops the record: the runner keeps counting from an earlier search."""
        self.tasks += 1
        number, started = self.tasks, time.perf_counter()

        def tell(limit: float | None) -> None:
            record = RECORD.pack(number, time.perf_counter() - started,
                                 math.nan if limit is None else limit)
            with suppress(BlockingIOError):
                os.write(self.fd, record)

        return tell


def read_search_starts(fd: int) -> list[tuple[int, float, float | None]]:
    """The runner's side: every record the worker wrote since the last read, as
    ``(task number, seconds into the task, time limit or None)``; the pipe is left
    empty (it is non-blocking: nothing there is no wait)."""
    data = b""
    while True:
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            break
        if not chunk:  # the worker has ended
            break
        data += chunk
    whole = len(data) - len(data) % RECORD.size
    return [(number, seconds, None if math.isnan(limit) else limit)
            for number, seconds, limit in RECORD.iter_unpack(data[:whole])]
