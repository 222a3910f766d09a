"""What a worker tells the runner while it runs a task."""

from __future__ import annotations

import time

from experiments.campaign.executors import worker
from experiments.campaign.executors.worker import UNANNOUNCED_START
from experiments.campaign.grid import expand
from experiments.campaign.spec import load_spec

SPEC = """
name = "messages"
puzzle = "sudoku"
instances = [{ file = "{data}/small_4x4.txt", select = [1] }]
time_limit = 10
"""


def test_a_search_that_starts_at_once_is_not_announced_a_later_one_is(write_spec) -> None:
    """A run of a millisecond wakes the runner once (its result), not twice: its search's
    start is told only past UNANNOUNCED_START, which the runner's clock allows for."""
    task = expand(load_spec(write_spec(SPEC))).tasks[0]
    sent: list[tuple[str, float | None]] = []

    class Pipe:
        def send(self, message: tuple[str, float | None]) -> None:
            sent.append(message)

    announce = worker._announcer(Pipe(), task)  # type: ignore[arg-type]
    announce(task.time_limit)
    announce(None)
    assert sent == []
    announce(task.time_limit + 1)  # more time than the task's: the runner must hear it
    assert sent == [("searching", task.time_limit + 1)]
    time.sleep(UNANNOUNCED_START)
    announce(task.time_limit / 2)
    assert sent[-1] == ("searching", task.time_limit / 2)
