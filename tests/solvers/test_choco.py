"""The choco backend: exact counts, cp's branching, its limits, Ctrl-C, edge cases, no leak."""

from __future__ import annotations

import importlib
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from types import ModuleType

import pytest

from experiments.campaign.solving import solve as solve_puzzle
from puzzlelab.errors import UnsupportedCombination
from puzzles.nonogram import load as load_nonogram
from puzzles.sudoku import read
from solvers import (
    Model,
    Rectangle,
    Status,
    all_different,
    at_most_one,
    clause,
    connected,
    count,
    element,
    equivalent_to_equality,
    exactly_one,
    global_cardinality,
    inverse,
    linear,
    no_overlap_2d,
    regular,
    solve,
    table,
)
from solvers.backends import choco
from solvers.variables import IntVar
from tests.paths import NONOGRAM_DATA, ROOT, SUDOKU_DATA
from tests.solvers.tiny_models import TINY_MODELS, brute_force_count
from viewpoints import VIEWPOINTS

MISSING = choco.ChocoBackend.unavailable()
needs_choco = pytest.mark.skipif(MISSING is not None, reason=f"choco unavailable: {MISSING}")

COURSE = read(SUDOKU_DATA / "kul_named_9x9.txt")[:14]
EASY = read(SUDOKU_DATA / "easy_9x9.txt")[0]
NONOGRAMS = [load_nonogram(path) for path in sorted((NONOGRAM_DATA / "small").glob("*.non"))]


@pytest.fixture
def ctrl_c_ignored() -> Iterator[None]:
    """As in the runner's workers: no Ctrl-C can arrive, so no check is posted."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    yield
    signal.signal(signal.SIGINT, previous)


@needs_choco
@pytest.mark.parametrize("heuristic", ["input/min", "first-fail/max", "auto",
                                       "input/random", "first-fail/random"])
@pytest.mark.parametrize("name", TINY_MODELS)
def test_tiny_models_are_counted_exactly(name: str, heuristic: str) -> None:
    expected = brute_force_count(TINY_MODELS[name]())
    model = TINY_MODELS[name]()
    result = solve(model, "choco", heuristic, max_solutions=0, time_limit=30)
    assert result.complete and result.statistics.solutions == expected
    assert result.status is (Status.SOLVED if expected else Status.UNSATISFIABLE)
    if expected:
        assert result.assignment is not None and model.satisfied_by(result.assignment)


# Choco's diffN prunes more than cp's, and cp decomposes global_cardinality: the searches
# differ there; everywhere else the propagation is the same, so must the search be
DIFFERENT_PROPAGATION = {"no-overlap-2d", "global-cardinality"}


@needs_choco
@pytest.mark.parametrize("heuristic", ["input/min", "first-fail/max", "dom-deg/min",
                                       "input/random", "first-fail/random"])
@pytest.mark.parametrize("name", sorted(set(TINY_MODELS) - DIFFERENT_PROPAGATION))
def test_a_named_heuristic_branches_exactly_as_on_cp(name: str, heuristic: str) -> None:
    ours, theirs = (solve(TINY_MODELS[name](), backend, heuristic, max_solutions=0)
                    for backend in ("choco", "cp"))
    for figure in ("branches", "backtracks", "first_branches", "solutions"):
        assert getattr(ours.statistics, figure) == getattr(theirs.statistics, figure), figure
    assert ours.assignment is not None or theirs.assignment is None
    if ours.assignment is not None and theirs.assignment is not None:  # two models: by name
        assert ({v.name: value for v, value in ours.assignment.items()}
                == {v.name: value for v, value in theirs.assignment.items()})


# where Choco's element and inverse prune more than cp's (value-position under
# first-fail, channeled), the trees part; classic and value-position's input order agree
SAME_SUDOKU_SEARCH = [("classic", "input/min"), ("classic", "first-fail/min"),
                      ("classic", "dom-deg/max"), ("classic", "input/random"),
                      ("value-position", "input/min")]


@needs_choco
@pytest.mark.parametrize(("viewpoint", "heuristic"), SAME_SUDOKU_SEARCH)
def test_weak_sudoku_searches_match_cp_backtrack_for_backtrack(viewpoint: str,
                                                               heuristic: str) -> None:
    """Choco's FC all_different prunes as cp's value-based one: the same tree."""
    for instance in COURSE[:4]:
        ours, theirs = (solve_puzzle(instance, viewpoint=viewpoint, solver=solver,
                                     heuristic=heuristic, options={"alldiff": "weak"})
                        for solver in ("choco", "cp"))
        assert ours.correct and theirs.correct
        assert ours.statistics.backtracks == theirs.statistics.backtracks
        assert ours.statistics.branches == theirs.statistics.branches


@needs_choco
@pytest.mark.parametrize("heuristic", ["input/min", "first-fail/min"])
def test_strong_all_different_backtracks_no_more_than_weak(heuristic: str) -> None:
    for instance in COURSE[:6]:
        runs = {strength: solve_puzzle(instance, viewpoint="classic", solver="choco",
                                       heuristic=heuristic, options={"alldiff": strength})
                for strength in ("weak", "strong")}
        for run in runs.values():
            assert run.correct and run.solution == instance.known_solution
        weak, strong = (runs[s].result.statistics.backtracks for s in ("weak", "strong"))
        assert strong <= weak, instance.name


def _viewpoint_runs() -> list[tuple[str, dict[str, str]]]:
    runs: list[tuple[str, dict[str, str]]] = []
    for key in VIEWPOINTS:
        viewpoint = VIEWPOINTS.get(key)
        if viewpoint.puzzle in ("sudoku", "nonogram"):
            runs.append((key, {}))
            if "alldiff" in viewpoint.options:
                runs.append((key, {"alldiff": "strong"}))
    return runs


@needs_choco
@pytest.mark.parametrize("heuristic", ["input/min", "first-fail/max", "auto", "random/random"])
@pytest.mark.parametrize(("key", "options"), _viewpoint_runs(),
                         ids=lambda value: value if isinstance(value, str) else
                         ",".join(f"{k}={v}" for k, v in value.items()))
def test_every_viewpoint_solves_and_the_checker_agrees(key: str, options: dict[str, str],
                                                       heuristic: str) -> None:
    viewpoint = VIEWPOINTS.get(key)
    instances = [EASY] if viewpoint.puzzle == "sudoku" else NONOGRAMS
    for instance in instances:
        run = solve_puzzle(instance, viewpoint=viewpoint.name, solver="choco", heuristic=heuristic,
                           options=options, max_solutions=0, time_limit=60)
        assert run.result.complete and run.violations == (), (instance.name, run.violations)
        if instance.known_solution is not None and run.result.statistics.solutions == 1:
            assert run.solution == instance.known_solution


def permutations(size: int) -> Model:
    model = Model(f"permutations-{size}")
    model.add(all_different([model.int_var(0, size - 1) for _ in range(size)]))
    return model


def pigeonhole(pigeons: int) -> Model:
    model = Model(f"pigeonhole-{pigeons}")
    model.add(all_different([model.int_var(0, pigeons - 2) for _ in range(pigeons)]))
    return model


TIME_LIMITED = [(permutations(12), None), (pigeonhole(13), 1)]


@needs_choco
@pytest.mark.parametrize("watched", [True, False], ids=["ctrl-c-watched", "ctrl-c-ignored"])
@pytest.mark.parametrize(("model", "max_solutions"), TIME_LIMITED,
                         ids=["count-permutations", "refute-pigeonhole"])
def test_a_time_limit_ends_a_long_search_as_timeout(
        model: Model, max_solutions: int | None, watched: bool,
        request: pytest.FixtureRequest) -> None:
    """Choco's own limit, or the check posted where Ctrl-C can arrive, whichever is first."""
    request.getfixturevalue("ctrl_c_raises" if watched else "ctrl_c_ignored")
    limit = 0.5
    started = time.perf_counter()
    result = solve(model, "choco", "input/min", time_limit=limit, max_solutions=max_solutions)
    assert result.status is Status.TIMEOUT and not result.complete
    assert limit * 0.9 <= result.statistics.solve_s <= limit + 1.0
    assert time.perf_counter() - started <= limit + 3.0
    assert result.statistics.branches > result.statistics.backtracks > 0 or (
        max_solutions is None and result.statistics.solutions > 1000)


@needs_choco
def test_a_timeout_adds_no_fails_of_its_own(ctrl_c_raises: None) -> None:
    """The check that stops the search fails every open node on the way up: those fails
    are not the search's, and a search with no dead end reports 0 backtracks."""
    model = Model("free")
    for i in range(20):
        model.bool_var(f"x{i}")
    result = solve(model, "choco", "input/min", time_limit=0.3, max_solutions=0)
    assert result.status is Status.TIMEOUT and result.statistics.backtracks == 0
    assert result.statistics.branches >= 2 * result.statistics.solutions - 20


@needs_choco
def test_ctrl_c_stops_a_search_in_choco() -> None:
    """pychoco holds the GIL while Choco searches; the check posted on the branching
    variables lets Python run Ctrl-C's handler (and this timer's thread) meanwhile. In a
    process of its own: a test worker that has run thousands of Choco searches has spent
    the stop checks' budget (see the next test), and then Ctrl-C waits, as designed."""
    script = textwrap.dedent("""
        import os, signal, threading, time
        from solvers import Model, all_different, solve
        signal.signal(signal.SIGINT, signal.default_int_handler)
        model = Model("pigeonhole-14")
        model.add(all_different([model.int_var(0, 12) for _ in range(14)]))
        threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
        started = time.perf_counter()
        try:
            solve(model, "choco", "first-fail/min", time_limit=30)
        except KeyboardInterrupt:
            print(f"stopped after {time.perf_counter() - started:.2f} s")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("stopped after"), done.stderr
    assert float(done.stdout.split()[2]) < 5, done.stdout


@needs_choco
def test_variables_the_strategy_leaves_open_are_finished_as_on_cp() -> None:
    """Choco leaves variables outside its strategy open; a second search finishes them."""
    model = Model("partial")
    x, y = model.int_var(0, 2, "x"), model.int_var(0, 3, "y")
    model.bool_var("free")
    model.add(linear([(1, x), (1, y)], "<=", 3))
    model.branch_on([x])
    for heuristic in ("input/min", "first-fail/max", "input/random"):
        ours, theirs = (solve(model, backend, heuristic, max_solutions=0)
                        for backend in ("choco", "cp"))
        assert ours.complete and ours.statistics.solutions == brute_force_count(model) == 18
        assert ours.statistics.branches == theirs.statistics.branches
        assert ours.statistics.first_branches == theirs.statistics.first_branches
    limited = solve(model, "choco", "input/min", max_solutions=4)
    assert limited.statistics.solutions == 4 and not limited.complete


def _edge_cases() -> dict[str, Callable[[Model], object]]:
    """Constraints on no items, constants and odd domains: Choco would end the process
    on some of them as they are, so the posters settle them first."""
    def var(model: Model, name: str, lb: int = 0, ub: int = 2) -> IntVar:
        return model.int_var(lb, ub, name)

    return {
        "empty-all-different": lambda m: m.add(all_different([])),
        "empty-exactly-one": lambda m: m.add(exactly_one([])),
        "empty-at-most-one": lambda m: m.add(at_most_one([])),
        "empty-table-allowing-nothing": lambda m: m.add(table([], [])),
        "empty-table-allowing-the-empty-tuple": lambda m: m.add(table([], [()])),
        "table-without-rows": lambda m: m.add(table([m.variables[0]], [])),
        "regular-on-the-empty-word": lambda m: m.add(regular([], [], 0, [0])),
        "regular-accepting-nothing": lambda m: m.add(regular([m.variables[1]], [(0, 1, 1)],
                                                             0, [])),
        "regular-on-negative-symbols": lambda m: m.add(regular(
            [m.int_var(-2, 1, "n"), m.variables[1]], [(4, -2, 5), (4, 0, 5), (5, 1, 6)],
            4, [6])),
        "regular-on-values-beyond-its-symbols": lambda m: m.add(regular(
            [m.int_var_from_values([0, 1, 70_000], "n")], [(0, 0, 1), (0, 1, 1)], 0, [1])),
        "empty-count": lambda m: m.add(count([], 1, m.variables[0])),
        "empty-global-cardinality": lambda m: m.add(global_cardinality([], {1: 0})),
        "empty-inverse": lambda m: m.add(inverse([], [])),
        "negative-clause-with-a-constant": lambda m: m.add(clause(
            negative=[m.variables[1], m.int_var(1, 1, "one")])),
        "reified-equality-on-holes": lambda m: m.add(equivalent_to_equality(
            m.variables[1], m.int_var_from_values([1, 4, 9], "h"), 4)),
        "element-of-variables": lambda m: m.add(element(
            [m.variables[0], m.int_var_from_values([1, 4], "h")], var(m, "i", -1, 3),
            var(m, "v", 0, 9))),
        "one-rectangle": lambda m: m.add(no_overlap_2d([Rectangle(m.variables[0], 0, 1, 1)])),
        "connected-without-edges": lambda m: m.add(connected(["a", "b"], [])),
        "connected-by-parallel-edges": lambda m: m.add(connected(
            ["a", "b"], [("a", "b", m.variables[0]), ("b", "a", var(m, "p", 0, 1))])),
        "strong-all-different-on-holes": lambda m: m.add(all_different(
            [m.int_var_from_values([1, 4, 9], "h"), m.int_var_from_values([1, 9], "g"),
             m.variables[0]], "strong")),
    }


EDGE_CASES = _edge_cases()


@needs_choco
@pytest.mark.parametrize("name", EDGE_CASES)
def test_edge_cases_are_counted_exactly(name: str) -> None:
    def build() -> Model:
        model = Model(name)
        model.int_var(0, 2, "x")
        model.bool_var("b")
        EDGE_CASES[name](model)
        return model

    expected = brute_force_count(build())
    for heuristic in ("input/min", "auto"):
        result = solve(build(), "choco", heuristic, max_solutions=0)
        assert result.complete and result.statistics.solutions == expected, heuristic


@needs_choco
def test_values_beyond_chocos_range_are_refused() -> None:
    model = Model("huge")
    model.int_var_from_values([0, 10**8], "x")  # a domain of two values, one beyond
    with pytest.raises(UnsupportedCombination, match="Choco's bound"):
        solve(model, "choco", "input/min")
    model = Model("wide alphabet")
    wide = model.int_var_from_values([0, 90_000], "x")
    model.add(regular([wide], [(0, 0, 1), (0, 90_000, 1)], 0, [1]))
    with pytest.raises(UnsupportedCombination, match=r"0\.\.90000"):
        solve(model, "choco", "input/min")


@needs_choco
@pytest.mark.parametrize("heuristic", ["input/min+probe", "first-fail/max+probe-all",
                                       "auto+probe"])
def test_probing_is_refused_naming_what_pychoco_lacks(heuristic: str) -> None:
    with pytest.raises(UnsupportedCombination, match=r"lacks probing.*pychoco gives no way"):
        solve(TINY_MODELS["linear"](), "choco", heuristic)


@needs_choco
def test_figures_choco_does_not_give_are_none() -> None:
    statistics = solve(pigeonhole(5), "choco", "input/min").statistics
    assert statistics.backtracks and statistics.branches
    assert statistics.conflicts is None and statistics.propagations is None


@needs_choco
@pytest.mark.parametrize(("heuristic", "finishing"), [("input/min", True),
                                                     ("first-fail/random", False),
                                                     ("auto", False)])
def test_every_java_handle_made_for_a_search_is_freed(heuristic: str, finishing: bool,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """pychoco's own calls leave a Java array pinned per call, which keeps each model in
    Choco's heap; the backend frees every handle it makes, finishing searches' too (a
    named order leaves the free variable to them; a ranked one and auto branch on it)."""
    made: list[choco.posting.ChocoModel] = []
    original = choco.posting.ChocoModel.__init__

    def recorded(self: choco.posting.ChocoModel, name: str) -> None:
        original(self, name)
        made.append(self)

    monkeypatch.setattr(choco.posting.ChocoModel, "__init__", recorded)
    model = Model("partial")
    cells = [model.int_var(0, 2, f"x{i}") for i in range(3)]
    model.add(all_different(cells))
    model.int_var(0, 1, "free")
    model.branch_on(cells)
    for limit in (None, 1):
        assert solve(model, "choco", heuristic, max_solutions=limit).statistics.solutions
    assert (len(made) > 2) is finishing
    assert all(not built.made and not built.callbacks for built in made)


def test_without_pychoco_the_backend_says_why_and_refuses(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = importlib.import_module

    def without_pychoco(name: str, package: str | None = None) -> ModuleType:
        if name.split(".")[0] == "pychoco":
            raise ModuleNotFoundError("No module named 'pychoco'")
        return real_import(name, package)

    monkeypatch.setattr(importlib, "import_module", without_pychoco)
    reason = choco._start()
    monkeypatch.undo()
    assert reason is not None and "No module named 'pychoco'" in reason
    monkeypatch.setattr(choco, "_STARTED", [reason])
    assert choco.ChocoBackend.unavailable() == reason
    with pytest.raises(UnsupportedCombination, match=r"unavailable here.*No module named"):
        solve(TINY_MODELS["linear"](), "choco", "input/min")


@needs_choco
def test_thousands_of_interruptible_solves_in_one_process() -> None:
    """pychoco crashes a process at about its 4,100th custom constraint; the stop check
    posted for Ctrl-C is one, so past its budget the backend leaves it out."""
    script = textwrap.dedent("""
        import signal
        from solvers import Model, all_different, solve
        signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C watched
        for _ in range(4500):
            model = Model("four")
            cells = [model.int_var(1, 4) for _ in range(4)]
            model.add(all_different(cells))
            assert solve(model, "choco", "input/min").statistics.solutions == 1
        print("all solved")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0 and "all solved" in done.stdout, (done.returncode,
                                                                   done.stderr[-500:])
