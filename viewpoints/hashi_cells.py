"""Hashiwokakero's cell view (``directions``, the course's model) and both views joined
(``channeled``).

``directions``: for every cell, the bridges leaving it to the north, east, south and
west (0..2). An island's four sum to its number; an empty cell passes bridges straight
through (north = south, east = west) and never both ways at once; neighbouring cells
agree (east of one = west of the next, south of one = north of the one below);
nothing leaves the grid. The bridges of a pair are the east (or south) count at its
first island, which is how connectivity and the decoder see them.
"""

from __future__ import annotations

from dataclasses import dataclass

from puzzles.hashi_sight import neighbours
from puzzles.hashi_types import Bridge, HashiInstance, HashiSolution
from solvers import Assignment, IntVar, Model, linear, table
from viewpoints.hashi import (
    CONNECT,
    IMPROVE,
    NOT_BOTH,
    Pair,
    Pairs,
    improve_and_connect,
    islands_first,
    post_pairs,
)
from viewpoints.hashi_terms import place
from viewpoints.registry import BuiltModel, viewpoint

NORTH, EAST, SOUTH, WEST = range(4)


@dataclass
class Directions:
    """``leaving[r][c][d]``: bridges leaving cell (r, c) in direction d (N, E, S, W)."""

    leaving: list[list[list[IntVar]]]
    pairs: list[Pair]

    def pair_count(self, pair: Pair) -> IntVar:
        """The bridges of a pair: east (or south) of its first island."""
        a, b = pair
        return self.leaving[a.row][a.column][EAST if a.row == b.row else SOUTH]

    def decode(self, assignment: Assignment) -> HashiSolution:
        return HashiSolution(tuple(Bridge(a.cell, b.cell, assignment[x])
                                   for a, b in self.pairs
                                   if assignment[x := self.pair_count((a, b))]))

    def flat(self) -> list[IntVar]:
        return [x for row in self.leaving for cell in row for x in cell]


def post_directions(model: Model, instance: HashiInstance) -> Directions:
    """The cell model's variables and local rules."""
    rows, columns = instance.rows, instance.columns
    leaving = [[[model.int_var(0, 2, f"{'nesw'[d]}_{r}_{c}") for d in range(4)]
                for c in range(columns)] for r in range(rows)]
    model.name_array("leaving", leaving)
    model.describe_group("cells", "an island's bridges add up to its number; an empty "
                                  "cell passes bridges straight through, one way only; "
                                  "neighbours agree and nothing leaves the grid")
    with model.group("cells"):
        _post_cell_rules(model, instance, leaving)
    return Directions(leaving, neighbours(instance))


def _post_cell_rules(model: Model, instance: HashiInstance,
                     leaving: list[list[list[IntVar]]]) -> None:
    """Each cell's rules, all under the cell's name (an island's, as in ``bridges``):
    its sum or its passing through, its agreeing with the cells east and south of it,
    and nothing leaving the grid from it."""
    rows, columns = instance.rows, instance.columns
    at = instance.island_at()
    for r in range(rows):
        for c in range(columns):
            north, east, south, west = leaving[r][c]
            island = at.get((r, c))
            name = f"the {'island' if island else 'cell'} at {place((r, c))}"
            if island is not None:
                model.add(linear([(1, north), (1, east), (1, south), (1, west)], "==",
                                 island.value), name)
            else:
                model.add(linear([(1, north), (-1, south)], "==", 0), name)
                model.add(linear([(1, east), (-1, west)], "==", 0), name)
                model.add(table((north, east), NOT_BOTH), name)
            if c + 1 < columns:
                model.add(linear([(1, east), (-1, leaving[r][c + 1][WEST])], "==", 0), name)
            if r + 1 < rows:
                model.add(linear([(1, south), (-1, leaving[r + 1][c][NORTH])], "==", 0), name)
            for direction, outside in ((NORTH, r == 0), (SOUTH, r == rows - 1),
                                       (WEST, c == 0), (EAST, c == columns - 1)):
                if outside:
                    model.add(linear([(1, leaving[r][c][direction])], "==", 0), name)


@viewpoint("hashi", "directions", {"connect": CONNECT, "improve": IMPROVE})
def directions(instance: HashiInstance, connect: str, improve: str) -> BuiltModel:
    """Bridges leaving each cell north, east, south and west (the course's cell model).

    Connectivity sees a pair's bridges as the east (south) count at its first island;
    improvements are posted on those counts. Search: every cell's four counts,
    row-major; ``islands-first`` takes the islands' cells first (fewest neighbours,
    then largest number), then the rest."""
    model = Model(f"hashi-directions-{instance.name}")
    cells = post_directions(model, instance)
    counts = [cells.pair_count(pair) for pair in cells.pairs]
    improve_and_connect(model, instance, Pairs(instance.islands, cells.pairs, counts),
                        connect, improve)
    flat = cells.flat()
    model.branch_on(flat)
    first = [cells.pair_count(cells.pairs[p]) for p in islands_first(instance, cells.pairs)]
    chosen = set(first)
    model.add_variable_order("islands-first", first + [x for x in flat if x not in chosen])
    return BuiltModel(model, cells.decode)


@viewpoint("hashi", "channeled", {"connect": CONNECT, "improve": IMPROVE})
def channeled(instance: HashiInstance, connect: str, improve: str) -> BuiltModel:
    """Both views: a pair's count equals the east (south) count at its first island and
    at every cell between, and the west (north) count at its second island.

    Connectivity and improvements on the pair counts; search on the pair counts, as in
    ``bridges``."""
    model = Model(f"hashi-channeled-{instance.name}")
    pairs = post_pairs(model, instance)
    cells = post_directions(model, instance)
    with model.group("channeling", "a pair's bridges are what leaves each cell between "
                                   "its islands"):
        for (a, b), x in zip(pairs.pairs, pairs.counts):
            name = f"the bridges between {place(a.cell)} and {place(b.cell)}"
            horizontal = a.row == b.row
            along = ([(a.row, c) for c in range(a.column, b.column)] if horizontal
                     else [(r, a.column) for r in range(a.row, b.row)])
            for r, c in along:
                model.add(linear([(1, x), (-1, cells.leaving[r][c][EAST if horizontal
                                                                   else SOUTH])], "==", 0),
                          name)
            model.add(linear([(1, x), (-1, cells.leaving[b.row][b.column][
                WEST if horizontal else NORTH])], "==", 0), name)
    improve_and_connect(model, instance, pairs, connect, improve)
    model.branch_on(pairs.counts)
    model.add_variable_order("islands-first", [pairs.counts[p] for p in
                                               islands_first(instance, pairs.pairs)])
    return BuiltModel(model, pairs.decode)
