"""Which decision variables probing looks at again after a change."""

from __future__ import annotations

from solvers import Model, all_different, linear
from solvers.probing import ProbeGroups


def test_auxiliary_variables_link_their_constraints_into_one_group() -> None:
    model = Model("groups")
    a, b, c = (model.int_var(0, 1, name) for name in "abc")
    link = model.int_var(0, 1, "link")  # auxiliary: not a decision variable
    constraints = [linear([(1, a), (1, link)], "==", 1), linear([(1, link), (1, b)], "==", 1),
                   all_different([b, c])]
    groups = ProbeGroups(constraints, [a, b, c])
    assert groups.reached_from([0]) == {0, 1}
    assert groups.reached_from([2]) == {1, 2}
    assert groups.reached_from([1]) == {0, 1, 2}
    assert groups.reached_from([]) == set()


def test_a_variable_in_no_constraint_reaches_nothing() -> None:
    model = Model("alone")
    a, b = model.int_var(0, 1, "a"), model.int_var(0, 1, "b")
    groups = ProbeGroups([], [a, b])
    assert groups.reached_from([0, 1]) == set()
