"""Searching first among the solutions a model's symmetries leave unchanged (``+symmetric``).

A viewpoint may declare symmetries (:meth:`solvers.model.Model.add_symmetry`):
permutations of variables that turn every solution into a solution, such as the
quarter turn of a nonogram whose clues read the same after it. When an instance has
exactly one solution, every such symmetry leaves that solution unchanged, so it is
also a solution of the *restricted* model, in which each variable equals its image:
a smaller problem (a quarter of the free cells for a quarter turn) whose propagation
runs through four lines at once. ``+symmetric`` searches the restricted model first
and, only if that has no solution, the whole model. So the verdict (a solution, or
none) is the one the whole model gives, though with several solutions it may be
another of them. The run's figures combine both searches as each statistic declares
(:mod:`puzzlelab.statistics`: most are sums), and its ``symmetric`` account
(:class:`~solvers.record.SymmetricSearch`) says which of them answered.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from puzzlelab.statistics import Combine, run_statistics
from solvers.builders import linear
from solvers.model import Model
from solvers.record import SolveResult, Statistics, Status, SymmetricSearch


def counting_refusal(max_solutions: int | None) -> str | None:
    """Why ``+symmetric`` cannot run under this solution limit (0 or None: every
    solution), or None where it can."""
    if max_solutions == 1:
        return None
    asked = "count them all" if not max_solutions else f"look for {max_solutions}"
    return (f"+symmetric looks for one solution and cannot {asked} (counting solutions "
            f"needs the whole model): leave out +symmetric")


def restricted(model: Model) -> Model:
    """``model`` plus ``x == image(x)`` for every variable of every declared symmetry."""
    equalities, posted = [], set()
    for images in model.symmetries.values():
        for variable, image in images.items():
            pair = frozenset((variable, image))
            if variable is not image and pair not in posted:
                posted.add(pair)
                equalities.append(linear([(1, variable), (-1, image)], "==", 0))
    return dataclasses.replace(model, name=f"{model.name}-symmetric",
                               variables=list(model.variables),
                               constraints=[*model.constraints, *equalities])


def description(model: Model, answered_by: str) -> SymmetricSearch:
    """The run's account of its symmetric search: the symmetries imposed and which
    search answered."""
    return SymmetricSearch(tuple(sorted(model.symmetries)), answered_by)


def combined(first: SolveResult, second: SolveResult, model: Model,
             heuristic: str) -> SolveResult:
    """The record of a restricted search with no solution (``first``) followed by the
    search of the whole model (``second``).

    A second search that failed before it measured anything (out of memory) keeps its
    unmeasured record: the restricted search's figures alone would pass for the run's.
    """
    if second.statistics.solve_s is None:
        return relabelled(second, model, heuristic, restricted_search=False)
    a, b = first.statistics.as_dict(), second.statistics.as_dict()
    statistics = Statistics(**{statistic.name: _COMBINE[statistic.combine](
        a[statistic.name], b[statistic.name], a) for statistic in run_statistics()})
    return dataclasses.replace(second, statistics=statistics, heuristic=heuristic,
                               symmetric=description(model, "whole model"))


def relabelled(result: SolveResult, model: Model, heuristic: str, *,
               restricted_search: bool) -> SolveResult:
    """``result`` under the full heuristic name, with its symmetric search described. A
    restricted search's result is never ``complete``: it saw part of the model's space."""
    answered_by = "symmetric solutions" if restricted_search else "whole model"
    return dataclasses.replace(result, heuristic=heuristic,
                               complete=result.complete and not restricted_search,
                               symmetric=description(model, answered_by))


def answered(result: SolveResult) -> bool:
    """Whether the restricted search settled the run (anything but 'no symmetric solution')."""
    return result.status is not Status.UNSATISFIABLE


def _sum(a: Any, b: Any, first: Mapping[str, Any]) -> Any:
    return None if a is None and b is None else (a or 0) + (b or 0)


def _max(a: Any, b: Any, first: Mapping[str, Any]) -> Any:
    return None if a is None and b is None else max(x for x in (a, b) if x is not None)


def _after_branches(a: Any, b: Any, first: Mapping[str, Any]) -> Any:
    """The second search's figure counted from the run's start: after every branch of
    the first (which found no solution)."""
    return None if b is None else b + (first["branches"] or 0)


_COMBINE: dict[Combine, Callable[[Any, Any, Mapping[str, Any]], Any]] = {
    "sum": _sum, "max": _max, "last": lambda a, b, first: b, "after-branches": _after_branches,
}
