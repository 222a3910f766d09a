"""Root propagation, as a backend declares it: the domains propagation leaves (holes
included), None when the root fails, probing where the backend probes, and a refusal
where it does not propagate at the root."""

from __future__ import annotations

import pytest

from puzzlelab.errors import UnsupportedCombination
from solvers import Model, linear, load_backends, propagate_root


@pytest.mark.parametrize("backend", ["cp", "choco"])
def test_root_domains_are_the_propagated_ones_and_none_when_the_root_fails(
        backend: str) -> None:
    load_backends()
    model = Model("probe")
    x, y = model.bool_var("x"), model.bool_var("y")
    model.add(linear([(1, y), (-1, x)], ">=", 0))  # x <= y
    model.add(linear([(1, x), (1, y)], "<=", 1))  # x = 1 would need y = 1 and y = 0
    assert propagate_root(model, backend) == {x: (0, 1), y: (0, 1)}
    if backend == "cp":  # the one that probes the root
        assert propagate_root(model, probing=True) == {x: (0,), y: (0, 1)}
    model.add(linear([(1, x)], "==", 1))
    assert propagate_root(model, backend) is None
    if backend == "cp":
        assert propagate_root(model, probing=True) is None


def test_choco_gives_its_root_with_holes_and_refuses_to_probe_it() -> None:
    load_backends()
    model = Model("holes")
    x = model.int_var_from_values([1, 3, 5, 7], "x")
    model.add(linear([(1, x)], ">=", 2))
    assert propagate_root(model, "choco") == {x: (3, 5, 7)}
    with pytest.raises(UnsupportedCombination, match=r"choco.*lacks probing"):
        propagate_root(model, "choco", probing=True)


@pytest.mark.parametrize("backend", ["cpsat", "python-constraint", "automata"])
def test_root_propagation_is_refused_by_a_backend_that_does_not_declare_it(
        backend: str) -> None:
    load_backends()
    model = Model("two")
    model.bool_var("x")
    with pytest.raises(UnsupportedCombination, match=f"{backend}.*lacks root propagation"):
        propagate_root(model, backend)
