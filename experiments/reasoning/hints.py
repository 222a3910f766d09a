"""Hints on a partly filled grid (``puzzlelab explain --from PARTIAL``): the entries a
person made, read off the grid as the values the viewpoint's arrays take beyond the
clues; each entry no solution agrees with, with a step showing why; otherwise the next
step(s) from the clues and the entries.

The partial grid is a file of the puzzle's own format: the clues and the entries. Entries
are found the same way for every puzzle, by building the viewpoint on both grids: a
variable of a named array whose values are narrower on the partial grid holds an entry.
Which puzzles' formats can hold entries: ``docs/explanations.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from experiments.reasoning.explain_check import refuted
from experiments.reasoning.explain_engine import OutOfTime
from experiments.reasoning.explain_units import Board, Domains
from experiments.reasoning.explaining import entered, explain, step_finder, worded
from experiments.reasoning.steps import Explanation, Fact, Step
from puzzlelab.errors import PuzzleLabError, SolverError
from solvers import Model
from solvers.filtering import FilteringTimeout

Entries = dict[tuple[str, tuple[int, ...]], int]
"""Values a person entered, by array name and index, in the puzzle's values."""


@dataclass(frozen=True)
class WrongEntry:
    """An entry that no solution of the puzzle agrees with.

    Attributes:
        entry: the entry as a fact in the puzzle's words (``r1c2 = 5``).
        step: a step from the clues and this entry to no solution (its constraints and
            premises say why), or None when the time limit came first.
    """

    entry: Fact
    step: Step | None

    def to_json(self) -> dict[str, object]:
        return {"entry": self.entry.to_json(),
                "step": None if self.step is None else self.step.to_json()}


@dataclass(frozen=True)
class Hint:
    """What to tell a person about a partly filled grid.

    Attributes:
        entries: the entries read off the partial grid, as facts.
        wrong: the entries no solution agrees with; when there is one, no next step.
        explanation: the next step(s) from the clues and the entries, when no entry is
            wrong (its ending says why it stopped), else None.
    """

    entries: tuple[Fact, ...]
    wrong: tuple[WrongEntry, ...]
    explanation: Explanation | None

    @property
    def steps(self) -> tuple[Step, ...]:
        """The next steps (none when an entry is wrong)."""
        return () if self.explanation is None else self.explanation.steps

    def to_json(self) -> dict[str, object]:
        return {"entries": [fact.to_json() for fact in self.entries],
                "wrong": [wrong.to_json() for wrong in self.wrong],
                "explanation": None if self.explanation is None
                else self.explanation.to_json()}


def entries_of(instance: Any, partial: Any, *, viewpoint: str | None = None,
               options: Mapping[str, Any] | None = None,
               puzzle_model: Model | None = None) -> Entries:
    """The entries of ``partial`` (``instance`` with some values filled in): each named
    array's variable whose values are narrower there, with its one value. A clue of
    ``instance`` missing or changed in ``partial``, a value narrowed to several, or a
    partial grid that differs in what no array shows is a ``PuzzleLabError`` naming it.
    ``puzzle_model``: the viewpoint's model of ``instance``, when it is built already."""
    from puzzles import puzzle_of
    from viewpoints import TERMS

    kind = puzzle_of(instance)
    if puzzle_of(partial).name != kind.name:
        raise PuzzleLabError(f"the partial grid is a {puzzle_of(partial).name} puzzle, not "
                             f"{kind.name}")
    chosen = _viewpoint(kind.name, viewpoint)
    puzzle_model = puzzle_model or chosen.build(instance, options).model
    partial_model = chosen.build(partial, options).model
    terms = TERMS.get(kind.name)
    entries: Entries = {}
    for name, array in puzzle_model.arrays.items():
        other = partial_model.arrays.get(name)
        if other is None or other.shape != array.shape:
            raise PuzzleLabError(f"the partial grid is not {kind.instance_name(instance)} "
                                 f"with entries: viewpoint {chosen.key} builds its {name} "
                                 f"otherwise (another size, or other clues)")
        for variable, seen in zip(array.variables, other.variables, strict=True):
            given, now = frozenset(variable.domain), frozenset(seen.domain)
            if now == given:
                continue
            index = array.position(variable)
            where = terms.subject(instance, name, index).name
            if not now <= given:
                clue = ", ".join(str(value + array.offset) for value in sorted(given))
                raise PuzzleLabError(
                    f"{where}: the puzzle's clue {clue} is missing from the partial grid"
                    if given < now else
                    f"{where}: the partial grid has {_shown(now, array.offset)} where the "
                    f"puzzle's clue is {clue}")
            if len(now) > 1:
                raise PuzzleLabError(f"{where}: the partial grid leaves "
                                     f"{_shown(now, array.offset)}, not one value")
            entries[(name, index)] = _one(now) + array.offset
    if not entries and _clues_text(kind, partial) != _clues_text(kind, instance):
        raise PuzzleLabError(f"the partial grid's clues differ from "
                             f"{kind.instance_name(instance)}'s, and no cell of viewpoint "
                             f"{chosen.key} holds an entry: a {kind.name} file cannot hold "
                             f"a partly solved grid")
    return entries


def hint(instance: Any, partial: Any, *, viewpoint: str | None = None,
         options: Mapping[str, Any] | None = None, time_limit: float | None = None,
         steps: int = 1) -> Hint:
    """The hint for ``partial`` (``instance`` partly filled): its wrong entries, each with
    a step to no solution, else the next ``steps`` steps. ``time_limit`` (seconds) bounds
    the search for each wrong entry's step and the next steps."""
    from puzzles import puzzle_of

    kind = puzzle_of(instance)
    chosen = _viewpoint(kind.name, viewpoint)
    built = chosen.build(instance, options)
    entries = entries_of(instance, partial, viewpoint=viewpoint, options=options,
                         puzzle_model=built.model)
    board = Board(built.model, instance, kind.name)
    known = board.start()
    facts = {key: board.known(variable, values) for key, value in entries.items()
             for variable, values in entered(board, {key: value}).items()}
    wrong = [key for key in entries if not _admits(board, known, key, entries)]
    if not wrong:
        explanation = explain(instance, viewpoint=chosen.key, options=options,
                              time_limit=time_limit, entries=entries, steps=steps)
        return Hint(tuple(facts.values()), (), explanation)
    finder = step_finder(board, _deadline(time_limit))
    found = []
    for key in wrong:
        with_entry = {**known, **entered(board, {key: entries[key]})}
        try:
            step = finder.search_step(with_entry)
        except (OutOfTime, FilteringTimeout):
            step = None
        if step is not None and not refuted(board.model, step, with_entry, board.universe):
            raise SolverError(f"a step failed its soundness check: "
                              f"{worded(board, step, with_entry).text}")
        found.append(WrongEntry(facts[key], None if step is None
                                else worded(board, step, with_entry)))
    return Hint(tuple(facts.values()), tuple(found), None)


def _viewpoint(puzzle: str, viewpoint: str | None) -> Any:
    from viewpoints import DEFAULTS, get_viewpoint

    return get_viewpoint(puzzle, viewpoint or DEFAULTS.get(puzzle).viewpoint)


def _admits(board: Board, known: Domains, key: tuple[str, tuple[int, ...]],
            entries: Entries) -> bool:
    """Whether some solution of the clues agrees with the entry ``key`` (CP-SAT; a
    search that runs out of time proves nothing, and the entry is not called wrong)."""
    from experiments.reasoning.explain_check import has_no_solution

    constraints = [c for unit in board.units for c in unit.constraints]
    domains = {**known, **entered(board, {key: entries[key]})}
    return not has_no_solution(board.model, constraints, domains, [])


def _deadline(time_limit: float | None) -> float | None:
    import time

    return None if time_limit is None else time.perf_counter() + time_limit


def _one(values: frozenset[int]) -> int:
    return next(iter(values))


def _shown(values: frozenset[int], offset: int) -> str:
    return " or ".join(str(value + offset) for value in sorted(values))


def _clues_text(kind: Any, instance: Any) -> str:
    """The instance as its puzzle writes it, without its name or known solution."""
    return str(kind.write(kind.renamed(instance, "")))
