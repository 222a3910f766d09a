"""Each puzzle's grades, declared once: ``puzzlelab grade``, ``generate --difficulty``,
their help and their documentation all read these ladders.

A rung names what runs (a viewpoint with the options that express the reasoning, at the
root of a backend that declares root propagation; for Shikaku a level of the
propagation-level study, :mod:`experiments.studies.shikaku_levels`) and says in one line
what it means. Rungs are nested: each holds the reasoning of the ones below it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from experiments.studies.grading.ladder import Ladder, Memo, RootPropagation, Rung, Search
from puzzlelab.registry import Registry

if TYPE_CHECKING:
    from experiments.studies.shikaku_levels.levels import LevelState

LADDERS: Registry[Ladder] = Registry("graded puzzle", order=lambda ladder: ladder.puzzle)
"""Every puzzle's ladder, by puzzle name."""


@dataclass(frozen=True)
class StudyLevel:
    """A level of the Shikaku propagation-level study: solved when the level's root leaves
    no placement open. The study computes its levels in one sweep, each holding the ones
    before it, so the grading of one instance shares the sweep (in its memo) and stops
    it at the first level that solves."""

    level: str
    channel: str | None = None
    """The Set level's channeling; None: the study's own default."""

    def describe(self) -> str:
        channel = f" (channel {self.channel})" if self.channel else ""
        return f"level {self.level} of the shikaku-levels study{channel}"

    def solves(self, puzzle: str, instance: Any, memo: Memo) -> bool:
        from experiments.studies.shikaku_levels.levels import propagation_levels

        key = f"shikaku-levels-{self.channel}"
        sweep = memo.get(key)
        if not isinstance(sweep, _Sweep):
            levels = (propagation_levels(instance) if self.channel is None
                      else propagation_levels(instance, self.channel))
            sweep = memo[key] = _Sweep(levels)
        while self.level not in sweep.reached:
            state = next(sweep.states, None)
            if state is None:
                raise LookupError(f"the shikaku-levels study has no level {self.level!r}")
            sweep.reached[state.level] = state
        return sweep.reached[self.level].open_placements == 0


class _Sweep:
    """The levels study's sweep of one instance: the levels still to come, those reached."""

    def __init__(self, states: Iterator[LevelState]) -> None:
        self.states = states
        self.reached: dict[str, LevelState] = {}


def _declare(ladder: Ladder) -> None:
    LADDERS.add(ladder.puzzle, ladder)


_declare(Ladder("sudoku", (
    Rung("weak", RootPropagation("classic", {"alldiff": "weak"}),
         "weak all_different: a placed digit leaves its row, column and box (naked singles)"),
    Rung("strong", RootPropagation("classic", {"alldiff": "strong"}, backend="choco"),
         "strong (domain) all_different: a digit that no way of filling its unit leaves "
         "to a cell leaves it (naked and hidden pairs, triples...: Choco's arc "
         "consistency)"),
    Rung("probing", RootPropagation("classic", {"alldiff": "strong"}, probing=True),
         "root probing (singleton consistency) over strong all_different: a digit whose "
         "trial fails at once leaves its cell (on cp, whose strong all_different is "
         "bounds consistency; on the course's puzzles it solves all the rung below does)"),
), Search("classic", "first-fail/min", {"alldiff": "strong"}), steers_generator=True))

_declare(Ladder("shikaku", tuple(Rung(level.lower(), StudyLevel(level), meaning)
                                for level, meaning in (
    ("Ini", "set partitioning alone: each room one placement, each cell covered once"),
    ("Set", "plus the cell-room view, channeled to the placements"),
    ("Red", "plus the redundant constraints between the two views"),
    ("GCC", "plus global cardinality on the cells: each room takes its clue's number"),
    ("Sub", "plus reasoning on subsets of the exactly-one equations, to a fixpoint"),
    ("SAC", "plus probing at the root (singleton consistency), to a fixpoint"),
)), Search("channeled", "fewest-placements/max")))

_declare(Ladder("nonogram", (
    Rung("line", RootPropagation("regular"),
         "line solving: each row and column alone keeps the cells every placement of its "
         "clue agrees on, to a fixpoint"),
    Rung("probing", RootPropagation("regular", probing=True),
         "line solving and root probing: a cell whose trial value fails at once takes "
         "the other"),
), Search("regular", "input/min")))

_declare(Ladder("hashi", (
    Rung("rules", RootPropagation("bridges", {"connect": "propagator", "improve": "none"}),
         "the rules alone: each island's number, at most two bridges a pair, no "
         "crossing, connectivity"),
    Rung("improved", RootPropagation("bridges", {"connect": "propagator", "improve": "all"}),
         "plus the improvement rules: two 1-islands not joined, two 2-islands not "
         "doubled, no closed row of three"),
), Search("bridges", "islands-first/max", {"connect": "propagator", "improve": "all"})))
