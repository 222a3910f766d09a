"""Shikaku's words for its viewpoints' arrays, rooms numbered as their clues are (row-major,
from 1) and cells named ``r3c4``:

- ``room<k>[i]``, whether room k takes its i-th placement (the order of
  :func:`~viewpoints.shikaku_rooms.room_placements`): ``room 3 is the 2x3 at r1c1``
  (rows by columns, at its top-left cell);
- ``room[r][c]``, the room covering a cell: ``r2c3 is in room 4``;
- the geometry's ``top``, ``left``, ``height``, ``width``, ``bottom`` and ``right`` of
  each room: ``room 2's top row is 3``. Bottom and right are the first row and column
  past the room (1-based by their offset), said as the room's last row and column.

A placement's cells are its rectangle's; a room's sides are about every cell the room
may cover.
"""

from __future__ import annotations

from collections.abc import Sequence

from puzzlelab.errors import UnknownName
from puzzles.shikaku import ShikakuInstance
from viewpoints.shikaku_rooms import Placement, Room, rooms_of
from viewpoints.terms import Cell, Subject
from viewpoints.wording import PerInstance, cell_name, listed, truth

SIDES = {"top": "top row", "left": "left column", "height": "height", "width": "width",
         "bottom": "bottom row", "right": "right column"}
"""Each geometry array's word; ``bottom`` and ``right`` count one past the room."""
PAST = ("bottom", "right")


def placement_name(placement: Placement) -> str:
    """``the 2x3 at r1c1``: rows by columns, at the top-left cell."""
    return (f"the {placement.height}x{placement.width} at "
            f"{cell_name(placement.top, placement.left)}")


def _reach(room: Room) -> tuple[Cell, ...]:
    """Every cell one of the room's placements covers, row-major."""
    return tuple(sorted({cell for p in room.placements for cell in p.cells()}))


class ShikakuTerms:
    """Rooms, their placements and their sides, and the room of each cell."""

    def __init__(self) -> None:
        self._rooms = PerInstance(rooms_of)

    def subject(self, instance: ShikakuInstance, array: str,
                index: tuple[int, ...]) -> Subject:
        if array == "room":
            r, c = index
            return Subject(cell_name(r, c), ((r, c),))
        rooms = self._rooms(instance)
        if array in SIDES:
            room = rooms[index[0]]
            return Subject(f"room {room.label}'s {SIDES[array]}", _reach(room))
        number = array.removeprefix("room")
        if number.isdigit() and 1 <= int(number) <= len(rooms):
            placement = rooms[int(number) - 1].placements[index[0]]
            return Subject(f"room {number} as {placement_name(placement)}",
                           tuple(placement.cells()))
        raise UnknownName("shikaku array", array, ["room", "room<k>", *SIDES])

    def mark(self, array: str, index: tuple[int, ...], value: int) -> str:
        return str(value) if array == "room" else ""  # a cell's room number

    def fact(self, subject: Subject, array: str, values: Sequence[int],
             removed: Sequence[int]) -> str:
        if array == "room":
            if len(values) == 1:
                return f"{subject.name} is in room {values[0]}"
            return f"{subject.name} is not in room {listed([str(v) for v in removed])}"
        if array in SIDES:
            shift = 1 if array in PAST else 0
            if len(values) == 1:
                return f"{subject.name} is {values[0] - shift}"
            return f"{subject.name} is not {listed([str(v - shift) for v in removed])}"
        room, placement = subject.name.split(" as ", 1)
        verb = truth(values, "is", "is not", "may be")
        return f"{room} {verb} {placement}"
