"""Every Hashi viewpoint x connect strategy x improvement x backend x heuristic solves
small Hashis as the checker says; counts agree with a model-free brute force; the
after-search check rejects the disconnected answers, lazy cuts them off; improvements
keep every solution."""

from __future__ import annotations

import pytest

from experiments.campaign.solving import solve
from puzzles import PUZZLES
from puzzles.hashi import read
from puzzles.hashi_types import HashiInstance
from solvers import BACKENDS, Status
from solvers.constraints import Connected
from tests.grid import Cell, assert_solves, grid, params, refused_as_declared
from tests.puzzles.test_hashi_puzzle import count_solutions
from viewpoints import get_viewpoint, viewpoints_of

FOLDER = PUZZLES.get("hashi").data_folder() / "small"
SMALL = {i.name: i for i in read(FOLDER / "small.txt")}
SEVERAL = {i.name: i for i in read(FOLDER / "several.txt")}
TINY = [SMALL["square"], SMALL["block"], SMALL["row"]]
CELLS = grid("hashi")
VIEWPOINTS = [v.name for v in viewpoints_of("hashi")]
CONNECT = list(get_viewpoint("hashi", "bridges").options["connect"].choices)
IMPROVE = list(get_viewpoint("hashi", "bridges").options["improve"].choices)


def _tiny_only(cell: Cell) -> bool:
    """Where the 8x8 KU Leuven puzzle 4 takes seconds to minutes: python-constraint's
    plain search, and a flow decomposition on a depth-first solver, whose bounds
    reasoning cannot see a disconnected layout and labels flows until it has tried all
    (MiniZinc gets the flow for every ``connect``)."""
    options = dict(cell.options)
    return cell.backend in ("python-constraint", "minizinc") or (
        options.get("connect") == "flow" and cell.backend in ("cp", "choco"))


@pytest.mark.parametrize("cell", params(CELLS))
def test_small_hashis(cell: Cell) -> None:
    assert_solves(cell, TINY + ([] if _tiny_only(cell) else [SMALL["puzzle_4"]]))


def _count(instance: HashiInstance, viewpoint: str, backend: str,
           options: dict[str, str]) -> int:
    run = solve(instance, viewpoint=viewpoint, solver=backend, heuristic="input/min",
                options=options, max_solutions=0, time_limit=60)
    assert run.result.complete and run.violations == (), run.result.message
    return run.result.statistics.solutions


@pytest.mark.parametrize("connect", CONNECT)
@pytest.mark.parametrize("viewpoint", VIEWPOINTS)
@pytest.mark.parametrize("backend", BACKENDS.names())
def test_counts_equal_the_brute_force(backend: str, viewpoint: str, connect: str) -> None:
    """The propagator (and every other strategy) removes no connected solution: the
    counts equal a search that knows no model. KU Leuven 1 (two solutions) is left to
    the solvers that count it in well under a second: where connectivity is a flow
    (``flow``; ``propagator`` on a backend with no graph constraint, such as CP-SAT),
    every flow of every layout is a solution to the solver, and the loop counts each
    layout once."""
    flows = connect == "flow" or (
        connect == "propagator" and Connected not in BACKENDS.get(backend).capabilities.native)
    instances = TINY + ([] if backend == "python-constraint" or flows
                        else [SEVERAL["puzzle_1"]])
    for instance in instances:
        if refused_as_declared("hashi", instance, viewpoint, backend):
            return
        expected = len(count_solutions(instance, most=10))
        assert _count(instance, viewpoint, backend, {"connect": connect}) == expected, \
            instance.name


def test_ku_leuven_1_has_two_solutions() -> None:
    assert len(count_solutions(SEVERAL["puzzle_1"], most=10)) == 2


@pytest.mark.parametrize("backend", ["cp", "cpsat", "choco", "python-constraint"])
def test_after_search_rejects_the_disconnected_answers(backend: str) -> None:
    """In the square, two double bridges on opposite sides meet every number but leave
    two groups: the search finds them, the check rejects them, the ring is the answer."""
    run = solve(SMALL["square"], viewpoint="bridges", solver=backend, heuristic="input/max",
                options={"connect": "after-search"}, max_solutions=0)
    assert run.result.complete and run.result.statistics.solutions == 1
    assert run.result.statistics.rejected == 2
    assert run.solution == SMALL["square"].known_solution


@pytest.mark.parametrize("connect", ["after-search", "lazy", "repair"])
@pytest.mark.parametrize("backend", ["cp", "cpsat", "choco"])
def test_only_disconnected_answers_mean_no_solution(connect: str, backend: str) -> None:
    """``1 - 1 - 1 - 1``: the only answer meeting every number is two pairs apart."""
    run = solve(SEVERAL["two-pairs"], viewpoint="bridges", solver=backend, heuristic="input/min",
                options={"connect": connect})
    assert run.result.status is Status.UNSATISFIABLE and run.result.complete
    statistics = run.result.statistics
    if connect == "after-search":
        assert statistics.rejected == 1
    else:
        assert statistics.lazy_rounds == 1 and statistics.lazy_cuts == 1  # both groups: one cut


def test_lazy_counts_its_rounds_and_cuts_on_the_square() -> None:
    run = solve(SMALL["square"], viewpoint="bridges", solver="cp", heuristic="input/max",
                options={"connect": "lazy"})
    assert run.result.status is Status.SOLVED and run.violations == ()
    assert run.result.statistics.lazy_rounds == 1 and run.result.statistics.lazy_cuts == 1


@pytest.mark.parametrize("improve", IMPROVE)
@pytest.mark.parametrize("viewpoint", VIEWPOINTS)
def test_improvements_keep_every_solution(viewpoint: str, improve: str) -> None:
    for instance in [*TINY, SEVERAL["puzzle_1"], SMALL["puzzle_3"], SMALL["puzzle_4"]]:
        expected = len(count_solutions(instance, most=10))
        for backend in ("cp", "choco"):
            assert _count(instance, viewpoint, backend,
                          {"connect": "propagator", "improve": improve}) == expected, \
                (instance.name, backend)


def test_improvements_fix_the_pairs_they_name() -> None:
    """Two 1-islands among others get no bridge; two 2-islands at most one."""
    ones = PUZZLES.get("hashi").parse("== ones\n1 4\n1 1 - 2\n")[0]
    model = get_viewpoint("hashi", "bridges").build(ones, {"improve": "one-one"}).model
    assert solve(ones, viewpoint="bridges", solver="cp", heuristic="input/min",
                 options={"improve": "one-one"}).result.status is Status.UNSATISFIABLE
    assert model.constraints  # the rule is posted as a constraint, not found in search


def test_islands_first_takes_the_most_constrained_islands_first() -> None:
    model = get_viewpoint("hashi", "bridges").build(SMALL["puzzle_4"]).model
    first = model.variable_orders["islands-first"][0]
    instance = SMALL["puzzle_4"]
    seeing: dict[tuple[int, int], int] = {}
    for variable in model.search_variables():
        _, r1, c1, r2, c2 = variable.name.split("_")
        for cell in ((int(r1), int(c1)), (int(r2), int(c2))):
            seeing[cell] = seeing.get(cell, 0) + 1
    fewest = min(seeing.values())
    _, r1, c1, r2, c2 = first.name.split("_")
    assert min(seeing[int(r1), int(c1)], seeing[int(r2), int(c2)]) == fewest
    assert len(instance.islands) == len(seeing)


def test_the_networkx_propagator_stops_at_the_time_limit() -> None:
    """cp's impact-based search probes at the root without looking at its limit; the
    propagator fails once the deadline has passed, so the run ends near its limit (it
    ran seconds past a 2 s limit on such a board before)."""
    dense = read(PUZZLES.get("hashi").data_folder() / "coelho2019_200islands.txt")[300]
    run = solve(dense, viewpoint="directions", solver="cp", heuristic="auto",
                options={"connect": "propagator"}, time_limit=0.5)
    assert run.result.status in (Status.TIMEOUT, Status.SOLVED)
    if run.result.status is Status.TIMEOUT:
        assert not run.result.complete and run.result.statistics.solve_s < 1.5
