"""What the reasoning tests share: a shipped instance by name, and whether a rung solves
an instance, found without the grader (the rung's viewpoint propagated at the root here,
or Shikaku's levels swept here)."""

from __future__ import annotations

import dataclasses
from typing import Any

from experiments.reasoning import ladder_of
from puzzles import PUZZLES
from solvers import propagate_root
from viewpoints import get_viewpoint
from viewpoints.grades import RootPropagation
from viewpoints.shikaku_levels import RootLevel, propagation_levels

DATA = {name: PUZZLES.get(name).data_folder() for name in PUZZLES.names()}


def instance_of(puzzle: str, file: str, name: str | None = None) -> Any:
    """The instance ``name`` (the first by default) of a shipped file of ``puzzle``."""
    kind = PUZZLES.get(puzzle)
    every = kind.read(DATA[puzzle] / file)
    return every[0] if name is None else next(i for i in every if kind.instance_name(i) == name)


def solved_at(puzzle: str, place: int, instance: Any) -> bool:
    """Whether rung ``place`` of the puzzle's ladder leaves every unknown with one value."""
    runs = ladder_of(puzzle).rungs[place].runs
    if isinstance(runs, RootPropagation):
        model = get_viewpoint(puzzle, runs.viewpoint).build(instance, runs.options).model
        model = dataclasses.replace(model, after_search=[], lazy=[])
        domains = propagate_root(model, runs.backend, probing=runs.probing)
        return domains is not None and all(len(domains[v]) == 1
                                           for v in model.search_variables())
    assert isinstance(runs, RootLevel)
    levels = (propagation_levels(instance) if runs.channel is None
              else propagation_levels(instance, runs.channel))
    states = {state.level: state for state in levels}
    return states[runs.level].undecided_cells == 0 and states[runs.level].open_placements == 0
