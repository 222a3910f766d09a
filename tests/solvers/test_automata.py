"""The automata backend: exact automata, exact propagation and beliefs, cp's choices, limits."""

from __future__ import annotations

import itertools
import os
import signal
import threading
import time

import numpy as np
import pytest

from experiments.campaign.solving import solve as solve_puzzle
from puzzlelab.errors import UnsupportedCombination
from puzzles.nonogram import load
from puzzles.sudoku import parse as parse_sudoku
from solvers import Model, Status, clause, linear, regular, solve, table
from solvers.backends.automata.kernels import beliefs, propagation
from solvers.backends.automata.network import Network, compile_network
from solvers.constraints import Constraint
from tests.facts import facts
from tests.paths import NONOGRAM_DATA
from tests.solvers.tiny_models import TINY_MODELS, brute_force_count
from viewpoints.nonogram import clue_automaton

SMALL = NONOGRAM_DATA / "small"
SURVEY = NONOGRAM_DATA / "webpbn_survey"


def constraints_on_booleans() -> list[tuple[Model, Constraint]]:
    """Each constraint of the tiny 0/1 model, and a few more shapes, with its model."""
    cases = [(model, c) for model in [TINY_MODELS["booleans"]()] for c in model.constraints]
    model = Model("more")
    x = [model.bool_var(f"x{i}") for i in range(5)]
    more = [
        linear([(3, x[0]), (-2, x[1]), (2, x[2]), (1, x[3])], "==", 1),
        linear([], "!=", 0),
        table([x[0], x[1], x[0]], [(0, 1, 0), (1, 1, 1), (1, 0, 0)]),  # x0 read twice
        regular(x, [(0, 0, 0), (0, 1, 1), (1, 1, 1), (1, 0, 2), (2, 0, 2), (2, 7, 2)], 0, [2]),
        clause(positive=(x[4],), negative=(x[4],)),
    ]
    return cases + [(model, c) for c in more]


def accepts(network: Network, constraint: int, word: tuple[int, ...]) -> bool:
    """Read ``word`` through the packed automaton of ``constraint``."""
    state = network.layer_start[network.edge_start[constraint]] if word else (
        network.final_start[constraint])
    for value in word:
        state = network.next_state[state, value]
        if state < 0:
            return False
    return bool(network.accepting[state])


@pytest.mark.parametrize("case", range(len(constraints_on_booleans())))
def test_each_unrolled_automaton_accepts_exactly_what_its_constraint_allows(case: int) -> None:
    model, constraint = constraints_on_booleans()[case]
    network = compile_network(model.variables, [constraint])
    items = [model.variables[v] for v in network.edge_var]
    for word in itertools.product((0, 1), repeat=len(items)):
        assignment = dict.fromkeys(model.variables, 1) | dict(zip(items, word))
        # a word that reads one variable two ways, or a value beyond its domain, is no
        # assignment: what the automaton says of it does not matter
        if all(assignment[item] == value and value in item.domain
               for item, value in zip(items, word)):
            assert accepts(network, 0, word) == constraint.holds(assignment), word


def revise_alone(network: Network, dom: np.ndarray) -> np.ndarray | None:
    """The supports one revision of the only constraint leaves, or None when it fails."""
    states = network.states + 1
    support = np.zeros(len(network.edge_var) + 1, np.int8)
    ok = propagation.revise(0, network.edge_start, network.edge_var, network.layer_start,
                            network.final_start, network.final_end, network.next_state,
                            network.accepting, dom, np.zeros(states, np.bool_),
                            np.zeros(states, np.bool_), support)
    return support[:len(network.edge_var)] if ok else None


@pytest.mark.parametrize("case", range(len(constraints_on_booleans())))
def test_a_revision_keeps_exactly_the_values_with_a_support(case: int) -> None:
    """Domain consistency, checked against every assignment within every domain; where
    a constraint reads a variable twice, the revision reads each place apart, so it
    keeps every supported value and may keep more."""
    model, constraint = constraints_on_booleans()[case]
    network = compile_network(model.variables, [constraint])
    scope = sorted(set(network.edge_var.tolist()))
    for domains in itertools.product((1, 2, 3), repeat=len(scope)):
        dom = network.domains.copy()
        dom[scope] &= np.array(domains, np.int8)
        if (dom[scope] == 0).any():
            continue
        supported = [0] * len(network.edge_var)
        for values in itertools.product((0, 1), repeat=len(scope)):
            if any(not (dom[v] >> value) & 1 for v, value in zip(scope, values)):
                continue
            chosen = dict(zip(scope, values))
            assignment = dict.fromkeys(model.variables, 1) | {
                model.variables[v]: value for v, value in chosen.items()}
            if constraint.holds(assignment):
                for edge, v in enumerate(network.edge_var):
                    supported[edge] |= 1 << chosen[int(v)]
        support = revise_alone(network, dom)
        if len(scope) < len(network.edge_var):
            assert (support is None and not any(supported)) or (support is not None and all(
                kept & wanted == wanted for kept, wanted in zip(support, supported))), domains
        elif not any(supported):
            assert support is None, domains
        else:
            assert support is not None and support.tolist() == supported, domains


def test_the_beliefs_of_one_constraint_are_its_solution_frequencies() -> None:
    """On a single constraint, sum-product is exact: the message of each cell is the
    share of the line's placements that fill it."""
    model = Model("line")
    cells = [model.bool_var(f"c{i}") for i in range(9)]
    transitions, accepting = clue_automaton((2, 1, 2))
    line = regular(cells, transitions, 0, accepting)
    network = compile_network(model.variables, [line])
    words = [word for word in itertools.product((0, 1), repeat=9)
             if line.holds(dict(zip(cells, word)))]
    messages = np.full((9, 2), 0.5)
    states, longest = network.states + 1, 10
    beliefs.beliefs(*network.kernel_arguments(), network.domains.copy(), messages,
                    np.ones(1, np.bool_), 1, 0.0, np.zeros(states), np.zeros(states),
                    np.zeros((longest, 2)), np.zeros(longest + 1), np.zeros((longest, 2)))
    for i in range(9):
        share = sum(word[i] for word in words) / len(words)
        assert messages[i, 1] == pytest.approx(max(share, beliefs.FLOOR), abs=1e-12)
        assert messages[i, 0] == pytest.approx(max(1 - share, beliefs.FLOOR), abs=1e-12)


@pytest.mark.parametrize("name", ["two_solutions_2x2.non", "six_solutions_3x3.non",
                                  "nonogram-5x4-d0.6-s5-1.non", "webpbn-00027.non",
                                  "webpbn-00065.non"])
@pytest.mark.parametrize("heuristic", ["input/min", "first-fail/max", "random/random",
                                       "dom-deg/min", "input/min+probe",
                                       "first-fail/max+probe-all"])
def test_named_searches_take_the_choices_cp_takes(name: str, heuristic: str) -> None:
    """Both propagate each line to domain consistency and branch alike, so on the regular
    viewpoint the two searches are the same tree: same branches, backtracks, solutions."""
    instance = load((SMALL if (SMALL / name).exists() else SURVEY) / name)
    puzzle_runs = [solve_puzzle(instance, viewpoint="regular", solver=backend, heuristic=heuristic,
                                seed=3, max_solutions=0, time_limit=60)
                   for backend in ("cp", "automata")]
    runs = [run.result for run in puzzle_runs]
    solutions = [run.solution for run in puzzle_runs]
    cp, automata = (run.statistics for run in runs)
    assert runs[1].complete and runs[1].status is Status.SOLVED
    assert (automata.branches, automata.backtracks, automata.first_branches,
            automata.solutions) == (cp.branches, cp.backtracks, cp.first_branches,
                                    cp.solutions)
    assert solutions[0] == solutions[1]
    if heuristic.endswith("+probe"):  # at the root, the same probes too
        assert automata.probes == cp.probes and automata.probe_fixed is not None
    elif "+probe" in heuristic:
        assert automata.probes is not None and automata.probe_fixed is not None
    else:
        assert automata.probes is None and automata.probe_fixed is None


def test_root_probing_probes_as_cp_does() -> None:
    """Petro (#436) is settled by root probing alone: the same probes on both backends.
    ``probe_fixed`` may differ: cp counts a variable the probes agree on only if the
    propagation of those fixed before it has not fixed it already."""
    instance = load(SURVEY / "webpbn-00436.non")
    cp, automata = (solve_puzzle(instance, viewpoint="regular", solver=backend,
                                 heuristic="input/min+probe", time_limit=60).statistics
                    for backend in ("cp", "automata"))
    assert automata.branches == cp.branches == 0
    assert automata.probes == cp.probes == 2008


@pytest.mark.parametrize("name", ["knotty.non", "webpbn-06574.non"])
def test_auto_solves_hard_survey_puzzles_as_the_checker_says(name: str) -> None:
    run = solve_puzzle(load(SURVEY / name), viewpoint="regular", solver="automata",
                       heuristic="auto", time_limit=60)
    assert run.result.status is Status.SOLVED and run.violations == ()
    statistics = run.result.statistics
    assert statistics.probes and statistics.branches and statistics.propagations
    assert statistics.belief_updates > 0


def test_auto_proves_uniqueness_too() -> None:
    run = solve_puzzle(load(SURVEY / "webpbn-00065.non"), viewpoint="regular", solver="automata",
                       heuristic="auto", max_solutions=0, time_limit=60)
    assert run.result.complete and run.result.statistics.solutions == 1
    assert run.violations == () and run.matches_known


def test_auto_refuses_a_probing_modifier_it_already_has() -> None:
    model = TINY_MODELS["booleans"]()
    with pytest.raises(UnsupportedCombination, match="auto already probes"):
        solve(model, "automata", "auto+probe")


def test_models_beyond_zero_one_are_refused_before_any_search() -> None:
    sudoku = parse_sudoku("1.....3..4.....2\n")[0]
    # the backend, the capability it lacks, and a variable that needs it with its domain
    with pytest.raises(UnsupportedCombination,
                       match=facts("'automata'", "integer variables", "cell_0_1", "0..3")):
        solve_puzzle(sudoku, viewpoint="classic", solver="automata", heuristic="input/min")


def test_an_unsatisfiable_model_is_proved_so() -> None:
    model = Model("contradiction")
    x, y = model.bool_var("x"), model.bool_var("y")
    for positive, negative in [((x, y), ()), ((x,), (y,)), ((y,), (x,)), ((), (x, y))]:
        model.add(clause(positive, negative))
    assert brute_force_count(model) == 0
    for heuristic in ("input/min", "input/min+probe", "auto"):
        result = solve(model, "automata", heuristic, max_solutions=0)
        assert result.status is Status.UNSATISFIABLE and result.complete, heuristic


@pytest.mark.parametrize("heuristic", ["input/min", "auto"])
def test_the_time_limit_ends_the_search_in_a_timeout(heuristic: str) -> None:
    """A plain search of #436 takes 200,000 branches; auto's root probing of Faase
    takes longer than the limit, so it is the probing that must stop in time."""
    name = "webpbn-00436.non" if heuristic == "input/min" else "faase.non"
    limit = 0.3
    started = time.perf_counter()
    run = solve_puzzle(load(SURVEY / name), viewpoint="regular", solver="automata",
                       heuristic=heuristic, time_limit=limit)
    elapsed = time.perf_counter() - started
    result = run.result
    assert result.status is Status.TIMEOUT and not result.complete
    assert result.statistics.solve_s is not None
    assert limit * 0.9 <= result.statistics.solve_s <= limit + 1.0
    assert elapsed <= limit + 10.0  # compiling or loading the kernels comes first


def test_each_search_says_when_it_starts_and_with_which_limit() -> None:
    heard: list[float | None] = []
    result = solve(TINY_MODELS["booleans"](), "automata", "auto", time_limit=7.5,
                   on_search_start=heard.append)
    assert result.status is Status.SOLVED and heard == [7.5]


def test_ctrl_c_stops_the_search_and_interrupts(ctrl_c_raises) -> None:
    instance = load(SURVEY / "webpbn-00436.non")
    solve_puzzle(instance, viewpoint="regular", solver="automata", heuristic="input/min",
                 max_solutions=1, time_limit=0.01)  # kernels ready before the clock runs
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    started = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        solve_puzzle(instance, viewpoint="regular", solver="automata", heuristic="input/min",
                     time_limit=60)
    timer.join()
    assert time.perf_counter() - started < 3.0
