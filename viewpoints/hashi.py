"""Hashiwokakero viewpoints: bridges per pair of islands, and bridges leaving each cell.

Every viewpoint posts the local rules (each island's number, at most two bridges a
pair, no crossing) and then the global one, connectivity, as its ``connect`` option
says:

- ``after-search``: not posted; each solution the search finds is tested with
  networkx and a disconnected one is rejected (the search goes on; the run counts them
  as ``rejected``): the course's way, on every solver;
- ``propagator``: the model language's ``connected`` constraint, propagated during
  search (on ``cp`` our incremental propagator in Python, on ``choco`` its graph variables);
- ``lazy``: not posted; a disconnected solution adds, for each group of islands it
  leaves apart, "some bridge leaves this group", and the search starts again
  (``lazy_rounds``, ``lazy_cuts``);
- ``repair``: as ``lazy``, but each round after the first searches first the bridges
  within two constraints of the cuts, the others kept as the round before left them
  (the whole model only if that finds nothing: :mod:`solvers.repair`), on CP-SAT
  without presolve, linear relaxation or inprocessing, which each of its short
  searches would pay for again;
- ``flow``: a single-commodity flow, posted up front.

``improve`` adds rules that remove no solution of a puzzle with more islands than the
group they close off (each closes a group that could reach no other island):
``one-one`` (two 1-islands are not joined), ``two-two`` (two 2-islands are not joined
by two bridges), ``isolation`` (three islands in a row, the outer two using all their
bridges on the middle one, which uses all its own on them, are not joined so: the
smallest groups beyond pairs, and the only ones of three, since three islands can
never see each other pairwise). ``all`` takes the three.

This module has the pair view (``bridges``); :mod:`viewpoints.hashi_cells` has the
cell view (``directions``) and both joined (``channeled``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from puzzles.hashi_sight import crossing_pairs, neighbours
from puzzles.hashi_types import Bridge, HashiInstance, HashiSolution, Island
from solvers import Assignment, IntVar, Model, connected, connected_by_flow, linear, table
from viewpoints.grades import RootPropagation, Rung, Search, set_ladder
from viewpoints.hashi_terms import HashiTerms
from viewpoints.registry import BuiltModel, Option, set_defaults, viewpoint
from viewpoints.terms import set_terms

CONNECT = Option("propagator", ("after-search", "propagator", "lazy", "repair", "flow"),
                 "connectivity: checked on each solution, propagated, added as cuts when "
                 "broken (repair: each round searched near its cuts first), or a flow "
                 "posted up front")
REPAIR_RADIUS = 2
"""How far (in constraints) from its cuts a repair round searches first (chosen by
measurement: docs/defaults.md, Hashi)."""
SHORT_SEARCHES = {"cpsat": {"parameters": "cp_model_presolve:false linearization_level:0 "
                                         "use_sat_inprocessing:false"}}
"""What each search of a repair round asks of a solver: CP-SAT's presolve, linear
relaxation and clause inprocessing cost more than they prune in a search that starts
from the last answer (docs/defaults.md, Hashi)."""
IMPROVE = Option("none", ("none", "one-one", "two-two", "isolation", "all"),
                 "rules that close off no group of islands: 1-1 not joined, 2-2 not "
                 "doubled, no closed row of three")

# chosen by measurement: docs/defaults.md, Hashi
set_defaults("hashi", viewpoint="bridges", solver="cpsat", heuristic="auto",
             options={"connect": "repair", "improve": "all"})

# A pair of islands has three values, so "at least one bridge joins them" (one value ruled
# out) says far more than a ruled-out digit does: at the usual 1 a value it costs what a
# placed bridge count does, and the explained difficulty ties Bridges' easy and medium
# levels. 3 was chosen on the training seeds of results/explain-difficulty.
set_terms("hashi", HashiTerms(), ruled_out_weight=3)

set_ladder("hashi", (
    Rung("rules", RootPropagation("bridges", {"connect": "propagator", "improve": "none"}),
         "the rules alone: each island's number, at most two bridges a pair, no "
         "crossing, connectivity"),
    Rung("improved", RootPropagation("bridges", {"connect": "propagator", "improve": "all"}),
         "plus the improvement rules: two 1-islands not joined, two 2-islands not "
         "doubled, no closed row of three"),
), Search("bridges", "islands-first/max", {"connect": "propagator", "improve": "all"}))

Pair = tuple[Island, Island]
NOT_BOTH = [(0, 0), (0, 1), (0, 2), (1, 0), (2, 0)]
"""Two crossing pairs: at most one of them has bridges."""


@dataclass
class Pairs:
    """The pairs of islands that see each other, a 0..2 variable each (its bridges)."""

    islands: tuple[Island, ...]
    pairs: list[Pair]
    counts: list[IntVar]

    def edges(self) -> list[tuple[object, object, IntVar]]:
        return [(a.cell, b.cell, x) for (a, b), x in zip(self.pairs, self.counts)]

    def decode(self, assignment: Assignment) -> HashiSolution:
        return HashiSolution(tuple(Bridge(a.cell, b.cell, assignment[x])
                                   for (a, b), x in zip(self.pairs, self.counts)
                                   if assignment[x]))


def post_pairs(model: Model, instance: HashiInstance) -> Pairs:
    """A count per pair (at most 2, at most either island's number), the number of
    each island, and no two crossing pairs both used."""
    pairs = neighbours(instance)
    counts = [model.int_var(0, min(2, a.value, b.value),
                            f"bridges_{a.row}_{a.column}_{b.row}_{b.column}")
              for a, b in pairs]
    around: dict[tuple[int, int], list[IntVar]] = {i.cell: [] for i in instance.islands}
    for (a, b), x in zip(pairs, counts):
        around[a.cell].append(x)
        around[b.cell].append(x)
    model.name_array("bridges", counts)
    with model.group("islands", "each island has as many bridges as its number"):
        for island in instance.islands:
            model.add(linear([(1, x) for x in around[island.cell]], "==", island.value),
                      f"the island at ({island.row + 1},{island.column + 1})")
    with model.group("crossings", "no two bridges cross"):
        for i, j in crossing_pairs(instance):
            model.add(table((counts[i], counts[j]), NOT_BOTH),
                      f"{_pair(pairs[i])} and {_pair(pairs[j])}")
    return Pairs(instance.islands, pairs, counts)


def _pair(pair: tuple[Island, Island]) -> str:
    """A pair of islands as a reader names it: ``(1,2)-(1,5)``, 1-based."""
    a, b = pair
    return f"({a.row + 1},{a.column + 1})-({b.row + 1},{b.column + 1})"


def post_connectivity(model: Model, islands: Sequence[Island],
                      edges: list[tuple[object, object, IntVar]], connect: str) -> None:
    """Connectivity of the islands through the edges of positive weight, as ``connect``
    says (see the module's docstring)."""
    rule = connected([island.cell for island in islands], edges)
    if connect == "after-search":
        model.add_after_search(rule)
    elif connect in ("lazy", "repair"):
        model.add_lazy(rule)
        if connect == "repair":
            model.repair_lazy_rounds(REPAIR_RADIUS)
            for backend, options in SHORT_SEARCHES.items():
                model.suggest_options(backend, options)
    elif connect == "propagator":
        model.add(rule, "every island", "connected")
    else:
        model.add(connected_by_flow(rule.nodes, rule.edges), "every island", "connected")
    model.describe_group("connected", "the bridges join every island into one group")


def post_improvements(model: Model, pairs: Pairs, improve: str) -> None:
    """The ``improve`` rules on the pair counts (none when only the group is left)."""
    chosen = {"one-one", "two-two", "isolation"} if improve == "all" else {improve}
    total = len(pairs.islands)
    model.describe_group("no closed group", "bridges that would close off a group of "
                                            "islands are left out")
    for pair, x in zip(pairs.pairs, pairs.counts):
        a, b = pair
        if total > 2 and a.value == b.value == 1 and "one-one" in chosen:
            model.add(linear([(1, x)], "==", 0), f"1-1 {_pair(pair)}", "no closed group")
        if total > 2 and a.value == b.value == 2 and "two-two" in chosen:
            model.add(linear([(1, x)], "<=", 1), f"2-2 {_pair(pair)}", "no closed group")
    if "isolation" in chosen and total > 3:
        for (end, other_end), (x, y) in _closing_rows(pairs):
            allowed = [(p, q) for p in range(x.lb, x.ub + 1) for q in range(y.lb, y.ub + 1)
                       if (p, q) != (end.value, other_end.value)]
            model.add(table((x, y), allowed), f"the row closed at ({end.row + 1},"
                      f"{end.column + 1}) and ({other_end.row + 1},{other_end.column + 1})",
                      "no closed group")


def _closing_rows(pairs: Pairs) -> list[tuple[tuple[Island, Island], tuple[IntVar, IntVar]]]:
    """Every two pairs sharing a middle island whose two ends, of one or two bridges,
    have together the middle's number: the two ends and their counts (middle first)."""
    by_island: dict[tuple[int, int], list[tuple[Island, IntVar]]] = {}
    for (a, b), x in zip(pairs.pairs, pairs.counts):
        if b.value <= 2:
            by_island.setdefault(a.cell, []).append((b, x))
        if a.value <= 2:
            by_island.setdefault(b.cell, []).append((a, x))
    found = []
    for middle in pairs.islands:
        links = by_island.get(middle.cell, []) if middle.value <= 4 else []
        for i, (end, x) in enumerate(links):
            for other_end, y in links[i + 1:]:
                if end.value + other_end.value == middle.value:
                    found.append(((end, other_end), (x, y)))
    return found


def improve_and_connect(model: Model, instance: HashiInstance, pairs: Pairs, connect: str,
                        improve: str) -> None:
    """The ``improve`` rules, then connectivity, on the pair counts."""
    post_improvements(model, pairs, improve)
    post_connectivity(model, instance.islands, pairs.edges(), connect)


def islands_first(instance: HashiInstance, pairs: list[Pair]) -> list[int]:
    """Pair indices, those of the most constrained islands first (fewest neighbours,
    then largest number); each pair once, where its first island in that order comes."""
    seeing: dict[tuple[int, int], int] = {}
    for a, b in pairs:
        seeing[a.cell] = seeing.get(a.cell, 0) + 1
        seeing[b.cell] = seeing.get(b.cell, 0) + 1
    order = sorted(instance.islands, key=lambda i: (seeing.get(i.cell, 0), -i.value))
    rank = {island.cell: position for position, island in enumerate(order)}
    return sorted(range(len(pairs)), key=lambda p: (min(rank[pairs[p][0].cell],
                                                        rank[pairs[p][1].cell]), p))


@viewpoint("hashi", "bridges", {"connect": CONNECT, "improve": IMPROVE})
def bridges(instance: HashiInstance, connect: str, improve: str) -> BuiltModel:
    """A count 0..2 per pair of islands that see each other.

    The counts around each island sum to its number; two crossing pairs are not both
    used (a table); connectivity and improvements as the options say. Search: the
    counts in pair order; ``islands-first`` takes the pairs of the most constrained
    islands first."""
    model = Model(f"hashi-bridges-{instance.name}")
    pairs = post_pairs(model, instance)
    improve_and_connect(model, instance, pairs, connect, improve)
    model.branch_on(pairs.counts)
    model.add_variable_order("islands-first", [pairs.counts[p] for p in
                                               islands_first(instance, pairs.pairs)])
    return BuiltModel(model, pairs.decode)
