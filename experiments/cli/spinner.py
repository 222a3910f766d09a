"""A spinner and the elapsed time on stderr while a command works, so a long search shows
that it is alive and how to stop it. Transient (its line is cleared at the end), and
nothing at all when stderr is not a terminal: pipes, ``--json`` and tests get the
result alone, unless the command asks for a plain line now and then (``generate``,
whose searches run up to their time budget)."""

from __future__ import annotations

import itertools
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
TICK = 0.1  # seconds between frames
CLEAR = "\r\033[K"  # back to the line's start, erase it


@contextmanager
def working(description: str, shown: bool = True,
            plain_every: float | None = None) -> Iterator[Callable[[str], None]]:
    """Show ``description`` with a spinner for the block; yields a function that changes
    the text. Nothing is drawn when ``shown`` is false; off a terminal, nothing either,
    or with ``plain_every`` a plain line with the text and the seconds so far every
    ``plain_every`` seconds (and one at once when ``shown``)."""
    stream = sys.stderr
    try:
        on_terminal = shown and stream.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        on_terminal = False
    if not on_terminal:
        if plain_every is None or _on_terminal(stream):  # a terminal: not shown
            yield lambda text: None
        else:
            with _plain_lines(stream, description, shown, plain_every) as change:
                yield change
        return
    text = [description]
    lock = threading.Lock()
    started = time.monotonic()

    def draw(frame: int) -> None:
        seconds = int(time.monotonic() - started)
        with lock:
            stream.write(f"{CLEAR}{FRAMES[frame % len(FRAMES)]} {text[0]} "
                         f"{seconds // 3600}:{seconds // 60 % 60:02}:{seconds % 60:02} "
                         f"\033[2m(Ctrl-C stops)\033[0m")
            stream.flush()

    frames = itertools.count(1)
    draw(0)
    try:
        with _ticking(TICK, lambda: draw(next(frames)), "spinner"):
            yield _describing(text)
    finally:
        with lock:
            stream.write(CLEAR)
            stream.flush()


@contextmanager
def _ticking(every: float, tick: Callable[[], None], name: str) -> Iterator[None]:
    """``tick()`` every ``every`` seconds in a thread while the block runs; stopped and
    joined at its end, so nothing is written after it."""
    done = threading.Event()

    def run() -> None:
        while not done.wait(every):
            tick()

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def _describing(text: list[str]) -> Callable[[str], None]:
    """The function that a block calls to change the shown text (``text[0]``)."""
    def describe(new: str) -> None:
        text[0] = new

    return describe


def _on_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@contextmanager
def _plain_lines(stream: TextIO, description: str, at_once: bool,
                 every: float) -> Iterator[Callable[[str], None]]:
    """A line ``TEXT (N s)`` every ``every`` seconds (and one at once with ``at_once``),
    for a standard error that is a pipe or a file: a log shows the command alive."""
    text = [description]
    started = time.monotonic()

    def write() -> None:
        try:
            stream.write(f"{text[0]} ({time.monotonic() - started:.0f} s)\n")
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: progress is not worth failing for
            pass

    if at_once:
        write()
    with _ticking(every, write, "progress"):
        yield _describing(text)
