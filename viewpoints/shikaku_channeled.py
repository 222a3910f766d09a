"""The Shikaku ``channeled`` viewpoint: placements and cells together, the course's final model.

It holds the patterns model (``chosen[k][p]``, exactly one per room and per cell), the
cell view of cell-room (``room[r][c]`` and the 0/1 matrix ``in[r][c][k]``), and the
channeling between them, in one of four equivalent forms. Each is exact given the set
partitioning: the chosen placements cover every cell once, so each cell's room is the
room whose placement covers it. They differ in what propagation draws from them:

- ``channel=implication``: ``chosen[k][p] -> in[r][c][k]`` for each cell (r, c) of p;
- ``channel=sum``: ``in[r][c][k] = sum of chosen[k][p] over the placements p covering
  (r, c)``, as in cell-room (a room ruled out of a cell rules out its placements there);
- ``channel=missing``: ``in[r][c][k] + sum of chosen[k][p] over the placements p of room
  k that miss (r, c) = 1`` (room k has exactly one placement, so the cell is k's exactly
  when none that misses it is chosen): a cell known to be k's rules out k's placements
  that miss it, and a cell that all of k's open placements cover is k's;
- ``channel=both``: ``sum`` and ``missing`` together, which is domain consistent between
  ``room[r][c]`` and each room's placements.

``redundant=true`` adds the two families the course adds, as one linear inequality per
cell and room (not one clause per placement, which would be quadratic):

- a cell in room k excludes the placements of the other rooms over it:
  ``in[r][c][k] + sum(chosen[k'][p] : k' != k, p covers (r, c)) <= 1``;
- a cell in room k excludes the placements of room k that miss it:
  ``in[r][c][k] + sum(chosen[k][p] : p misses (r, c)) <= 1``.

Every channeling and redundant constraint is labelled with its cell and room (``r2c3 in
room 4``): what an explanation names as the reason, whichever form posted it.

``gcc=true`` adds ``global_cardinality``: room k takes exactly clue_k cells. The search
branches on the placements, as patterns does, so the two compare node for node.
"""

from __future__ import annotations

from puzzles.shikaku import ShikakuInstance
from solvers import IntVar, Model, implies, linear
from viewpoints.registry import BuiltModel, Option, viewpoint
from viewpoints.shikaku import (
    GCC,
    Chosen,
    Covering,
    Inside,
    channel_by_sum,
    covering_flags,
    placement_decoder,
    post_cell_rooms,
    post_set_partitioning,
)
from viewpoints.shikaku_rooms import rooms_of

CHANNEL = Option("sum", ("implication", "sum", "missing", "both"),
                 "cells joined to placements by chosen -> in, by in = sum of the chosen "
                 "placements over the cell, by in = 1 - sum of those that miss it, or both")
REDUNDANT = Option("true", ("true", "false"),
                   "add the two redundant families: a cell in room k rules out the other "
                   "rooms' placements over it and room k's placements that miss it")


def _channel_by_implication(model: Model, chosen: Chosen, inside: Inside) -> None:
    for room, flags in chosen:
        for placement, flag in zip(room.placements, flags):
            for r, c in placement.cells():
                model.add(implies(flag, inside[r, c, room.label]),
                          f"r{r + 1}c{c + 1} in room {room.label}")


def _channel_by_missing(model: Model, chosen: Chosen, inside: Inside) -> None:
    for room, flags in chosen:
        for r, c in {cell for placement in room.placements for cell in placement.cells()}:
            missing = [flag for placement, flag in zip(room.placements, flags)
                       if not placement.covers(r, c)]
            model.add(linear([(1, inside[r, c, room.label]), *((1, f) for f in missing)],
                             "==", 1), f"r{r + 1}c{c + 1} in room {room.label}")


def _post_redundant(model: Model, chosen: Chosen, covering: Covering,
                    inside: Inside) -> None:
    for (r, c), by_room in covering.items():
        for label in by_room:
            others: list[IntVar] = [flag for other, flags in by_room.items()
                                    if other != label for flag in flags]
            if others:
                model.add(linear([(1, inside[r, c, label]), *((1, f) for f in others)],
                                 "<=", 1), f"r{r + 1}c{c + 1} in room {label}")
    for room, flags in chosen:
        for r, c in {cell for placement in room.placements for cell in placement.cells()}:
            missing = [flag for placement, flag in zip(room.placements, flags)
                       if not placement.covers(r, c)]
            if missing:
                model.add(linear([(1, inside[r, c, room.label]), *((1, f) for f in missing)],
                                 "<=", 1), f"r{r + 1}c{c + 1} in room {room.label}")


@viewpoint("shikaku", "channeled",
           {"channel": CHANNEL, "redundant": REDUNDANT, "gcc": GCC})
def channeled(instance: ShikakuInstance, channel: str, redundant: str,
              gcc: str) -> BuiltModel:
    """Placements, the cell-room matrix and the cell variables, channeled.

    Set partitioning on ``chosen[k][p]`` as in patterns; ``room[r][c] == k`` <->
    ``in[r][c][k]``; the channel as ``channel`` says; the redundant families and gcc as
    their options say. Search: the placements, as in patterns (``largest-first`` and
    ``fewest-placements`` reorder the rooms)."""
    rooms = rooms_of(instance)
    model = Model(f"shikaku-channeled-{instance.name}")
    chosen = post_set_partitioning(model, rooms)
    covering = covering_flags(chosen)
    _, inside = post_cell_rooms(model, instance, rooms, covering, gcc == "true")
    with model.group("channeling", "a cell is in a room exactly when one of the room's "
                                   "chosen placements covers it"):
        if channel == "implication":
            _channel_by_implication(model, chosen, inside)
        if channel in ("sum", "both"):
            channel_by_sum(model, covering, inside)
        if channel in ("missing", "both"):
            _channel_by_missing(model, chosen, inside)
    if redundant == "true":
        with model.group("redundant", "what the others imply, stated for propagation"):
            _post_redundant(model, chosen, covering, inside)
    return BuiltModel(model, placement_decoder(instance, chosen))
