"""The Shikaku ``geometry`` viewpoint: each room as a rectangle with a position and a size.

Split from :mod:`viewpoints.shikaku` (which enumerates rooms and placements) to keep
modules short. The model language has no reified inequality, so "x >= 0" inside a
disjunction is stated through reified equalities: a clause over ``x == v`` flags, one
per value of x that is at least 0.
"""

from __future__ import annotations

from puzzles.shikaku import ShikakuInstance, ShikakuSolution
from solvers import (
    Assignment,
    IntVar,
    Model,
    Rectangle,
    clause,
    equivalent_to_equality,
    linear,
    no_overlap_2d,
    table,
)
from viewpoints.registry import BuiltModel, Option, viewpoint
from viewpoints.shikaku_rooms import ROOM_ORDERS, Room, rooms_of

OVERLAP = Option("pairwise", ("pairwise", "global"),
                 "non-overlap as pairwise disjunctions (clauses) or the no_overlap_2d global")


class _Box:
    """A room's variables: top, left, height, width, and bottom = top + height,
    right = left + width (the first row and column past the room)."""

    def __init__(self, model: Model, instance: ShikakuInstance, room: Room) -> None:
        shapes = sorted({(p.height, p.width) for p in room.placements})
        tall = max(h for h, _ in shapes)
        wide = max(w for _, w in shapes)
        r, c, label = room.row, room.column, room.label
        self.top = model.int_var(max(0, r - tall + 1), r, f"top{label}")
        self.left = model.int_var(max(0, c - wide + 1), c, f"left{label}")
        self.height = model.int_var_from_values((h for h, _ in shapes), f"height{label}")
        self.width = model.int_var_from_values((w for _, w in shapes), f"width{label}")
        self.bottom = model.int_var(r + 1, min(instance.rows, r + tall), f"bottom{label}")
        self.right = model.int_var(c + 1, min(instance.columns, c + wide), f"right{label}")
        name = f"room {label}"
        model.add(table((self.height, self.width), shapes), name)
        model.add(linear([(1, self.bottom), (-1, self.top), (-1, self.height)], "==", 0), name)
        model.add(linear([(1, self.right), (-1, self.left), (-1, self.width)], "==", 0), name)

    def sides(self) -> tuple[IntVar, ...]:
        return self.top, self.left, self.height, self.width, self.bottom, self.right

    def can_hold(self, row: int, column: int) -> bool:
        """Whether some values of the variables put (row, column) inside the room."""
        return (self.top.lb <= row < self.bottom.ub) and (self.left.lb <= column < self.right.ub)


class _Flags:
    """The ``x == v`` flags, made once each, and "this expression is at least 0".

    Each definition is posted under what its variable is about: a room's side under the
    room (group ``shapes``, ``room 3``), a difference of two rooms' sides under the pair
    (group ``no overlap``, ``rooms 1 and 3``), so a reader meets them with the rule they
    serve."""

    def __init__(self, model: Model, boxes: dict[int, _Box]) -> None:
        self.model = model
        self.made: dict[tuple[IntVar, int], IntVar] = {}
        self.room_of = {side: label for label, box in boxes.items() for side in box.sides()}
        self.posted_in = {side: ("shapes", f"room {label}")
                          for side, label in self.room_of.items()}

    def equal(self, variable: IntVar, value: int) -> IntVar:
        if (variable, value) not in self.made:
            flag = self.model.bool_var(f"{variable.name}_is_{value}")
            group, label = self.posted_in[variable]
            self.model.add(equivalent_to_equality(flag, variable, value), label, group)
            self.made[variable, value] = flag
        return self.made[variable, value]

    def at_least(self, variable: IntVar, value: int) -> list[IntVar]:
        """Flags, one of which is 1 exactly when ``variable >= value``."""
        return [self.equal(variable, v) for v in variable.domain if v >= value]

    def at_most(self, variable: IntVar, value: int) -> list[IntVar]:
        return [self.equal(variable, v) for v in variable.domain if v <= value]

    def difference_at_least_zero(self, later: IntVar, earlier: IntVar) -> list[IntVar]:
        """Flags, one of which is 1 exactly when ``later - earlier >= 0``."""
        low, high = later.lb - earlier.ub, later.ub - earlier.lb
        if high < 0:
            return []
        difference = self.model.int_var(low, high, f"{later.name}_minus_{earlier.name}")
        first, second = sorted((self.room_of[later], self.room_of[earlier]))
        group, label = self.posted_in[difference] = ("no overlap",
                                                     f"rooms {first} and {second}")
        self.model.add(linear([(1, difference), (-1, later), (1, earlier)], "==", 0), label,
                       group)
        return self.at_least(difference, 0)


def _separated(flags: _Flags, first: _Box, second: _Box) -> list[IntVar]:
    """Flags, one of which is 1 exactly when the rooms lie apart (left, right, above or
    below); empty when they cannot overlap."""
    sides = [(second.left, first.right), (first.left, second.right),
             (second.top, first.bottom), (first.top, second.bottom)]
    if any(later.lb - earlier.ub >= 0 for later, earlier in sides):
        return []
    return [flag for later, earlier in sides
            for flag in flags.difference_at_least_zero(later, earlier)]


@viewpoint("shikaku", "geometry", {"overlap": OVERLAP})
def geometry(instance: ShikakuInstance, overlap: str) -> BuiltModel:
    """Rooms as rectangles: top, left, height and width per room.

    ``height * width = clue`` as a table of the clue's factor pairs (those with a
    placement); the domains of top, left and of bottom = top + height, right = left +
    width (linear) keep the room inside the grid and over its clue cell; each other
    clue it could reach lies above, below, left or right of it (a clause over
    ``x == v`` flags); rooms do not overlap: ``overlap=pairwise`` posts per pair that
    can meet a clause "one lies left of, right of, above or below the other" (over
    flags of the differences), ``overlap=global`` the no_overlap_2d constraint.
    Search: top, left, height, width of each room, in clue order; the room orders
    ``largest-first`` and ``fewest-placements`` reorder the rooms."""
    rooms = rooms_of(instance)
    model = Model(f"shikaku-geometry-{instance.name}")
    with model.group("shapes", "a room's height times its width is its clue; its bottom "
                               "and right, and the flags of where its sides are, follow "
                               "from them"):
        boxes = {room.label: _Box(model, instance, room) for room in rooms}
    for side in ("top", "left", "height", "width", "bottom", "right"):
        model.name_array(side, [getattr(boxes[room.label], side) for room in rooms],
                         offset=0 if side in ("height", "width") else 1)
    flags = _Flags(model, boxes)
    model.describe_group("other clues", "a room holds no other room's clue")
    for room in rooms:
        box = boxes[room.label]
        for other in rooms:
            if other is not room and box.can_hold(other.row, other.column):
                model.add(clause(flags.at_least(box.top, other.row + 1)
                                 + flags.at_most(box.bottom, other.row)
                                 + flags.at_least(box.left, other.column + 1)
                                 + flags.at_most(box.right, other.column)),
                          f"room {room.label} and the clue of room {other.label}",
                          "other clues")
    with model.group("no overlap", "no two rooms overlap"):
        if overlap == "global":
            model.add(no_overlap_2d(Rectangle(b.left, b.top, b.width, b.height)
                                    for b in boxes.values()), "every room")
        else:
            for i, first in enumerate(rooms):
                for second in rooms[i + 1:]:
                    apart = _separated(flags, boxes[first.label], boxes[second.label])
                    if apart:
                        model.add(clause(apart), f"rooms {first.label} and {second.label}")

    def search(order: list[Room]) -> list[IntVar]:
        return [v for room in order for b in [boxes[room.label]]
                for v in (b.top, b.left, b.height, b.width)]

    model.branch_on(search(rooms))
    for name, order in ROOM_ORDERS.items():
        model.add_variable_order(name, search(order(rooms)))

    def decode(assignment: Assignment) -> ShikakuSolution:
        labels: list[list[int | None]] = [[None] * instance.columns
                                          for _ in range(instance.rows)]
        for label, b in boxes.items():
            top, left = assignment[b.top], assignment[b.left]
            for r in range(top, top + assignment[b.height]):
                for c in range(left, left + assignment[b.width]):
                    labels[r][c] = label
        return ShikakuSolution(tuple(tuple(row) for row in labels))

    return BuiltModel(model, decode)
