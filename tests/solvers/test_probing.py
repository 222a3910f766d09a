"""Probing (``+probe``, ``+probe-all``): same solutions, its own statistics, honest backtracks."""

from __future__ import annotations

import pytest

from puzzlelab.errors import UnknownName, UnsupportedCombination
from solvers import Heuristic, Model, Status, all_different, clause, linear, solve


def two_solutions() -> Model:
    """x0 + x1 = 5 leaves {2, 3} to them, and x2 = x3 + 1: two solutions, values to prune."""
    model = Model("probing")
    x = [model.int_var(0, 3, f"x{i}") for i in range(4)]
    model.add(all_different(x))
    model.add(linear([(1, x[0]), (1, x[1])], "==", 5))
    model.add(linear([(1, x[2]), (-1, x[3])], "==", 1))
    model.branch_on(x)
    return model


@pytest.mark.parametrize("heuristic", ["input/min+probe", "input/min+probe-all",
                                       "first-fail/max+probe-all", "auto+probe"])
def test_probing_finds_the_same_solutions_and_counts_its_work(heuristic: str) -> None:
    plain = solve(two_solutions(), "cp", heuristic.split("+")[0], max_solutions=0)
    probed = solve(two_solutions(), "cp", heuristic, max_solutions=0)
    assert probed.complete and probed.statistics.solutions == plain.statistics.solutions == 2
    assert probed.statistics.probes > 0 and probed.statistics.probe_fixed >= 1
    assert plain.statistics.probes is None and plain.statistics.probe_fixed is None


def test_failed_probes_are_not_backtracks() -> None:
    probed = solve(two_solutions(), "cp", "input/min+probe", max_solutions=0)
    assert probed.statistics.backtracks == 0


def test_probes_that_agree_fix_a_variable() -> None:
    """x = 0 and x = 1 both force y = 1, which propagation alone does not see."""
    model = Model("agreement")
    x, y = model.bool_var("x"), model.bool_var("y")
    model.add(clause([x, y], []))
    model.add(clause([y], [x]))
    model.branch_on([x, y])
    assert solve(model, "cp", "input/min", max_solutions=0).statistics.branches == 2
    result = solve(model, "cp", "input/min+probe", max_solutions=0)
    assert result.statistics.solutions == 2 and result.complete
    # the two probes of x agree on y, so y is fixed without being probed itself: two
    # passes over x (the second finds nothing new); without merging, y's probes
    # would make it six
    assert result.statistics.probes == 4 and result.statistics.probe_fixed == 1
    assert result.statistics.branches == 2 and result.statistics.backtracks == 0


def test_a_merge_sends_the_next_pass_only_to_what_it_fixed() -> None:
    """x's two probes agree on y (through w = not x), so y is fixed; x itself keeps both values.

    Pass 1 probes x and w (4 probes). Pass 2 probes what shares a constraint with y,
    the one newly bound variable: w only, as x has no constraint with y (2 probes).
    """
    model = Model("merge")
    x, w, y = model.bool_var("x"), model.bool_var("w"), model.bool_var("y")
    model.add(clause([x, w], []))
    model.add(clause([], [x, w]))
    model.add(clause([y], [w]))
    model.add(clause([w, y], []))
    model.branch_on([x, w, y])
    result = solve(model, "cp", "input/min+probe", max_solutions=0)
    assert result.statistics.solutions == 2 and result.complete
    assert result.statistics.probes == 6 and result.statistics.probe_fixed == 1


def test_probing_proves_infeasibility_at_the_root() -> None:
    model = Model("pigeons")
    x = [model.int_var(0, 1, f"x{i}") for i in range(3)]
    model.add(all_different(x))
    model.branch_on(x)
    for heuristic in ("input/min+probe", "input/min+probe-all"):
        result = solve(model, "cp", heuristic, max_solutions=0)
        assert result.status is Status.UNSATISFIABLE and result.complete
        assert result.statistics.branches == 0


def test_heuristic_names_carry_the_modifier() -> None:
    assert str(Heuristic.parse("first-fail+probe")) == "first-fail/min+probe"
    with pytest.raises(UnknownName, match="search modifier 'peek'"):
        Heuristic.parse("input/min+peek")


@pytest.mark.parametrize("backend", ["cpsat", "python-constraint"])
def test_other_backends_refuse_probing(backend: str) -> None:
    with pytest.raises(UnsupportedCombination, match="probing needs nested propagation"):
        solve(two_solutions(), backend, "input/min+probe")
