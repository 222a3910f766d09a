"""Ctrl-C during a search in compiled code: it stops the search and ends as KeyboardInterrupt."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator

import pytest

from solvers.interrupt import ctrl_c_stops
from solvers.limits import SearchLimits
from tests.paths import ROOT


@pytest.fixture(autouse=True)
def stray_ctrl_c_stays_here() -> Iterator[None]:
    """A Ctrl-C these tests send more than once may still be pending when one ends; it is
    absorbed here, not raised in whichever test the worker runs next."""
    yield
    previous = signal.signal(signal.SIGINT, lambda number, frame: None)
    try:
        time.sleep(0.05)
    finally:
        signal.signal(signal.SIGINT, previous)


def test_ctrl_c_in_compiled_code_reaches_the_search_at_once(ctrl_c_raises) -> None:
    """A search in compiled code never runs Python: the watcher thread asks it to stop."""
    limits = SearchLimits(None)
    stopped = threading.Event()
    limits.on_stop(stopped.set)
    with pytest.raises(KeyboardInterrupt), ctrl_c_stops(limits):
        assert limits.watched
        os.kill(os.getpid(), signal.SIGINT)
        assert stopped.wait(10), "Ctrl-C should reach the search's stop"
        assert limits.passed()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_python_search_sees_ctrl_c_when_it_polls(ctrl_c_raises) -> None:
    limits = SearchLimits(None)
    with pytest.raises(KeyboardInterrupt), ctrl_c_stops(limits):
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):  # Python runs the handler between these steps
            if limits.passed():
                break
        assert limits.interrupted
    assert not limits.timed_out


def test_the_search_is_asked_to_stop_once_however_often_ctrl_c_is_pressed(ctrl_c_raises) -> None:
    """Both the watcher thread and Python's handler see each Ctrl-C; the search hears one."""
    calls: list[int] = []
    asked = threading.Event()

    def on_stop() -> None:
        calls.append(1)
        asked.set()

    limits = SearchLimits(None)
    limits.on_stop(on_stop)
    with pytest.raises(KeyboardInterrupt), ctrl_c_stops(limits):
        for _ in range(3):
            os.kill(os.getpid(), signal.SIGINT)
        assert asked.wait(10)
    assert calls == [1]


def test_one_watcher_thread_serves_every_search(ctrl_c_raises) -> None:
    """No thread per solve: the second search reuses the first one's watcher."""
    for _ in range(3):
        limits = SearchLimits(None)
        limits.on_stop(lambda: None)
        with ctrl_c_stops(limits):
            pass
    watchers = [t for t in threading.enumerate() if t.name == "puzzlelab-ctrl-c"]
    assert len(watchers) == 1


def test_a_search_without_ctrl_c_ends_normally(ctrl_c_raises) -> None:
    limits = SearchLimits(None)
    with ctrl_c_stops(limits):
        pass
    assert not limits.interrupted
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_an_ignored_ctrl_c_stays_ignored() -> None:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        limits = SearchLimits(None)
        with ctrl_c_stops(limits):
            assert not limits.watched
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_cpsat_solve_leaves_an_ignored_ctrl_c_ignored() -> None:
    """The runner's workers ignore Ctrl-C; CP-SAT, left to itself, resets it to 'terminate'."""
    script = textwrap.dedent("""
        import os, signal
        from solvers import Model, all_different, solve
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        model = Model("three")
        x = [model.int_var(1, 3, f"x{i}") for i in range(3)]
        model.add(all_different(x))
        model.branch_on(x)
        assert solve(model, "cpsat", "input/min").statistics.solutions == 1
        os.kill(os.getpid(), signal.SIGINT)
        print("still here")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.returncode == 0 and "still here" in done.stdout, done.stderr


def test_the_watcher_is_woken_by_a_pipe_not_a_socket() -> None:
    """In a fresh interpreter: Ctrl-C reaches a compiled search's stop, and ``socket``
    is never imported for it."""
    script = textwrap.dedent("""
        import os, signal, sys, threading
        from solvers.interrupt import ctrl_c_stops
        from solvers.limits import SearchLimits
        limits = SearchLimits(None)
        stopped = threading.Event()
        limits.on_stop(stopped.set)
        try:
            with ctrl_c_stops(limits):
                os.kill(os.getpid(), signal.SIGINT)
                assert stopped.wait(10)
        except KeyboardInterrupt:
            print("stopped", "socket" in sys.modules)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, check=False)
    assert done.stdout.split() == ["stopped", "False"], done.stderr[-500:]
