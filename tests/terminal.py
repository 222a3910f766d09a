"""The command line run with its stderr on a pseudo-terminal, as a user sees it: the
progress displays appear only there, while stdout stays a pipe the test reads."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.paths import ROOT


@contextmanager
def cli_on_terminal(*arguments: str, **popen: Any) -> Iterator[tuple[subprocess.Popen[bytes],
                                                                     int]]:
    """``python -m experiments ARGUMENTS``, and the terminal end its stderr writes to."""
    terminal, child_end = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "experiments", *arguments], cwd=ROOT,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=child_end, **popen)
    os.close(child_end)
    try:
        yield process, terminal
    finally:
        os.close(terminal)


def read_until(terminal: int, wanted: bytes, seconds: float) -> bytes:
    """What the terminal shows until ``wanted`` appears, the stream ends or time runs out."""
    shown, deadline = b"", time.monotonic() + seconds
    while wanted not in shown and time.monotonic() < deadline:
        if select.select([terminal], [], [], 0.2)[0]:
            try:
                chunk = os.read(terminal, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            shown += chunk
    return shown
