"""``+dway`` labels as ECLiPSe's ``indomain`` and ``deep_backtracks`` counts as the course
tables do: the published ``ic`` figures come out exactly, and both backends that label
d-way agree with an independent labelling written as ECLiPSe runs it."""

from __future__ import annotations

import pytest

from experiments.campaign.solving import solve
from experiments.studies.course_tables import published_figures
from puzzlelab.errors import OptionError, UnsupportedCombination
from puzzles import PUZZLES
from solvers import BACKENDS, Heuristic, load_backends, prepare
from tests.experiments.cli.commands import run_cli
from tests.paths import SUDOKU_DATA
from tests.solvers.eclipse_labelling import every_solution, first_solution

SUDOKU = PUZZLES.get("sudoku")
COURSE = {instance.name: instance for instance in SUDOKU.read(SUDOKU_DATA /
                                                              "kul_named_9x9.txt")}
PUBLISHED = published_figures()
PUBLISHED_IC_INPUT = PUBLISHED["ic"]["input"]
PUBLISHED_IC_GLOBAL_INPUT = PUBLISHED["ic_global"]["input"]
SMALL = SUDOKU.read(SUDOKU_DATA / "small_4x4.txt")
DWAY_BACKENDS = ["cp", "ic", "python-constraint"]
load_backends()
OTHER_BACKENDS = sorted(set(BACKENDS.names()) - set(DWAY_BACKENDS))


def deep_backtracks(instance: object, solver: str, heuristic: str,
                    max_solutions: int | None = 1, alldiff: str = "weak"
                    ) -> tuple[int | None, int]:
    run = solve(instance, viewpoint="classic", solver=solver, heuristic=heuristic,
                options={"alldiff": alldiff}, max_solutions=max_solutions)
    assert run.status.value in ("solved", "unsatisfiable") and run.violations in (None, ())
    return run.result.statistics.deep_backtracks, run.result.statistics.solutions


@pytest.mark.parametrize("name", list(PUBLISHED_IC_INPUT))
def test_the_published_ic_input_order_column_is_reproduced_on_cp(name: str) -> None:
    assert deep_backtracks(COURSE[name], "cp", "input/min+dway")[0] == \
        PUBLISHED_IC_INPUT[name]


@pytest.mark.parametrize("backend", ["ic", "python-constraint"])
@pytest.mark.parametrize("name", ["lambda", "hard17", "inkara2012"])
def test_the_other_d_way_backends_reproduce_them_too(backend: str, name: str) -> None:
    assert deep_backtracks(COURSE[name], backend, "input/min+dway")[0] == \
        PUBLISHED_IC_INPUT[name]


@pytest.mark.parametrize("name", list(PUBLISHED_IC_GLOBAL_INPUT))
def test_the_published_ic_global_input_order_column_is_reproduced_on_ic(name: str) -> None:
    """ic_global's all_different (alldiff=hall), propagated in ECLiPSe's order."""
    assert deep_backtracks(COURSE[name], "ic", "input/min+dway", alldiff="hall")[0] == \
        PUBLISHED_IC_GLOBAL_INPUT[name]


def test_the_reference_labelling_reproduces_the_published_column() -> None:
    """The reference is checked against the published figures before it judges ours;
    the idiom over the fixed list of cells (bound ones too) counts the same to the
    first solution as a labelling that skips bound cells."""
    for name in ("lambda", "eastermonster", "inkara2012"):
        instance = COURSE[name]
        skipping = first_solution(instance.givens, instance.box, first_fail=False)
        listed = first_solution(instance.givens, instance.box, first_fail=False,
                                every_cell=True)
        assert skipping[1] == listed[1] == PUBLISHED_IC_INPUT[name]


@pytest.mark.parametrize("backend", DWAY_BACKENDS)
@pytest.mark.parametrize("name", ["hard17", "coloin", "goldennugget", "inkara2012",
                                  "clue17"])
def test_first_fail_counts_equal_the_reference_labelling(backend: str, name: str) -> None:
    instance = COURSE[name]
    expected = first_solution(instance.givens, instance.box, first_fail=True)[1]
    assert deep_backtracks(instance, backend, "first-fail/min+dway")[0] == expected


@pytest.mark.parametrize("backend", DWAY_BACKENDS)
@pytest.mark.parametrize("first_fail", [False, True], ids=["input", "first-fail"])
def test_counting_every_solution_equals_the_reference(backend: str, first_fail: bool) -> None:
    """Small Sudokus, some with many solutions (givens taken away), every solution
    counted: the same solutions and the same returns as the reference."""
    heuristic = "first-fail/min+dway" if first_fail else "input/min+dway"
    for instance in SMALL[:4]:
        for kept in (instance.givens, _fewer(instance.givens)):
            loose = type(instance)(instance.name, instance.box, kept)
            solutions, expected = every_solution(kept, instance.box, first_fail)
            assert deep_backtracks(loose, backend, heuristic, None) == (expected, solutions)


def _fewer(givens: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """The givens with every other one taken away (row-major order)."""
    taken = iter(range(len(givens) ** 2))
    return tuple(tuple(value if not value or next(taken) % 2 else 0 for value in row)
                 for row in givens)


def test_deep_backtracks_is_none_where_it_is_not_measured() -> None:
    instance = COURSE["inkara2012"]
    for solver, heuristic in (("cp", "input/min"), ("cpsat", "input/min"), ("ic", "input/min"),
                              ("python-constraint", "input/min"), ("choco", "input/min")):
        assert deep_backtracks(instance, solver, heuristic)[0] is None, solver


def test_the_backends_that_label_d_way_are_those_that_declare_it() -> None:
    assert OTHER_BACKENDS and all(BACKENDS.get(name).capabilities.dway is (name in DWAY_BACKENDS)
                                  for name in BACKENDS.names())


@pytest.mark.parametrize("backend", OTHER_BACKENDS)
def test_a_backend_that_cannot_label_d_way_refuses_saying_why(backend: str) -> None:
    model = SUDOKU.load(SUDOKU_DATA / "small_4x4.txt", 1)
    from viewpoints import get_viewpoint

    built = get_viewpoint("sudoku", "boolean").build(model)  # 0/1: every backend takes it
    with pytest.raises(UnsupportedCombination, match=r"lacks d-way labelling \(\+dway\)"):
        prepare(built.model, backend, "input/min+dway")
    assert BACKENDS.get(backend).capabilities.reasons.get("d-way labelling (+dway)")


def test_dway_names_an_order_of_its_own_and_not_every_node_probing() -> None:
    assert str(Heuristic.parse("first-fail+dway")) == "first-fail/min+dway"
    for bad in ("auto+dway", "input/min+dway+probe-all"):
        with pytest.raises(OptionError):
            Heuristic.parse(bad)


def test_the_command_line_refuses_dway_on_a_solver_without_it(monkeypatch, capsys) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "solve", "sudoku",
                             str(SUDOKU_DATA / "small_4x4.txt"), "--instance", "1",
                             "--solver", "cpsat", "--heuristic", "input/min+dway")
    assert (code, out) == (2, "") and "d-way labelling" in err and "cpsat" in err
