"""The collector around objects a process keeps (puzzlelab.collector): no pass while they
are made, frozen out of later passes in our own processes, untouched elsewhere."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator

import pytest

from puzzlelab import collector
from puzzlelab.collector import making_lasting_objects


@pytest.fixture
def passes() -> Iterator[list[int]]:
    """The generation of every collector pass made while the test runs."""
    seen: list[int] = []

    def heard(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(heard)
    try:
        yield seen
    finally:
        gc.callbacks.remove(heard)


def _cycles(count: int) -> list[list[object]]:
    made: list[list[object]] = []
    for _ in range(count):
        pair: list[object] = []
        pair.append(pair)
        made.append(pair)
    return made


def test_a_library_user_s_collector_is_left_as_it_is(passes: list[int],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """In a process that is not one of ours, the collector keeps running (its passes go
    on while lasting objects are made) and nothing is frozen; off stays off. (Tests that
    run the command line in this process make it one of ours: undone here.)"""
    monkeypatch.setattr(collector, "_own_process", False)
    threshold = gc.get_threshold()  # a library another test loaded may have raised it
    gc.set_threshold(700, 10, 10)
    try:
        _library_use_leaves_the_collector(passes)
    finally:
        gc.set_threshold(*threshold)


def _library_use_leaves_the_collector(passes: list[int]) -> None:
    before = gc.get_freeze_count()
    assert gc.isenabled()
    with making_lasting_objects():
        _cycles(20_000)  # far past the 700 allocations that start a pass
        assert gc.isenabled()
    assert passes and gc.get_freeze_count() == before
    gc.disable()
    try:
        with making_lasting_objects():
            _cycles(10)
        assert not gc.isenabled()  # a caller that had it off keeps it off
    finally:
        gc.enable()


OWN_PROCESS = """
import gc
from puzzlelab import collector
from puzzlelab.collector import making_lasting_objects, settled, start_up
start_up()
assert not gc.isenabled()
settled()
assert gc.isenabled()
frozen = gc.get_freeze_count()
assert frozen > 0
passes = []
gc.callbacks.append(lambda phase, info: passes.append(phase))
with making_lasting_objects():
    kept = [[] for _ in range(5_000)]
    cycles = []
    for _ in range(20_000):
        pair = []
        pair.append(pair)
        cycles.append(pair)
assert passes == []  # no pass while the lasting objects are made
assert gc.isenabled() and gc.get_freeze_count() >= frozen + 5_000
garbage = []
garbage.append(garbage)
del garbage
assert gc.collect() >= 1  # what is made afterwards is still collected
print("ok")
"""


def test_our_own_process_freezes_what_start_up_made_and_still_collects() -> None:
    done = subprocess.run([sys.executable, "-c", OWN_PROCESS], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
