"""Going through a campaign's whole grid a batch at a time: what the runner and the store
hold while they do is a batch, whatever the grid's size."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from typing import TypeVar

T = TypeVar("T")

KEYS_PER_QUERY = 500
"""Runs asked about or written per statement when a campaign's whole grid is gone
through: memory stays that of a batch, whatever the grid's size."""


def batched(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """``items`` in lists of ``size`` (the last shorter), read as they come.

    >>> list(batched(range(5), 2))
    [[0, 1], [2, 3], [4]]
    """
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch
