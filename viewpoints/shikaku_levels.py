"""Shikaku propagation levels: how much each constraint family decides before any choice.

After Simonis' chapter "Working with Implications": for an instance, the cells still
undecided after root propagation (through the solving layer's declared root propagation,
:func:`solvers.propagate_root`) as constraint families are added one at a time, each
level holding the ones before it:

- ``Ini``: set partitioning alone (the ``patterns`` viewpoint);
- ``Set``: plus the cell-room view and its channeling (``channeled``, ``redundant=false
  gcc=false``, channel ``missing`` unless told otherwise);
- ``Red``: plus the redundant constraints: the channel's other form (``channel=both``)
  and the two redundant families (``redundant=true``);
- ``GCC``: plus ``global_cardinality`` on the cell variables (``gcc=true``);
- ``Sub``: plus reasoning on subsets of equations (:func:`subset_zeros`), with the root
  propagation again after each round, to a fixpoint;
- ``SAC``: plus probing at the root (singleton consistency with merging on the
  placements, ``+probe``), again alternated with ``Sub`` to a fixpoint.

Ini to Sub are Choco's root (:data:`ROOT_SOLVER`), whose ``global_cardinality`` reasons
across rooms; SAC is the classic CP solver's (:data:`PROBING_SOLVER`), the one that
probes at the root. A cell is *undecided* when more than one room keeps an open
placement over it (a placement variable whose domain still holds 1). The same test
serves every level: the cell-room view never knows more about a cell than its
placements do, since a room ruled out of the cell variable's domain rules out the
room's placements over it through every form of the channeling but ``implication``
(which is never stronger than ``sum``). With every cell decided, the rooms of all cells
are known, and :func:`forced_solution` reads them off the root domains. Each level also
counts its *open placements* (placement variables not fixed yet), the measure the
published figures use (giant 1's Ini, 995, exceeds its 735 cells).

The levels are the rungs of Shikaku's grade ladder (:class:`RootLevel`, declared in
:mod:`viewpoints.shikaku`), and the ``shikaku-levels`` study tables them beside the
chapter's figures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from puzzlelab.errors import ModelError
from puzzles.shikaku import ShikakuInstance, ShikakuSolution
from solvers import IntVar, Model, linear, propagate_root
from viewpoints.grades import Memo
from viewpoints.registry import get_viewpoint
from viewpoints.shikaku_rooms import Room, rooms_of

Domains = dict[IntVar, tuple[int, ...]]
ROOT_SOLVER = "choco"
"""The solver whose root propagation Ini to Sub measure: Choco, whose
``global_cardinality`` reasons across rooms (``cp`` lowers it to one count per room)."""
PROBING_SOLVER = "cp"
"""The solver that probes the root for SAC: it must declare root probing."""

LEVELS = ("Ini", "Set", "Red", "GCC", "Sub", "SAC")
CHANNELS = ("missing", "sum", "implication")
#: the options of the ``channeled`` viewpoint at Red and GCC, beside ``gcc``
REDUNDANT_OPTIONS = {"channel": "both", "redundant": "true"}


@dataclass(frozen=True)
class LevelState:
    """The root of one level: for each cell, the labels of the rooms that keep an open
    placement over it; the undecided cells (more than one such room) and the open
    placements."""

    level: str
    cell_rooms: Mapping[tuple[int, int], frozenset[int]]
    open_placements: int

    @property
    def undecided_cells(self) -> int:
        """Cells more than one room may still cover."""
        return sum(len(labels) > 1 for labels in self.cell_rooms.values())


class _Placements:
    """The placement variables of a built model, room by room, and their equations."""

    def __init__(self, rooms: list[Room], model: Model) -> None:
        flags = model.search_variables()  # every Shikaku placement viewpoint branches on
        if len(flags) != sum(len(room.placements) for room in rooms):  # them, room by room
            raise ModelError(f"model {model.name!r} does not branch on the placements alone")
        self.rooms, self.flags = rooms, flags
        self.covering: dict[tuple[int, int], list[tuple[int, int]]] = {}  # cell: (room, flag)
        self.equations: list[list[int]] = []  # exactly-one, as flag indices
        index = 0
        for number, room in enumerate(rooms):
            self.equations.append(list(range(index, index + len(room.placements))))
            for placement in room.placements:
                for cell in placement.cells():
                    self.covering.setdefault(cell, []).append((number, index))
                index += 1
        self.equations.extend([flag for _, flag in pairs] for pairs in self.covering.values())

    def possible(self, domains: Domains, flag: int) -> bool:
        """Whether placement ``flag`` may still be chosen."""
        return 1 in domains[self.flags[flag]]

    def possible_in(self, domains: Domains) -> Callable[[int], bool]:
        """:meth:`possible` on ``domains``, as a function of the placement alone."""
        return lambda flag: self.possible(domains, flag)

    def state(self, level: str, domains: Domains) -> LevelState:
        """What the root ``domains`` leave open at ``level``."""
        cell_rooms = {cell: frozenset(self.rooms[room].label for room, flag in pairs
                                      if self.possible(domains, flag))
                      for cell, pairs in self.covering.items()}
        open_flags = sum(len(domains[flag]) > 1 for flag in self.flags)
        return LevelState(level, cell_rooms, open_flags)


def subset_zeros(equations: list[list[int]], possible: Callable[[int], bool]) -> set[int]:
    """The variables that reasoning on subsets of exactly-one equations sets to 0.

    Each equation says that exactly one of its 0/1 variables is 1. When the variables
    still possible (``possible``) in one equation are a proper subset of those of
    another, the 1 of the bigger one lies in the subset, so the rest are 0: from
    ``a + c = 1`` and ``a + c + b = 1``, ``b = 0``.

    >>> sorted(subset_zeros([[0, 2], [0, 1, 2], [1, 3]], lambda v: True))
    [1]
    """
    open_sets = [frozenset(v for v in equation if possible(v)) for equation in equations]
    holding: dict[int, list[int]] = {}
    for number, variables in enumerate(open_sets):
        for variable in variables:
            holding.setdefault(variable, []).append(number)
    zeros: set[int] = set()
    for smaller in set(open_sets):
        if not smaller:
            continue
        pivot = min(smaller, key=lambda v: len(holding[v]))
        for number in holding[pivot]:
            bigger = open_sets[number]
            if len(bigger) > len(smaller) and smaller <= bigger:
                zeros |= bigger - smaller
    return zeros


def _root(model: Model, probing: bool = False) -> Domains:
    domains = propagate_root(model, PROBING_SOLVER if probing else ROOT_SOLVER, probing)
    if domains is None:
        raise ModelError(f"model {model.name!r} fails at the root: the instance has no "
                         f"solution")
    return domains


def _to_fixpoint(model: Model, placements: _Placements, probing: bool,
                 domains: Domains) -> Domains:
    """Subset reasoning and root propagation (with probing if asked) in turn, until the
    reasoning finds no new zero; each zero is added to ``model`` as ``flag = 0``."""
    if probing:
        domains = _root(model, probing)
    while True:
        zeros = subset_zeros(placements.equations,
                             placements.possible_in(domains))
        if not zeros:
            return domains
        for flag in sorted(zeros):
            model.add(linear([(1, placements.flags[flag])], "==", 0))
        domains = _root(model, probing)


def propagation_levels(instance: ShikakuInstance, channel: str = "missing"
                       ) -> Iterator[LevelState]:
    """The root of each level, Ini to SAC, in turn (each one costs more than the one
    before, so a caller may show them as they come)."""
    if channel not in CHANNELS:
        raise ModelError(f"channel must be one of {', '.join(CHANNELS)}, not {channel!r}")
    rooms = rooms_of(instance)
    channeled = get_viewpoint("shikaku", "channeled")
    patterns = get_viewpoint("shikaku", "patterns").build(instance).model
    yield _Placements(rooms, patterns).state("Ini", _root(patterns))
    built = None
    for level, options in (
            ("Set", {"channel": channel, "redundant": "false", "gcc": "false"}),
            ("Red", {**REDUNDANT_OPTIONS, "gcc": "false"}),
            ("GCC", {**REDUNDANT_OPTIONS, "gcc": "true"})):
        built = channeled.build(instance, options).model
        placements = _Placements(rooms, built)
        domains = _root(built)
        yield placements.state(level, domains)
    assert built is not None  # the loop above ran
    domains = _to_fixpoint(built, placements, False, domains)
    yield placements.state("Sub", domains)
    yield placements.state("SAC", _to_fixpoint(built, placements, True, domains))


def forced_solution(instance: ShikakuInstance, state: LevelState) -> ShikakuSolution:
    """The room of every decided cell at ``state`` (labels as in the viewpoints; None for
    an undecided cell): with no cell undecided, the only possible solution.

    A solution covers each cell with a chosen placement, necessarily an open one, so a
    cell that only one room can still cover is that room's in every solution.
    """
    def label(row: int, column: int) -> int | None:
        labels = state.cell_rooms[row, column]
        return next(iter(labels)) if len(labels) == 1 else None

    return ShikakuSolution(tuple(tuple(label(r, c) for c in range(instance.columns))
                                 for r in range(instance.rows)))


@dataclass(frozen=True)
class RootLevel:
    """A propagation level as a rung of the grade ladder: solved when the level's root
    leaves no placement open. The levels come in one sweep, each holding the ones before
    it, so the grading of one instance shares the sweep (in its memo) and stops it at the
    first level that solves."""

    level: str
    channel: str | None = None
    """The Set level's channeling; None: the levels' own default."""

    def describe(self) -> str:
        channel = f" (channel {self.channel})" if self.channel else ""
        return f"level {self.level} of the shikaku-levels study{channel}"

    def solves(self, puzzle: str, instance: Any, memo: Memo) -> bool:
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
    """The levels of one instance: those still to come, and those reached."""

    def __init__(self, states: Iterator[LevelState]) -> None:
        self.states = states
        self.reached: dict[str, LevelState] = {}
