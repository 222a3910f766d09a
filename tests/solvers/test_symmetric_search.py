"""``+symmetric``: fixed points of the declared symmetries first, then the whole model."""

from __future__ import annotations

import pytest

from puzzlelab.errors import ModelError, OptionError, UnknownName, UnsupportedCombination
from solvers import Heuristic, Model, Status, all_different, solve, sum_of
from solvers.backend_contract import Backend
from solvers.solving import get_backend
from solvers.symmetry import restricted
from tests.facts import facts


def swap_pair(values: int) -> tuple[Model, list]:
    """x != y over ``values`` values, with the symmetry that swaps x and y: no solution
    is a fixed point of it, so a symmetric search must go on to the whole model."""
    model = Model("pair")
    x = [model.int_var(0, values - 1, f"x{i}") for i in range(2)]
    model.add(all_different(x))
    model.add_symmetry("swap", {x[0]: x[1], x[1]: x[0]})
    return model, x


def mirrored_row(length: int) -> tuple[Model, list]:
    """A row of 0/1 with exactly one 1 in the middle of an odd row, plus the mirror."""
    model = Model("mirror")
    x = [model.bool_var(f"x{i}") for i in range(length)]
    model.add(sum_of(x, "==", 1))
    model.add_symmetry("mirror", {x[i]: x[length - 1 - i] for i in range(length)
                                  if i != length - 1 - i})
    return model, x


def test_the_restricted_model_ties_each_variable_to_its_image() -> None:
    model, x = mirrored_row(5)
    narrowed = restricted(model)
    result = solve(narrowed, "cp", "input/min", max_solutions=0)
    assert result.complete and result.statistics.solutions == 1
    assert [result.assignment[v] for v in x] == [0, 0, 1, 0, 0]
    assert len(narrowed.constraints) == len(model.constraints) + 2  # x0 = x4, x1 = x3
    assert len(model.constraints) == 1  # the model itself is left as it was


@pytest.mark.parametrize(("backend", "heuristic"), [
    ("cp", "input/min+symmetric"), ("cpsat", "input/min+symmetric"),
    ("python-constraint", "input/min+symmetric"), ("cp", "input/min+symmetric+probe-all"),
    ("cpsat", "auto+symmetric")])
def test_a_symmetric_solution_answers_from_the_restricted_search(backend: str,
                                                                 heuristic: str) -> None:
    model, x = mirrored_row(5)
    result = solve(model, backend, heuristic)
    assert result.status is Status.SOLVED and result.heuristic == heuristic
    assert [result.assignment[v] for v in x] == [0, 0, 1, 0, 0]
    assert result.symmetric.as_json() == {"imposed": ["mirror"],
                                         "answered_by": "symmetric solutions"}
    assert not result.complete  # the restricted search saw only the symmetric solutions


@pytest.mark.parametrize("backend", ["cp", "cpsat", "python-constraint"])
def test_without_a_symmetric_solution_the_whole_model_answers_and_figures_add_up(
        backend: str) -> None:
    model, _ = swap_pair(3)
    first = solve(restricted(model), backend, "input/min")
    second = solve(model, backend, "input/min")
    assert first.status is Status.UNSATISFIABLE and second.status is Status.SOLVED
    result = solve(model, backend, "input/min+symmetric")
    assert result.status is Status.SOLVED
    assert result.assignment == second.assignment
    assert result.symmetric.answered_by == "whole model"
    a, b, total = first.statistics, second.statistics, result.statistics
    for name in ("branches", "backtracks", "conflicts", "propagations"):
        parts = getattr(a, name), getattr(b, name)
        assert getattr(total, name) == (None if None in parts else sum(parts)), name
    assert total.first_branches == a.branches + b.first_branches
    assert total.solutions == 1


def test_memory_running_out_in_the_whole_model_search_measures_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The restricted search's figures must not pass for those of a memory-out run."""
    backend = type(get_backend("cp"))
    searches = []
    real_compile = backend.compile

    def second_runs_out(self: Backend, *args: object) -> object:
        searches.append(args)
        if len(searches) == 2:
            raise MemoryError
        return real_compile(self, *args)

    monkeypatch.setattr(backend, "compile", second_runs_out)
    model, _ = swap_pair(3)
    result = solve(model, "cp", "input/min+symmetric")
    assert len(searches) == 2 and result.status is Status.MEMORY_OUT
    statistics = result.statistics
    assert (statistics.build_s, statistics.solve_s, statistics.branches,
            statistics.backtracks, statistics.peak_memory_mb) == (None,) * 5
    assert result.heuristic == "input/min+symmetric"
    assert result.symmetric.answered_by == "whole model"


def test_an_unsatisfiable_model_is_unsatisfiable_with_symmetric_search() -> None:
    model, _ = swap_pair(1)
    result = solve(model, "cp", "first-fail/min+symmetric")
    assert result.status is Status.UNSATISFIABLE and result.complete


def test_a_model_without_symmetries_is_searched_once_as_it_is() -> None:
    model = Model("plain")
    x = [model.int_var(0, 2, f"x{i}") for i in range(3)]
    model.add(all_different(x))
    plain = solve(model, "cp", "input/min", max_solutions=1)
    result = solve(model, "cp", "input/min+symmetric")
    assert result.statistics.branches == plain.statistics.branches
    assert result.complete == plain.complete
    assert result.symmetric.as_json() == {"imposed": [], "answered_by": "whole model"}


def test_symmetric_search_refuses_to_count_solutions() -> None:
    model, _ = mirrored_row(3)
    # what it cannot do, and what to do instead
    with pytest.raises(UnsupportedCombination, match=facts("count them all",
                                                            "leave out +symmetric")):
        solve(model, "cp", "input/min+symmetric", max_solutions=0)
    with pytest.raises(UnsupportedCombination, match="cannot look for 2 "):
        solve(model, "cp", "input/min+symmetric", max_solutions=2)


def test_modifiers_parse_in_any_order_and_print_in_one() -> None:
    parsed = Heuristic.parse("first-fail+probe-all+symmetric")
    assert parsed.symmetric and parsed.probing == "nodes"
    assert str(parsed) == "first-fail/min+symmetric+probe-all"
    with pytest.raises(OptionError, match="named twice"):
        Heuristic.parse("input/min+symmetric+symmetric")
    with pytest.raises(OptionError, match="not both"):
        Heuristic.parse("input/min+probe+probe-all")
    with pytest.raises(UnknownName, match="symmetric"):
        Heuristic.parse("input/min+symmetrical")
    with pytest.raises(OptionError, match="'first-fail\\+symmetric' or 'auto\\+symmetric'"):
        Heuristic.parse("+symmetric")


def test_a_declared_symmetry_must_be_a_permutation_of_the_models_variables() -> None:
    model = Model("m")
    x, y, z = model.bool_var("x"), model.bool_var("y"), model.bool_var("z")
    wide = model.int_var(0, 2, "wide")
    with pytest.raises(ModelError, match="not a permutation"):
        model.add_symmetry("bad", {x: y, y: y})
    with pytest.raises(ModelError, match="different domains"):
        model.add_symmetry("bad", {x: wide, wide: x})
    with pytest.raises(ModelError, match="leaves model"):
        model.add_symmetry("bad", {x: Model("other").bool_var("u")})
    model.add_symmetry("cycle", {x: y, y: z, z: x})
    with pytest.raises(ModelError, match="declared twice"):
        model.add_symmetry("cycle", {x: y, y: x})
