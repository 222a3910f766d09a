"""A speed sanity check of exact filtering, not a timed test: run
``python -m tests.solvers.filtering_speed`` and read the times per call.

Cases: a 9-variable all_different with Sudoku-like domains, a 20-cell nonogram-like
row as a regular constraint, and two all_different sharing three variables (a row and
a box) filtered as one conjunction.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from solvers.constraints import AllDifferent, Regular
from solvers.filtering import filter_conjunction, filter_constraint
from solvers.model import Model
from solvers.variables import IntVar


def _sudoku_like(rng: random.Random, items: list[IntVar], solution: list[int]
                 ) -> dict[IntVar, frozenset[int]]:
    """Domains holding ``solution`` and a few other digits each, some fixed."""
    return {item: frozenset({value} if rng.random() < 0.3 else
                            {value, *rng.sample(range(1, 10), rng.randint(1, 4))})
            for item, value in zip(items, solution)}


def _blocks_automaton(blocks: list[int]) -> tuple[tuple[tuple[int, int, int], ...], int]:
    """A DFA of rows of 0/1 whose runs of 1s are ``blocks``; returns transitions, final."""
    transitions: list[tuple[int, int, int]] = []
    state = 0
    for number, block in enumerate(blocks):
        transitions.append((state, 0, state))  # gap before (or between) blocks
        for _ in range(block):
            transitions.append((state, 1, state + 1))
            state += 1
        if number < len(blocks) - 1:
            transitions.append((state, 0, state + 1))
            state += 1
    transitions.append((state, 0, state))
    return tuple(transitions), state


def _timed(call: Callable[[], object], repeats: int = 2000) -> float:
    """Median seconds of one call over ``repeats`` calls, in batches of 50."""
    batches = []
    for _ in range(repeats // 50):
        started = time.perf_counter()
        for _ in range(50):
            call()
        batches.append((time.perf_counter() - started) / 50)
    return statistics.median(batches)


def _report(case: str, call: Callable[[], object], repeats: int = 2000) -> None:
    print(f"{case:34} {_timed(call, repeats) * 1e6:9.1f} µs per call")


def main() -> None:
    rng = random.Random(1)
    model = Model()
    row = [model.int_var(1, 9) for _ in range(9)]
    digits = rng.sample(range(1, 10), 9)
    domains = _sudoku_like(rng, row, digits)
    all_different = AllDifferent(tuple(row), "strong")
    _report("all_different, 9 variables", lambda: filter_constraint(all_different, domains))

    cells = [model.bool_var() for _ in range(20)]
    transitions, final = _blocks_automaton([3, 1, 4, 2, 2])
    line = Regular(tuple(cells), transitions, 0, (final,))
    cell_domains = {cell: frozenset({0, 1}) for cell in cells}
    cell_domains[cells[4]] = frozenset({1})
    _report("regular, 20 cells", lambda: filter_constraint(line, cell_domains))

    box = row[:3] + [model.int_var(1, 9) for _ in range(6)]
    box_digits = digits[:3] + [d for d in range(1, 10) if d not in digits[:3]]
    both = {**domains, **_sudoku_like(rng, box[3:], box_digits[3:])}
    pair = [all_different, AllDifferent(tuple(box), "strong")]
    _report("two all_different (15 variables)", lambda: filter_conjunction(pair, both), 200)


if __name__ == "__main__":
    main()
