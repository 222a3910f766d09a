"""Shikaku viewpoints: placements chosen as 0/1 (set partitioning), and cells -> rooms.

Every viewpoint starts from the same enumeration, the rooms and their placements
(:mod:`viewpoints.shikaku_rooms`). A cell that no placement covers makes the instance
unsolvable: the viewpoints refuse to build it (``ModelError``, naming the cell) rather
than hand a solver a model that fails with no reason given.

The ``geometry`` viewpoint (rooms as positioned rectangles) is in
:mod:`viewpoints.shikaku_geometry`, the ``channeled`` one (placements and cells
together) in :mod:`viewpoints.shikaku_channeled`. Every viewpoint offers two static variable
orders, for heuristics such as ``largest-first/max``: ``largest-first`` (rooms by
decreasing area) and ``fewest-placements`` (rooms by increasing number of
placements); cell-room, which branches on cells, orders its cells to match.
"""

from __future__ import annotations

from collections.abc import Callable

from puzzles.shikaku import ShikakuInstance, ShikakuSolution
from solvers import (
    Assignment,
    IntVar,
    Model,
    equivalent_to_equality,
    exactly_one,
    global_cardinality,
    linear,
)
from viewpoints.grades import Generation, Rung, Search, set_ladder
from viewpoints.registry import BuiltModel, Option, set_defaults, viewpoint
from viewpoints.shikaku_levels import RootLevel
from viewpoints.shikaku_rooms import ROOM_ORDERS, Room, rooms_of
from viewpoints.shikaku_terms import ShikakuTerms
from viewpoints.terms import set_terms

GCC = Option("true", ("true", "false"),
             "also post the global cardinality constraint: room k takes exactly clue_k cells")

# the fastest to solve and to count to 2 on the published sets; why: docs/defaults.md
set_defaults("shikaku", viewpoint="patterns", solver="choco", heuristic="input/min")

set_terms("shikaku", ShikakuTerms())

GCC_OPTIONS = {"size": "12x12", "max-area": "16"}
"""Where global cardinality decided a generated puzzle most often (results/difficulty-
benchmark): more rooms competing for the same cells, which counting sorts out."""

set_ladder("shikaku", tuple(Rung(level.lower(), RootLevel(level), meaning) for level, meaning in (
    ("Ini", "set partitioning alone: each room one placement, each cell covered once"),
    ("Set", "plus the cell-room view, channeled to the placements"),
    ("Red", "plus the redundant constraints between the two views"),
    ("GCC", "plus global cardinality on the cells: each room takes its clue's number"),
    ("Sub", "plus reasoning on subsets of the exactly-one equations, to a fixpoint"),
    ("SAC", "plus probing at the root (singleton consistency), to a fixpoint"),
)), Search("channeled", "fewest-placements/max"), generation={
    "gcc": Generation(GCC_OPTIONS, "a larger grid with larger rooms: global cardinality "
                      "decides few generated puzzles", "a longer --time-limit (600)"),
    "sac": Generation({}, "a larger grid reached it no sooner",
                      "a longer --time-limit (180)"),
    "search": Generation({}, "none measured reaches it",
                         "--difficulty sac, the highest grade generated: no generated "
                         "puzzle measured needed search", reached=False),
})


Chosen = list[tuple[Room, list[IntVar]]]
Covering = dict[tuple[int, int], dict[int, list[IntVar]]]


def post_placements(model: Model, rooms: list[Room]) -> Chosen:
    """A 0/1 ``chosen`` per placement; exactly one chosen per room."""
    chosen = []
    model.describe_group("rooms", "each room takes one of its placements")
    for room in rooms:
        flags = [model.bool_var(f"room{room.label}_p{i}") for i in range(len(room.placements))]
        model.name_array(f"room{room.label}", flags)
        model.add(exactly_one(flags), f"room {room.label}", "rooms")
        chosen.append((room, flags))
    return chosen


def covering_flags(chosen: Chosen) -> Covering:
    """For each cell, for each room that can cover it, the flags of its covering placements."""
    covering: Covering = {}
    for room, flags in chosen:
        for placement, flag in zip(room.placements, flags):
            for cell in placement.cells():
                covering.setdefault(cell, {}).setdefault(room.label, []).append(flag)
    return covering


def placement_decoder(instance: ShikakuInstance, chosen: Chosen
                       ) -> Callable[[Assignment], ShikakuSolution]:
    def decode(assignment: Assignment) -> ShikakuSolution:
        labels: list[list[int | None]] = [[None] * instance.columns
                                          for _ in range(instance.rows)]
        for room, flags in chosen:
            for placement, flag in zip(room.placements, flags):
                if assignment[flag]:
                    for r, c in placement.cells():
                        labels[r][c] = room.label
        return ShikakuSolution(tuple(tuple(row) for row in labels))

    return decode


def post_set_partitioning(model: Model, rooms: list[Room]) -> Chosen:
    """The patterns model's constraints: exactly one placement per room and exactly one
    chosen placement covering each cell; the search order on the placements, room by
    room in clue order, and the two room orders."""
    chosen = post_placements(model, rooms)
    with model.group("cells", "each cell is covered by exactly one chosen placement"):
        for (r, c), cell_flags in covering_flags(chosen).items():
            model.add(exactly_one([flag for flags in cell_flags.values() for flag in flags]),
                      f"r{r + 1}c{c + 1}")
    flags_of = {room.label: flags for room, flags in chosen}
    model.branch_on([flag for _, flags in chosen for flag in flags])
    for name, order in ROOM_ORDERS.items():
        model.add_variable_order(name, [flag for room in order(rooms)
                                        for flag in flags_of[room.label]])
    return chosen


@viewpoint("shikaku", "patterns")
def patterns(instance: ShikakuInstance) -> BuiltModel:
    """Set partitioning: one 0/1 variable per placement of each room.

    ``chosen[k][p]`` is 1 when room k (clue order) takes its placement p; exactly one
    placement per room and exactly one chosen placement covering each cell
    (``exactly_one``). Search: the placements, room by room in clue order;
    ``largest-first`` and ``fewest-placements`` reorder the rooms."""
    rooms = rooms_of(instance)
    model = Model(f"shikaku-patterns-{instance.name}")
    chosen = post_set_partitioning(model, rooms)
    return BuiltModel(model, placement_decoder(instance, chosen))


Inside = dict[tuple[int, int, int], IntVar]


def post_cell_rooms(model: Model, instance: ShikakuInstance, rooms: list[Room],
                    covering: Covering, gcc: bool) -> tuple[list[list[IntVar]], Inside]:
    """The cell view: ``room[r][c]`` (domain: the rooms that can cover the cell), and
    the 0/1 matrix ``in[r][c][k]`` <-> ``room[r][c] == k``; with ``gcc``, room k takes
    exactly clue_k cells. Channeling to the placements is the caller's."""
    cells = [[model.int_var_from_values(covering[r, c], f"room_{r}_{c}")
              for c in range(instance.columns)] for r in range(instance.rows)]
    model.name_array("room", cells)
    inside: Inside = {}
    with model.group("cell rooms", "a cell is in room k exactly when its room is k"):
        for (r, c), by_room in covering.items():
            for label in by_room:
                flag = inside[r, c, label] = model.bool_var(f"in_{r}_{c}_{label}")
                model.add(equivalent_to_equality(flag, cells[r][c], label),
                          f"r{r + 1}c{c + 1} in room {label}")
    if gcc:
        model.add(global_cardinality([v for row in cells for v in row],
                                     {room.label: room.area for room in rooms}),
                  "every room", "areas")
        model.describe_group("areas", "each room covers as many cells as its clue says")
    return cells, inside


def channel_by_sum(model: Model, covering: Covering, inside: Inside) -> None:
    """``in[r][c][k]`` = the sum of room k's chosen placements covering (r, c)."""
    with model.group("channeling", "a cell is in a room exactly when one of the room's "
                                   "chosen placements covers it"):
        for (r, c), by_room in covering.items():
            for label, flags in by_room.items():
                model.add(linear([(1, inside[r, c, label]), *((-1, flag) for flag in flags)],
                                 "==", 0), f"r{r + 1}c{c + 1} in room {label}")


@viewpoint("shikaku", "cell-room", {"gcc": GCC})
def cell_room(instance: ShikakuInstance, gcc: str) -> BuiltModel:
    """Cells -> rooms, channeled to the placements of the patterns viewpoint.

    ``room[r][c]`` is the label of the cell's room (domain: the rooms with a
    placement covering it); ``chosen[k][p]`` as in patterns, exactly one per room;
    ``room[r][c] == k`` <-> ``in[r][c][k]`` (reified equality) and ``in[r][c][k]`` =
    the sum of room k's chosen placements covering the cell (linear). With
    ``gcc=true``, ``global_cardinality`` says room k takes exactly clue_k cells.
    Search: the cells, row-major; ``largest-first`` takes first the cells whose
    largest possible room is largest, ``fewest-placements`` the cells the fewest
    placements cover."""
    rooms = rooms_of(instance)
    model = Model(f"shikaku-cell-room-{instance.name}")
    chosen = post_placements(model, rooms)
    covering = covering_flags(chosen)
    area = {room.label: room.area for room in rooms}
    cells, inside = post_cell_rooms(model, instance, rooms, covering, gcc == "true")
    channel_by_sum(model, covering, inside)
    flat = [variable for row in cells for variable in row]
    model.branch_on(flat)
    positions = [(r, c) for r in range(instance.rows) for c in range(instance.columns)]
    largest = sorted(positions, key=lambda cell: -max(area[k] for k in covering[cell]))
    fewest = sorted(positions, key=lambda cell: sum(map(len, covering[cell].values())))
    model.add_variable_order("largest-first", [cells[r][c] for r, c in largest])
    model.add_variable_order("fewest-placements", [cells[r][c] for r, c in fewest])

    def decode(assignment: Assignment) -> ShikakuSolution:
        return ShikakuSolution(tuple(tuple(assignment[v] for v in row) for row in cells))

    return BuiltModel(model, decode)
