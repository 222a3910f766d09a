"""A spinner and the elapsed time on stderr while a command works, so a long search shows
that it is alive and how to stop it. Transient (its line is cleared at the end), and
nothing at all when stderr is not a terminal: pipes, ``--json`` and tests get the
result alone."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
TICK = 0.1  # seconds between frames
CLEAR = "\r\033[K"  # back to the line's start, erase it


@contextmanager
def working(description: str, shown: bool = True) -> Iterator[Callable[[str], None]]:
    """Show ``description`` with a spinner for the block; yields a function that changes
    the text. Nothing is drawn off a terminal, or when ``shown`` is false."""
    stream = sys.stderr
    try:
        on_terminal = shown and stream.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        on_terminal = False
    if not on_terminal:
        yield lambda text: None
        return
    text = [description]
    done = threading.Event()
    lock = threading.Lock()
    started = time.monotonic()

    def draw(frame: int) -> None:
        seconds = int(time.monotonic() - started)
        with lock:
            stream.write(f"{CLEAR}{FRAMES[frame % len(FRAMES)]} {text[0]} "
                         f"{seconds // 3600}:{seconds // 60 % 60:02}:{seconds % 60:02} "
                         f"\033[2m(Ctrl-C stops)\033[0m")
            stream.flush()

    def spin() -> None:
        frame = 0
        while not done.wait(TICK):
            frame += 1
            draw(frame)

    def describe(new: str) -> None:
        text[0] = new

    draw(0)
    thread = threading.Thread(target=spin, name="spinner", daemon=True)
    thread.start()
    try:
        yield describe
    finally:
        done.set()
        thread.join()
        with lock:
            stream.write(CLEAR)
            stream.flush()
