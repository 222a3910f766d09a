"""cp's ``connected`` propagator: it keeps exactly the connected solutions (counted
against brute force), fails where no connected layout is left, makes the bridges of
the possible graph present and no other edge, and solves Hashi puzzles with checked
solutions. Its incremental blocks are checked against a from-scratch computation
through removals, contractions and undos."""

from __future__ import annotations

import itertools
import random
from collections.abc import Hashable

import pytest

from experiments.campaign.solving import solve as solve_puzzle
from puzzles import PUZZLES
from puzzles.hashi_types import HashiInstance
from solvers import IntVar, Model, Status, connected, linear, propagate_root, solve
from solvers.backends.cp.bridge_blocks import BRIDGE, DEAD, BridgeBlocks

Edge = tuple[Hashable, Hashable, IntVar]


def _reach(nodes: int, ends: list[tuple[int, int]], alive: list[bool], start: int,
           without: int = -1) -> set[int]:
    """The nodes reached from ``start`` over the alive edges other than ``without``."""
    seen, todo = {start}, [start]
    while todo:
        node = todo.pop()
        for edge, (u, v) in enumerate(ends):
            if alive[edge] and edge != without and node in (u, v):
                other = v if u == node else u
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
    return seen


def _truth(nodes: int, ends: list[tuple[int, int]], alive: list[bool]
           ) -> tuple[bool, set[int]]:
    """Whether the alive edges connect every node, and which of them are bridges."""
    if nodes <= 1:
        return True, set()
    bridges = {edge for edge, (u, v) in enumerate(ends) if alive[edge] and u != v
               and v not in _reach(nodes, ends, alive, u, without=edge)}
    return len(_reach(nodes, ends, alive, 0)) == nodes, bridges


@pytest.mark.parametrize("seed", range(6))
def test_blocks_agree_with_a_fresh_computation_through_removals_joins_and_undos(
        seed: int) -> None:
    """After every step the graph is found cut exactly when it is, every bridge not
    known present is labelled one, and every labelled one is a bridge; undoing to a mark
    gives back the state of that mark."""
    rng = random.Random(seed)
    checked = 0
    for _ in range(120):
        nodes = rng.randint(1, 8)
        ends = [(rng.randrange(nodes), rng.randrange(nodes)) for _ in range(rng.randint(0, 14))]
        alive = [rng.random() < 0.85 for _ in ends]
        present = {edge for edge, live in enumerate(alive) if live and rng.random() < 0.2}
        blocks = BridgeBlocks(nodes, ends)
        found = blocks.start(alive, [edge in present for edge in range(len(ends))])
        whole, bridges = _truth(nodes, ends, alive)
        assert (found is not None) == whole
        if found is None:
            continue
        assert set(found) <= bridges and bridges - present <= set(found)
        marks: list[tuple[int, list[int], set[int]]] = []
        for _ in range(25):
            if marks and rng.random() < 0.25:
                length, labels, present = marks.pop()
                blocks.undo_to(length)
                assert blocks.edge_block == labels and not blocks.pending
                continue
            marks.append((len(blocks.trail), list(blocks.edge_block), set(present)))
            cut = False
            for _ in range(rng.randint(1, 3)):
                live = [edge for edge, label in enumerate(blocks.edge_block) if label != DEAD]
                if not live:
                    break
                edge = rng.choice(live)
                if rng.random() < 0.4:
                    present.add(edge)
                    blocks.join(edge)
                elif edge not in present:
                    cut = not blocks.remove(edge) or cut
            result = None if cut else blocks.settle()
            alive = [label != DEAD for label in blocks.edge_block]
            whole, bridges = _truth(nodes, ends, alive)
            assert (result is not None) == whole, (ends, alive)
            checked += 1
            if result is None:
                length, _, present = marks.pop()
                blocks.undo_to(length)
                continue
            labelled = {edge for edge, label in enumerate(blocks.edge_block) if label == BRIDGE}
            assert labelled <= bridges and bridges - present <= labelled, (ends, alive)
    assert checked > 500


def _random_model(seed: int) -> tuple[Model, list[Edge]]:
    """A small multigraph (parallel edges, a loop now and then, a variable weighing two
    edges now and then), weights 0..1 or 0..2, and a cap on the total weight so that
    the search has disconnected layouts to refuse."""
    rng = random.Random(seed)
    model = Model(f"random-{seed}")
    nodes = rng.randint(3, 5)
    weights = [model.int_var(0, rng.choice((1, 2)), f"w{i}") for i in range(rng.randint(4, 7))]
    edges: list[Edge] = [(u, u + 1, weights[u % len(weights)]) for u in range(nodes - 1)]
    for weight in weights[nodes - 1:]:
        edges.append((rng.randrange(nodes), rng.randrange(nodes), weight))
    if rng.random() < 0.5:
        edges.append((rng.randrange(nodes), rng.randrange(nodes), rng.choice(weights)))
    model.add(connected(range(nodes), edges))
    model.add(linear([(1, w) for w in weights], "<=", nodes + rng.randint(-1, 2)))
    return model, edges


def _brute_force(model: Model) -> int:
    """The assignments that satisfy every constraint, the graph's meaning included."""
    return sum(model.satisfied_by(dict(zip(model.variables, values)))
               for values in itertools.product(*(v.domain for v in model.variables)))


@pytest.mark.parametrize("seed", range(40))
def test_the_propagator_keeps_exactly_the_connected_solutions(seed: int) -> None:
    model, _ = _random_model(seed)
    expected = _brute_force(model)
    for heuristic in ("input/min", "first-fail/max"):
        result = solve(model, "cp", heuristic, max_solutions=0, time_limit=30)
        assert result.complete and result.statistics.solutions == expected, heuristic
        if expected == 0:
            assert result.status is Status.UNSATISFIABLE


def _chain_and_cycle(fixed_first: bool) -> tuple[Model, dict[str, IntVar]]:
    """Two parallel edges a=b, then b-c, then the cycle c-d-e-c, and d-e fixed at 0 by a
    constraint posted before or after ``connected``."""
    model = Model("chain-and-cycle")
    names = ["ab1", "ab2", "bc", "cd", "de", "ec"]
    weight = {name: model.int_var(0, 2, name) for name in names}
    if fixed_first:
        model.add(linear([(1, weight["de"])], "==", 0))
    model.add(connected("abcde", [(name[0], name[1], weight[name]) for name in names]))
    if not fixed_first:
        model.add(linear([(1, weight["de"])], "==", 0))
    return model, weight


@pytest.mark.parametrize("fixed_first", [True, False])
def test_bridges_and_only_bridges_are_made_present_at_the_root(fixed_first: bool) -> None:
    """b-c, c-d and e-c are bridges once d-e is gone; neither parallel edge a=b is."""
    model, weight = _chain_and_cycle(fixed_first)
    domains = propagate_root(model, "cp")
    assert domains is not None
    assert {name: domains[w] for name, w in weight.items()} == {
        "ab1": (0, 1, 2), "ab2": (0, 1, 2), "bc": (1, 2), "cd": (1, 2), "de": (0,),
        "ec": (1, 2)}


def test_a_graph_that_cannot_be_connected_has_no_solution() -> None:
    """A node no edge reaches, and two halves whose only link is fixed at 0."""
    lonely = Model("lonely")
    ab = lonely.int_var(0, 2, "ab")
    lonely.add(connected("abc", [("a", "b", ab)]))
    halves = Model("halves")
    weight = {name: halves.int_var(0, 1, name) for name in ("ab", "bc", "cd", "da", "ef")}
    halves.add(connected("abcdef", [(n[0], n[1], w) for n, w in weight.items()]
                         + [("a", "e", halves.int_var(0, 0, "ae"))]))
    for model in (lonely, halves):
        assert propagate_root(model, "cp") is None
        result = solve(model, "cp", "first-fail/min", max_solutions=0, time_limit=30)
        assert result.status is Status.UNSATISFIABLE and result.complete
        assert result.statistics.solutions == 0


def _hashis() -> list[tuple[str, HashiInstance]]:
    """Every small Hashi and the KU Leuven ones, with their file's name."""
    hashi = PUZZLES.get("hashi")
    folder = hashi.data_folder()
    return [(f"{path.stem}-{instance.name}", instance)
            for path in [*sorted((folder / "small").glob("*.txt")), folder / "kul_aplai_2019.txt"]
            for instance in hashi.read(path)]


@pytest.mark.parametrize(("name", "instance"), _hashis(), ids=[name for name, _ in _hashis()])
def test_hashi_puzzles_solve_with_checked_solutions(name: str, instance: HashiInstance) -> None:
    """One solution, checked by the puzzle's checker; and as many solutions in all as
    the search that tests connectivity only on finished layouts finds, on two searches."""
    options = {"connect": "propagator", "improve": "none"}
    run = solve_puzzle(instance, viewpoint="bridges", solver="cp", heuristic="first-fail/min",
                       options=options, time_limit=30)
    after = solve_puzzle(instance, viewpoint="bridges", solver="cp", heuristic="first-fail/min",
                         options={"connect": "after-search"}, max_solutions=0, time_limit=30)
    assert after.result.complete
    if after.result.statistics.solutions == 0:
        assert run.status is Status.UNSATISFIABLE
    else:
        assert run.status is Status.SOLVED and run.violations == (), run.violations
    for heuristic in ("first-fail/min", "auto"):
        every = solve_puzzle(instance, viewpoint="bridges", solver="cp", heuristic=heuristic,
                             options=options, max_solutions=0, time_limit=30)
        assert every.result.complete
        assert every.result.statistics.solutions == after.result.statistics.solutions
        assert every.violations == (() if every.result.statistics.solutions else None)
