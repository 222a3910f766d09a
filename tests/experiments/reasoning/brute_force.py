"""Reference answers for tiny models, by enumeration: every set of units or premises a
brute-force search for the cheapest step tries."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import TypeVar

T = TypeVar("T")


def subsets(items: Sequence[T], most: int | None = None) -> Iterator[tuple[T, ...]]:
    """Every subset of ``items``, smallest first (up to ``most`` members)."""
    top = len(items) if most is None else min(most, len(items))
    for size in range(top + 1):
        yield from combinations(items, size)
