"""``puzzlelab generate``: random instances, optionally only those with exactly one solution.

A generator per puzzle makes a random candidate (in ``puzzles``, which knows no
solver) and writes it; uniqueness needs a solver, so it is decided here: a
candidate is kept only when a complete search finds exactly one solution.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from experiments.solving import solve_instance
from puzzlelab.errors import OptionError
from puzzlelab.registry import Registry
from puzzles import nonogram
from puzzles.text_input import is_integer
from solvers import Status


@dataclass(frozen=True)
class Generator:
    """How to make a random candidate of one puzzle and write it to a file."""

    make: Callable[[int, int, float, random.Random, str], Any]
    write: Callable[[Any], str]
    suffix: str
    viewpoint: str
    solver: str
    heuristic: str


GENERATORS: Registry[Generator] = Registry("generator")
GENERATORS.add("nonogram", Generator(
    nonogram.random_instance, lambda i: nonogram.format_non(i, i.known_solution), ".non",
    viewpoint="regular", solver="cpsat", heuristic="auto"))


@dataclass(frozen=True)
class Generated:
    """One written instance, and how many candidates were drawn to find it."""

    path: Path
    instance: Any
    candidates: int


MAX_SIDE = 1000
"""The longest side ``--size`` takes: a million cells already makes a file no solver here
finishes, and a typo (``2000x20000``) should not fill the memory before it says so."""


def parse_size(text: str) -> tuple[int, int]:
    """``"20x15"`` -> ``(20, 15)`` (rows, columns)."""
    rows, x, columns = text.lower().partition("x")
    if not (x and is_integer(rows) and is_integer(columns) and int(rows) > 0
            and int(columns) > 0):
        raise OptionError(f"--size must be ROWSxCOLUMNS, such as 20x20, not {text!r}")
    if max(int(rows), int(columns)) > MAX_SIDE:
        raise OptionError(f"--size {text}: at most {MAX_SIDE} rows and {MAX_SIDE} columns")
    return int(rows), int(columns)


def solution_count(puzzle: str, instance: Any, generator: Generator,
                   time_limit: float | None = None) -> int | None:
    """Solutions of ``instance`` up to 2, or None when the search did not finish."""
    run = solve_instance(puzzle, instance, generator.viewpoint, generator.solver,
                         generator.heuristic, time_limit=time_limit, max_solutions=2)
    if run.result.status is Status.UNSATISFIABLE:
        return 0
    if run.result.status is not Status.SOLVED or (run.result.statistics.solutions < 2
                                                  and not run.result.complete):
        return None
    return run.result.statistics.solutions


def generate(puzzle: str, size: str, density: float, seed: int, count: int = 1,
             unique: bool = False, output: Path = Path("."), max_candidates: int = 10_000,
             time_limit: float | None = 60.0,
             on_candidate: Callable[[int, int], None] | None = None) -> Iterator[Generated]:
    """Write ``count`` random instances into ``output``; with ``unique`` only unique ones.

    ``on_candidate(index, drawn)`` is told of every candidate drawn for instance number
    ``index`` before it is checked, so a caller can show a long ``--unique`` search moving.
    Bad arguments raise ``OptionError`` here, at the call, not at the first instance.
    """
    generator = GENERATORS.get(puzzle)
    rows, columns = parse_size(size)
    if count < 1:
        raise OptionError(f"--count must be at least 1, not {count}")
    if not 0.0 < density < 1.0:
        raise OptionError(f"--density must lie strictly between 0 and 1, not {density}")
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OptionError(f"--output {output}: cannot make the folder ({error.strerror})"
                          ) from None
    return _instances(puzzle, generator, rows, columns, density, seed, count, unique, output,
                      max_candidates, time_limit, on_candidate)


def _instances(puzzle: str, generator: Generator, rows: int, columns: int, density: float,
               seed: int, count: int, unique: bool, output: Path, max_candidates: int,
               time_limit: float | None,
               on_candidate: Callable[[int, int], None] | None) -> Iterator[Generated]:
    rng = random.Random(seed)
    drawn = 0
    for index in range(1, count + 1):
        name = f"{puzzle}-{rows}x{columns}-d{density:g}-s{seed}-{index}"
        while True:
            drawn += 1
            if drawn > max_candidates:
                raise OptionError(f"no unique {puzzle} found in {max_candidates} candidates; "
                                  f"try another density or size")
            candidate = generator.make(rows, columns, density, rng, name)
            if on_candidate:
                on_candidate(index, drawn)
            if not unique or solution_count(puzzle, candidate, generator, time_limit) == 1:
                break
        path = output / f"{name}{generator.suffix}"
        path.write_text(generator.write(candidate), encoding="utf-8")
        yield Generated(path, candidate, drawn)
        drawn = 0
