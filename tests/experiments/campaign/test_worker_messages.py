"""How a worker tells the runner that a search starts (search_starts): read when the
runner needs it, never waking it, and never blocking the worker."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

from experiments.campaign.executors.search_starts import (
    RECORD,
    SearchStarts,
    read_search_starts,
)


@pytest.fixture
def pipe() -> Iterator[tuple[int, int]]:
    read, write = os.pipe()
    os.set_blocking(read, False)
    yield read, write
    for fd in (read, write):
        os.close(fd)


def test_each_search_start_is_read_with_its_task_its_time_and_its_limit(
        pipe: tuple[int, int]) -> None:
    read, write = pipe
    starts = SearchStarts(write)
    first = starts.next_task()
    first(10.0)
    time.sleep(0.02)
    first(None)  # a search without a time limit
    starts.next_task()(4.5)
    heard = read_search_starts(read)
    assert [(number, limit) for number, _, limit in heard] == [(1, 10.0), (1, None), (2, 4.5)]
    assert heard[0][1] < 0.02 <= heard[1][1]  # seconds from its task's start
    assert read_search_starts(read) == []  # read once; nothing there is no wait


def test_a_full_pipe_drops_a_start_rather_than_stopping_the_worker(
        pipe: tuple[int, int]) -> None:
    read, write = pipe
    tell = SearchStarts(write).next_task()
    capacity = 1 << 20  # more than any pipe holds
    for _ in range(capacity // RECORD.size):
        tell(1.0)  # returns at once however full the pipe is
    heard = read_search_starts(read)
    assert 0 < len(heard) < capacity // RECORD.size
    assert all(record[0] == 1 and record[2] == 1.0 for record in heard)
