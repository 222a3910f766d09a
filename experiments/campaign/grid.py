"""The grid of a campaign: every instance x viewpoint x solver x heuristic x repeat.

Expansion reads every instance file once, so a bad file or a missing instance is
reported before the first run, and checks every viewpoint, solver and heuristic
combination on a built model, so a combination a solver cannot run is reported up
front too (or left out, with ``skip_unsupported = true``). Every instance gets a
label unique within the campaign (:func:`instance_labels`), or the spec is refused.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

from experiments.campaign.identity import RunIdentity
from experiments.campaign.path_ends import distinct_path_ends
from experiments.campaign.plugins import resolve_modules
from experiments.campaign.sizing import too_many_runs
from experiments.campaign.spec import ExperimentSpec, SolverChoice, ViewpointChoice
from puzzlelab.errors import (
    ModelTooLarge,
    OptionError,
    PuzzleLabError,
    UnknownName,
    UnsupportedCombination,
)
from puzzlelab.wording import counted
from puzzles import PUZZLES
from puzzles.picking import pick_instance
from solvers import Heuristic, prepare
from solvers.symmetry import counting_refusal
from viewpoints import get_viewpoint


@dataclass(frozen=True)
class RunTask:
    """One run of the grid: its identity, and what a worker needs beside it: the modules
    the spec imports first, and the instance itself (``payload``)."""

    identity: RunIdentity
    modules: tuple[str, ...] = ()
    payload: Any = field(default=None, compare=False, repr=False)


class GridTasks(Sequence[RunTask]):
    """The runs of a grid in grid order, made when asked for: instance x combination x
    repeat, so a million-run campaign holds its instances and combinations, not a
    million tasks (each run's identity is made from its position)."""

    def __init__(self, instances: Sequence[_Instance], combinations: Sequence[_Combination],
                 repeats: int, modules: tuple[str, ...], spec: ExperimentSpec) -> None:
        self.instances, self.combinations = list(instances), list(combinations)
        self.repeats, self.modules, self._spec = repeats, modules, spec
        self._per_instance = len(self.combinations) * repeats

    def __len__(self) -> int:
        return len(self.instances) * self._per_instance

    @overload
    def __getitem__(self, index: int) -> RunTask: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[RunTask]: ...

    def __getitem__(self, index: int | slice) -> RunTask | Sequence[RunTask]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        instance, rest = divmod(index, self._per_instance)
        combination, repeat = divmod(rest, self.repeats)
        return self._task(self.instances[instance], self.combinations[combination], repeat,
                          index)

    def __iter__(self) -> Iterator[RunTask]:
        position = 0
        for instance in self.instances:
            for combination in self.combinations:
                for repeat in range(self.repeats):
                    yield self._task(instance, combination, repeat, position)
                    position += 1

    def _task(self, instance: _Instance, combination: _Combination, repeat: int,
              position: int) -> RunTask:
        spec = self._spec
        choice, solver, heuristic = combination
        identity = RunIdentity(
            puzzle=spec.puzzle, instance_file=instance.file, instance_name=instance.name,
            instance=instance.label, viewpoint_name=choice.name, viewpoint=choice.label,
            options=dict(choice.options), solver=solver.label, solver_name=solver.name,
            solver_options=dict(solver.options), heuristic=heuristic, repeat=repeat,
            seed=spec.seed, time_limit=spec.time_limit, memory_limit_mb=spec.memory_limit_mb,
            max_solutions=spec.max_solutions, position=position,
            instance_position=instance.position)
        return RunTask(identity, self.modules, instance.payload)

    def planned_by_group(self) -> Counter[tuple[str, str, str]]:
        """How many runs each column group (viewpoint label, solver, heuristic) plans."""
        planned: Counter[tuple[str, str, str]] = Counter()
        for choice, solver, heuristic in self.combinations:
            planned[choice.label, solver.label, heuristic] += (len(self.instances)
                                                                * self.repeats)
        return planned

    def first_of_each_instance(self) -> Iterator[RunTask]:
        """One task of each instance (its first run), in grid order: what is stored of
        the instance itself."""
        for number in range(len(self.instances) if self._per_instance else 0):
            yield self[number * self._per_instance]


@dataclass(frozen=True)
class Grid:
    """The runs of a campaign in grid order, and the combinations left out (with why)."""

    tasks: GridTasks
    skipped: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Instance:
    file: str
    name: str
    label: str
    position: int
    payload: Any


_Combination = tuple[ViewpointChoice, SolverChoice, str]
"""A viewpoint choice, a solver choice and a heuristic: one column group's runs."""


@dataclass(frozen=True)
class _Picked:
    """An instance a spec picks, with what its label is made from."""

    set_index: int
    shown: str  # the file as the spec writes it
    path: Path  # the file, resolved
    name: str  # the puzzle's name for it: unique within its file
    position: int  # 0-based, in its file
    payload: Any
    title: str | None = None  # the title the file gives it, where its format has one

    @property
    def own_name(self) -> str | None:
        """The name (or else the title) the file gives the instance, or None where its
        name is made from the file's own (its stem, or ``stem#N`` for the N-th puzzle of
        a file without names) and the file gives no title."""
        stem = self.path.stem
        if self.name not in (stem, f"{stem}#{self.position + 1}"):
            return self.name
        return self.title

    def describe(self) -> str:
        return f"{self.name!r} of {self.shown} (instances[{self.set_index}])"


def expand(spec: ExperimentSpec) -> Grid:
    """Every run of ``spec`` in grid order; unsupported combinations raise or are skipped."""
    instances = _instances(spec)
    refused = _refused_combinations(spec, [instance.payload for instance in instances])
    if refused and not spec.skip_unsupported:
        lines = "\n  ".join(refused.values())
        raise spec.error("solvers", f"{len(refused)} combination(s) cannot run (set "
                         f"skip_unsupported = true to leave them out):\n  {lines}")
    _refuse_too_many(spec, len(instances), len(refused))
    modules = tuple(resolve_modules(spec.modules, spec.path.parent))
    combinations = [(choice, solver, heuristic) for choice in spec.viewpoints
                    for solver in spec.solvers for heuristic in spec.heuristics
                    if (choice.label, solver.label, heuristic) not in refused]
    return Grid(GridTasks(instances, combinations, spec.repeats, modules, spec),
                tuple(refused.values()))


def _refuse_too_many(spec: ExperimentSpec, instances: int, refused: int) -> None:
    """Refuse a grid of more runs than a campaign may plan
    (:data:`~experiments.campaign.sizing.MAX_RUNS`), counted before its tasks are made: a
    typo in ``repeats`` would fill the memory first."""
    cells = len(spec.viewpoints) * len(spec.solvers) * len(spec.heuristics) - refused
    factors = (f"{counted(instances, 'instance')} x {counted(cells, 'combination')} of "
               f"viewpoint, solver and heuristic x {counted(spec.repeats, 'repeat')}")
    why = too_many_runs(instances * cells * spec.repeats, factors)
    if why:
        raise spec.error("repeats" if spec.repeats > 1 else "instances", why)


def _instances(spec: ExperimentSpec) -> list[_Instance]:
    """The instances the spec picks, in its order, each once, under its label."""
    kind = PUZZLES.get(spec.puzzle)
    picked: list[_Picked] = []
    seen: set[tuple[Path, str]] = set()
    for index, instance_set in enumerate(spec.instance_sets):
        key = f"instances[{index}]"
        shown = instance_set.written or str(instance_set.path)
        try:
            everything = list(kind.read(instance_set.path))
            # an integer picks by position, a string by name (or, if no name, by position)
            chosen = ([pick_instance(everything, s, instance_set.path, kind.instance_name)
                       for s in instance_set.select] if instance_set.select else everything)
        except PuzzleLabError as error:
            raise spec.error(key, str(error)) from None
        resolved = instance_set.path.resolve()
        positions = {id(item): position for position, item in enumerate(everything)}
        for payload in chosen:
            name = kind.instance_name(payload)
            if (resolved, name) in seen:  # picked again (by another set, or twice in one)
                continue
            seen.add((resolved, name))
            position = positions[id(payload)]
            picked.append(_Picked(index, shown, resolved, name, position, payload,
                                  kind.instance_title(payload)))
    if not picked:
        raise spec.error("instances", "selects no instance")
    labels = instance_labels(spec, picked)
    return [_Instance(item.shown, item.name, label, position, item.payload)
            for position, (item, label) in enumerate(zip(picked, labels))]


def instance_labels(spec: ExperimentSpec, picked: Sequence[_Picked]) -> list[str]:
    """A label per instance, unique within the campaign: the tables' rows and the store's
    ``instance`` column.

    An instance the file names is labelled by that name; one named after its file
    (``p``, ``p#2``) by the shortest end of the file's path, relative to the spec, that
    no other file of the campaign shares (``a/p#2``, ``b/p#2``). A name two files both
    give is prefixed with that end of its file's path (``a/set:lambda``). A label still
    given twice after that is refused, naming both instances.
    """
    relative = {path: os.path.relpath(path, spec.path.parent)
                for path in dict.fromkeys(item.path for item in picked)}
    ends = distinct_path_ends([relative[item.path] for item in picked])
    labels = []
    for item, end in zip(picked, ends):
        own = item.own_name
        labels.append(own if own is not None else end + item.name[len(item.path.stem):])
    counts = Counter(labels)
    labels = [f"{end}:{label}" if counts[label] > 1 and item.own_name is not None else label
              for item, end, label in zip(picked, ends, labels)]
    first: dict[str, _Picked] = {}
    for item, label in zip(picked, labels):
        if label in first:
            raise spec.error(f"instances[{item.set_index}]", f"two instances would share the "
                             f"label {label!r} in the tables: {first[label].describe()} and "
                             f"{item.describe()}; rename one of them in its file")
        first[label] = item
    return labels


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
                cell = (choice.label, solver.label, heuristic)
                try:
                    prepare(model, solver.name, heuristic, spec.seed)
                except UnknownName as error:
                    unknown.setdefault(heuristic, []).append(str(error))
                    refused[cell] = f"{choice.label} on {solver.label} with {heuristic}: {error}"
                except UnsupportedCombination as error:
                    refused[cell] = f"{choice.label} on {solver.label} with {heuristic}: {error}"
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
