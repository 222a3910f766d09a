"""Spearman's rank correlation, written here because it is a dozen lines and scipy is no
dependency of PuzzleLab: ranks with ties given their average rank, then Pearson's
correlation of the ranks (the definition that stays exact with ties)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def average_ranks(values: Sequence[float]) -> list[float]:
    """The rank of each value, 1 for the least, tied values sharing their average rank.

    >>> average_ranks([30, 10, 20, 10])
    [4.0, 1.5, 3.0, 1.5]
    """
    order = sorted(range(len(values)), key=lambda index: values[index])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            ranks[order[position]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's correlation of two equally long sequences (None: fewer than two pairs, or
    a side that does not vary)."""
    if len(xs) != len(ys):
        raise ValueError(f"{len(xs)} values against {len(ys)}")
    if len(xs) < 2:
        return None
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    covariance = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True))
    spread = math.sqrt(sum((x - mean_x) ** 2 for x in xs) * sum((y - mean_y) ** 2 for y in ys))
    return None if spread == 0 else covariance / spread


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rho: Pearson's correlation of the average ranks.

    >>> spearman([1, 2, 3], [10, 30, 20])
    0.5
    """
    return pearson(average_ranks(xs), average_ranks(ys))
