"""The test grid, generated from the registries: every viewpoint (and option variant),
backend and heuristic, with readable ids such as ``sudoku/classic-cp-first-fail/min``."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from experiments.campaign.solving import PuzzleRun, solve
from puzzlelab.errors import UnsupportedCombination
from puzzles import PUZZLES
from solvers import BACKENDS, Heuristic, Statistics, Status, heuristic_names, load_backends
from solvers.lowering import lower
from tests.expected_refusals import expected_refusal
from viewpoints import VIEWPOINTS, Viewpoint, get_viewpoint

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

    def refusal(self, instance: Any) -> str | None:
        """The capability this cell's backend lacks for it, read from the backend's
        declaration and the model the viewpoint builds (None: it must run)."""
        built = self.viewpoint.build(instance, dict(self.options))
        return expected_refusal(BACKENDS.get(self.backend).capabilities, built.model,
                                self.heuristic)


def option_variants(viewpoint: Viewpoint) -> list[tuple[tuple[str, Any], ...]]:
    """The defaults, then each non-default value of each option on its own."""
    variants: list[tuple[tuple[str, Any], ...]] = [()]
    for name, option in viewpoint.options.items():
        variants += [((name, value),) for value in option.choices if value != option.default]
    return variants


# probing, symmetric search and d-way labelling are modifiers of any heuristic; the grid
# runs probing at the root and at every node (also under a value ranking, which
# probing's own branching follows), symmetric search (searching the declared
# symmetries' fixed points first) with one named order on every backend and with
# CP-SAT's own search, and d-way labelling under both selections and a ranking
MODIFIER_HEURISTICS = ["input/min+probe", "first-fail/max+probe-all", "random/random+probe-all",
                       "first-fail/min+symmetric", "auto+symmetric", "input/min+dway",
                       "first-fail/max+dway", "random/random+dway"]


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


#: backends whose every run starts an outside program (MiniZinc: about 0.3 s to compile
#: and start Gecode): the default test run keeps a sample of their heuristics,
#: ``--runslow`` runs every cell
OUTSIDE_PROGRAMS = frozenset({"minizinc"})
#: the sample: the reference order, then one more heuristic in turn per viewpoint
#: variant, so that the default run meets most of them on some viewpoint
SAMPLED_HEURISTICS = ("input/min",)


def params(cells: Sequence[Cell]) -> list[Any]:
    """``cells`` as pytest parameters, marked slow where :data:`OUTSIDE_PROGRAMS` keeps
    a cell out of the default run; modifiers such backends refuse stay in (cheap)."""
    variants: dict[tuple[str, tuple[tuple[str, Any], ...]], int] = {}
    named = heuristic_names()
    marked = []
    for cell in cells:
        turn = variants.setdefault((cell.viewpoint.key, cell.options), len(variants))
        sampled = (cell.heuristic in SAMPLED_HEURISTICS or cell.heuristic not in named
                   or cell.heuristic == named[turn % len(named)])
        slow = cell.backend in OUTSIDE_PROGRAMS and not sampled
        marked.append(pytest.param(cell, id=cell.id, marks=[pytest.mark.slow] if slow else []))
    return marked


def run_cell(cell: Cell, instance: Any, **limits: Any) -> PuzzleRun:
    """Solve ``instance`` with the cell's viewpoint variant, backend and heuristic."""
    return solve(instance, viewpoint=cell.viewpoint.name, solver=cell.backend,
                 heuristic=cell.heuristic, options=dict(cell.options), time_limit=60, **limits)


def assert_solves(cell: Cell, instances: Sequence[Any]) -> None:
    """The cell solves every instance as the checker and the known solution say, or, if
    its backend's declaration rules it out, refuses naming the missing capability."""
    missing = BACKENDS.get(cell.backend).unavailable()
    if missing:
        pytest.skip(f"backend {cell.backend!r} is unavailable here: {missing}")
    refusal = cell.refusal(instances[0])
    if refusal:
        with pytest.raises(UnsupportedCombination, match=f"lacks {re.escape(refusal)}"):
            run_cell(cell, instances[0])
        return
    for number, instance in enumerate(instances):
        run = run_cell(cell, instance)
        if number == 0:
            assert_sizes(cell, instance, run.result.statistics)
        kind = PUZZLES.get(cell.viewpoint.puzzle)  # the contract's roles, not fields
        name = kind.instance_name(instance)
        assert run.result.status is Status.SOLVED, (name, run.result.message)
        assert run.violations == (), (name, run.violations)
        assert run.solution == kind.known_solution(instance), name


def assert_sizes(cell: Cell, instance: Any, statistics: Statistics) -> None:
    """The run's model-size figures are those of the model the viewpoint builds and of
    that model lowered to the cell's backend (not checked where the search is not of
    the built model alone: ``+symmetric`` adds constraints, lazy ones add cuts)."""
    model = cell.viewpoint.build(instance, dict(cell.options)).model
    if Heuristic.parse(cell.heuristic).symmetric or model.lazy:
        return
    lowered = lower(model, BACKENDS.get(cell.backend)())
    built = sum(Counter(c.kind for c in [*model.constraints, *model.after_search]).values())
    assert (statistics.model_variables, statistics.model_constraints) == (
        len(set(model.variables)), built)
    assert (statistics.posted_variables, statistics.posted_constraints) == (
        len(set(lowered.variables)), len(lowered.constraints))


def refused_as_declared(puzzle: str, instance: Any, viewpoint: str, backend: str,
                        heuristic: str = "input/min") -> bool:
    """True, after checking the refusal, when the backend's declaration rules out this
    viewpoint's model: the caller then has nothing to count."""
    missing = BACKENDS.get(backend).unavailable()
    if missing:
        pytest.skip(f"backend {backend!r} is unavailable here: {missing}")
    model = get_viewpoint(puzzle, viewpoint).build(instance).model
    refusal = expected_refusal(BACKENDS.get(backend).capabilities, model, heuristic)
    if refusal:
        with pytest.raises(UnsupportedCombination, match=f"lacks {re.escape(refusal)}"):
            solve(instance, viewpoint=viewpoint, solver=backend, heuristic=heuristic)
    return refusal is not None
