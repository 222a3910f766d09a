"""The test grid, generated from the registries: every viewpoint (and option variant),
backend and heuristic, with readable ids such as ``sudoku/classic-cp-first-fail/min``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from experiments.solving import PuzzleRun, solve_instance
from puzzlelab.errors import UnsupportedCombination
from solvers import BACKENDS, Status, heuristic_names, load_backends
from viewpoints import VIEWPOINTS, Viewpoint

load_backends()


@dataclass(frozen=True)
class Cell:
    """One viewpoint variant on one backend under one heuristic."""

    viewpoint: Viewpoint
    options: tuple[tuple[str, Any], ...]
    backend: str
    heuristic: str

    @property
    def id(self) -> str:
        variant = ",".join(f"{k}={v}" for k, v in self.options)
        return (f"{self.viewpoint.key}{f'[{variant}]' if variant else ''}-{self.backend}-"
                f"{self.heuristic}")

    def refusal(self) -> str | None:
        """The documented reason this backend refuses this cell, or None if it must run."""
        options = dict(self.options)
        if self.backend == "automata" and self.viewpoint.key not in ZERO_ONE_VIEWPOINTS:
            return "0/1 variables only"
        if "+probe" in self.heuristic and self.backend not in ("cp", "automata"):
            return "probing needs nested propagation"
        if self.backend == "cpsat" and self.heuristic.split("+")[0].split("/")[-1] == "random":
            return "value ranking"
        if self.backend == "python-constraint":
            if self.heuristic.split("+")[0] == "auto":
                return "auto"
            if options.get("alldiff") == "strong":
                return "weak"
        return None


#: the viewpoints whose models have 0/1 variables only, which the automata backend takes
ZERO_ONE_VIEWPOINTS = {"sudoku/boolean", "nonogram/regular", "nonogram/order",
                       "nonogram/line-table"}


def option_variants(viewpoint: Viewpoint) -> list[tuple[tuple[str, Any], ...]]:
    """The defaults, then each non-default value of each option on its own."""
    variants: list[tuple[tuple[str, Any], ...]] = [()]
    for name, option in viewpoint.options.items():
        variants += [((name, value),) for value in option.choices if value != option.default]
    return variants


# probing and symmetric search are modifiers of any heuristic; the grid runs probing at
# the root and at every node (also under a value ranking, which probing's own branching
# follows), and symmetric search (searching the declared symmetries' fixed points first)
# with one named order on every backend and with CP-SAT's own search
MODIFIER_HEURISTICS = ["input/min+probe", "first-fail/max+probe-all", "random/random+probe-all",
                       "first-fail/min+symmetric", "auto+symmetric"]


def grid(puzzle: str) -> list[Cell]:
    """Every cell the registries offer for ``puzzle``."""
    cells = []
    for key in VIEWPOINTS:
        viewpoint = VIEWPOINTS.get(key)
        if viewpoint.puzzle != puzzle:
            continue
        for options in option_variants(viewpoint):
            for backend in BACKENDS.names():
                for heuristic in heuristic_names() + MODIFIER_HEURISTICS:
                    cells.append(Cell(viewpoint, options, backend, heuristic))
    return cells


def run_cell(cell: Cell, instance: Any, **limits: Any) -> PuzzleRun:
    """Solve ``instance`` with the cell's viewpoint variant, backend and heuristic."""
    return solve_instance(cell.viewpoint.puzzle, instance, cell.viewpoint.name, cell.backend,
                          cell.heuristic, dict(cell.options), time_limit=60, **limits)


def assert_solves(cell: Cell, instances: Sequence[Any]) -> None:
    """The cell solves every instance as the checker and the known solution say, or, if
    its backend refuses it, refuses with the documented reason."""
    refusal = cell.refusal()
    if refusal:
        with pytest.raises(UnsupportedCombination, match=refusal):
            run_cell(cell, instances[0])
        return
    for instance in instances:
        run = run_cell(cell, instance)
        assert run.result.status is Status.SOLVED, (instance.name, run.result.message)
        assert run.violations == [], (instance.name, run.violations)
        assert run.solution == instance.known_solution, instance.name
