"""The independent Hashiwokakero checker: every rule a solution breaks, in words.

It judges the bridges a solution gives against the islands alone, with no sight lines
computed ahead (:mod:`puzzles.hashi_sight` is what the viewpoints model) and no graph
library, so it shares no code with any viewpoint and can judge them all.

>>> from puzzles.hashi_types import HashiInstance, Island
>>> pair = HashiInstance("pair", 1, 3, (Island(0, 0, 2), Island(0, 2, 2)))
>>> check(pair, HashiSolution((Bridge((0, 0), (0, 2), 2),)))
[]
>>> check(pair, HashiSolution((Bridge((0, 0), (0, 2), 1),)))[0]
'the island at (row 1, column 1) has 1 bridge but its number is 2'
"""

from __future__ import annotations

from collections.abc import Iterable

from puzzlelab.wording import counted
from puzzles.hashi_types import Bridge, Cell, HashiInstance, HashiSolution, Island, cell_name


def _between(first: Cell, second: Cell) -> str:
    return f"between {cell_name(first)} and {cell_name(second)}"


def _misplaced(instance: HashiInstance, at: dict[Cell, Island], bridge: Bridge) -> str | None:
    """Why ``bridge`` does not join two islands that see each other, or None."""
    (r1, c1), (r2, c2) = bridge.first, bridge.second
    for cell in (bridge.first, bridge.second):
        if not (0 <= cell[0] < instance.rows and 0 <= cell[1] < instance.columns):
            return (f"has an end {cell_name(cell)} outside the "
                    f"{instance.rows}x{instance.columns} grid")
        if cell not in at:
            return f"has an end {cell_name(cell)} that is not an island"
    if bridge.first == bridge.second:
        return "joins an island to itself"
    if r1 != r2 and c1 != c2:
        return "is not straight (its ends share neither a row nor a column)"
    inside = ([(r1, c) for c in range(c1 + 1, c2)] if r1 == r2
              else [(r, c1) for r in range(r1 + 1, r2)])
    blocking = [cell for cell in inside if cell in at]
    if blocking:
        return f"passes over the island at {cell_name(blocking[0])}"
    return None


def _groups(cells: Iterable[Cell], pairs: Iterable[tuple[Cell, Cell]]) -> list[list[Cell]]:
    """The groups of ``cells`` that ``pairs`` join, each sorted, ordered by their first
    cell (a search by hand: the checker stays independent of the models' networkx).

    >>> _groups([(0, 0), (0, 2), (1, 1)], [((0, 0), (0, 2))])
    [[(0, 0), (0, 2)], [(1, 1)]]
    """
    linked: dict[Cell, list[Cell]] = {cell: [] for cell in cells}
    for one, other in pairs:
        linked[one].append(other)
        linked[other].append(one)
    groups, seen = [], set()
    for start in linked:
        if start in seen:
            continue
        seen.add(start)
        group, frontier = [start], [start]
        while frontier:
            for near in linked[frontier.pop()]:
                if near not in seen:
                    seen.add(near)
                    group.append(near)
                    frontier.append(near)
        groups.append(sorted(group))
    return sorted(groups, key=lambda group: group[0])


def check(instance: HashiInstance, solution: HashiSolution) -> list[str]:
    """Every rule the solution breaks, in words (rows and columns 1-based); [] when solved.
    A partial solution is judged as if complete: its islands lack bridges."""
    at = instance.island_at()
    problems = []
    totals: dict[tuple[Cell, Cell], int] = {}
    for bridge in solution.bridges:
        where = _between(bridge.first, bridge.second)
        if bridge.count not in (1, 2):
            problems.append(f"the bridge {where} is counted {bridge.count} times: a bridge "
                            f"is single or double")
        wrong = _misplaced(instance, at, bridge)
        if wrong is not None:
            problems.append(f"the bridge {where} {wrong}")
        else:
            pair = (bridge.first, bridge.second)
            totals[pair] = totals.get(pair, 0) + bridge.count
    for (first, second), total in totals.items():
        if total > 2:
            problems.append(f"{total} bridges join the islands at {cell_name(first)} and "
                            f"{cell_name(second)}: at most two may")
    passing: dict[Cell, tuple[Cell, Cell]] = {}
    for first, second in totals:
        if first[0] == second[0]:
            for column in range(first[1] + 1, second[1]):
                passing[(first[0], column)] = (first, second)
    for first, second in totals:
        if first[1] == second[1]:
            for row in range(first[0] + 1, second[0]):
                other = passing.get((row, first[1]))
                if other is not None:
                    problems.append(f"the bridge {_between(*other)} crosses the bridge "
                                    f"{_between(first, second)} at {cell_name((row, first[1]))}")
    degree = dict.fromkeys(at, 0)
    for bridge in solution.bridges:
        for cell in (bridge.first, bridge.second):
            if cell in degree:
                degree[cell] += bridge.count
    for island in instance.islands:
        if degree[island.cell] != island.value:
            problems.append(f"the island at {cell_name(island.cell)} has "
                            f"{counted(degree[island.cell], 'bridge')} but its number is "
                            f"{island.value}")
    groups = _groups(at, [pair for pair, total in totals.items() if total > 0])
    if len(groups) > 1:
        firsts = ", ".join(f"{cell_name(group[0])} ({len(group)} island{'s' * (len(group) > 1)})"
                           for group in groups[:6])
        problems.append(f"the islands are not all connected: {len(groups)} separate groups, "
                        f"holding {firsts}{', ...' if len(groups) > 6 else ''}")
    return problems
