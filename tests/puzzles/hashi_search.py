"""Hashiwokakero solutions found without a model, to judge files and generators by: the
viewpoints are what these tests must not trust."""

from __future__ import annotations

from puzzles.hashi import check
from puzzles.hashi_sight import crossing_pairs, neighbours
from puzzles.hashi_types import Bridge, HashiInstance, HashiSolution


def count_solutions(instance: HashiInstance, most: int = 3) -> list[HashiSolution]:
    """Solutions up to ``most``, by a model-free search over the bridges of each pair that
    sees each other (pruned by the numbers and crossings), each judged by the checker."""
    pairs = neighbours(instance)
    crossing: dict[int, set[int]] = {index: set() for index in range(len(pairs))}
    for one, other in crossing_pairs(instance):
        crossing[one].add(other)
        crossing[other].add(one)
    need = {island.cell: island.value for island in instance.islands}
    last = {cell: index for index, pair in enumerate(pairs) for cell in
            (pair[0].cell, pair[1].cell)}
    counts = [0] * len(pairs)
    found: list[HashiSolution] = []

    def search(index: int) -> None:
        if len(found) >= most:
            return
        if index == len(pairs):
            solution = HashiSolution(tuple(Bridge(first.cell, second.cell, count) for
                                           (first, second), count in zip(pairs, counts,
                                                                         strict=True) if count))
            if not check(instance, solution):
                found.append(solution)
            return
        first, second = pairs[index]
        for count in (0, 1, 2):
            if count and any(counts[other] for other in crossing[index] if other < index):
                break
            if count > need[first.cell] or count > need[second.cell]:
                break
            need[first.cell] -= count
            need[second.cell] -= count
            counts[index] = count
            if all(need[cell] == 0 for cell in (first.cell, second.cell) if last[cell] == index):
                search(index + 1)
            need[first.cell] += count
            need[second.cell] += count
            counts[index] = 0

    search(0)
    return found
