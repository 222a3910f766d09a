"""The grid of a campaign: every instance x viewpoint x solver x heuristic x repeat.

Expansion reads every instance file once, so a bad file or a missing instance is
reported before the first run, and checks every viewpoint, solver and heuristic
combination on a built model, so a combination a solver cannot run is reported up
front too (or left out, with ``skip_unsupported = true``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from experiments.plugins import resolve_modules
from experiments.spec import ExperimentSpec, ViewpointChoice
from puzzlelab.errors import (
    ModelTooLarge,
    OptionError,
    PuzzleLabError,
    UnknownName,
    UnsupportedCombination,
)
from puzzles import PUZZLES
from puzzles.kind import pick_instance
from solvers import Heuristic, prepare
from solvers.symmetry import counting_refusal
from viewpoints import get_viewpoint


@dataclass(frozen=True)
class RunTask:
    """One run of the grid: everything a worker needs, the instance itself included."""

    key: str
    position: int
    puzzle: str
    instance_file: str
    instance: str
    instance_position: int
    viewpoint: str
    viewpoint_name: str
    options: Mapping[str, Any]
    solver: str
    heuristic: str
    repeat: int
    seed: int
    time_limit: float
    memory_limit_mb: int
    max_solutions: int | None
    modules: tuple[str, ...] = ()
    payload: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Grid:
    """The runs of a campaign in grid order, and the combinations left out (with why)."""

    tasks: tuple[RunTask, ...]
    skipped: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Instance:
    file: str
    name: str
    position: int
    payload: Any


def run_key(instance_file: str, instance: str, viewpoint: str, solver: str, heuristic: str,
            repeat: int) -> str:
    """The identity of a run in the store: what resuming compares."""
    return json.dumps([instance_file, instance, viewpoint, solver, heuristic, repeat])


def expand(spec: ExperimentSpec) -> Grid:
    """Every run of ``spec`` in grid order; unsupported combinations raise or are skipped."""
    instances = _instances(spec)
    refused = _refused_combinations(spec, [instance.payload for instance in instances])
    if refused and not spec.skip_unsupported:
        lines = "\n  ".join(refused.values())
        raise spec.error("solvers", f"{len(refused)} combination(s) cannot run (set "
                         f"skip_unsupported = true to leave them out):\n  {lines}")
    modules = tuple(resolve_modules(spec.modules, spec.path.parent))
    tasks: list[RunTask] = []
    for instance in instances:
        for choice in spec.viewpoints:
            for solver in spec.solvers:
                for heuristic in spec.heuristics:
                    if (choice.label, solver, heuristic) in refused:
                        continue
                    for repeat in range(spec.repeats):
                        tasks.append(RunTask(
                            run_key(instance.file, instance.name, choice.label, solver,
                                    heuristic, repeat),
                            len(tasks), spec.puzzle, instance.file, instance.name,
                            instance.position, choice.label, choice.name,
                            dict(choice.options), solver, heuristic, repeat, spec.seed,
                            spec.time_limit, spec.memory_limit_mb, spec.max_solutions, modules,
                            instance.payload))
    return Grid(tuple(tasks), tuple(refused.values()))


def _instances(spec: ExperimentSpec) -> list[_Instance]:
    kind = PUZZLES.get(spec.puzzle)
    chosen: list[_Instance] = []
    seen: set[tuple[str, str]] = set()
    names: set[str] = set()
    for index, instance_set in enumerate(spec.instance_sets):
        key = f"instances[{index}]"
        shown = instance_set.written or str(instance_set.path)
        try:
            everything = list(kind.read(instance_set.path))
            # an integer picks by position, a string by name (or, if no name, by position)
            picked = ([pick_instance(everything, s, instance_set.path, kind.instance_name)
                       for s in instance_set.select] if instance_set.select else everything)
        except PuzzleLabError as error:
            raise spec.error(key, str(error)) from None
        for payload in picked:
            name = kind.instance_name(payload)
            if (shown, name) in seen:
                continue
            seen.add((shown, name))
            shown_name = name if name not in names else f"{instance_set.path.stem}:{name}"
            names.add(shown_name)
            chosen.append(_Instance(shown, shown_name, len(chosen), payload))
    if not chosen:
        raise spec.error("instances", "selects no instance")
    return chosen


def _refused_combinations(spec: ExperimentSpec,
                          samples: list[Any]) -> dict[tuple[str, str, str], str]:
    """Combinations a solver refuses, each with its reason, checked for every viewpoint on
    the model of the first instance it can build."""
    refused: dict[tuple[str, str, str], str] = {}
    unknown: dict[str, list[str]] = {}
    built = 0
    for index, heuristic in enumerate(spec.heuristics):
        reason = _refused_heuristic(spec, heuristic)
        if reason:
            raise spec.error(f"heuristics[{index}]", reason)
    for choice in spec.viewpoints:
        model = _first_model(spec, choice, samples)
        if model is None:  # too big for the viewpoint everywhere: every run will say so
            continue
        built += 1
        for solver in spec.solvers:
            for heuristic in spec.heuristics:
                try:
                    prepare(model, solver, heuristic, spec.seed)
                except UnknownName as error:
                    unknown.setdefault(heuristic, []).append(str(error))
                    refused[(choice.label, solver, heuristic)] = (
                        f"{choice.label} on {solver} with {heuristic}: {error}")
                except UnsupportedCombination as error:
                    refused[(choice.label, solver, heuristic)] = (
                        f"{choice.label} on {solver} with {heuristic}: {error}")
    for index, heuristic in enumerate(spec.heuristics):
        if built and len(unknown.get(heuristic, [])) == built * len(spec.solvers):
            raise spec.error(f"heuristics[{index}]", unknown[heuristic][0])
    return refused


def _refused_heuristic(spec: ExperimentSpec, heuristic: str) -> str | None:
    """Why ``heuristic`` cannot run in this campaign whatever the model, or None."""
    try:
        parsed = Heuristic.parse(heuristic)
    except OptionError as error:
        return str(error)
    except UnknownName:  # reported below, with the valid names of the models' orders
        return None
    return counting_refusal(spec.max_solutions) if parsed.symmetric else None


def _first_model(spec: ExperimentSpec, choice: ViewpointChoice, samples: list[Any]) -> Any:
    """The model of the first instance the viewpoint builds (the others: too big)."""
    try:
        viewpoint = get_viewpoint(spec.puzzle, choice.name)
        for sample in samples:
            try:
                return viewpoint.build(sample, choice.options).model
            except ModelTooLarge:
                continue
    except PuzzleLabError as error:
        index = spec.viewpoints.index(choice)
        raise spec.error(f"viewpoints[{index}]", str(error)) from None
    return None
