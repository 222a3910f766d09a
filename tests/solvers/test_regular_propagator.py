"""python-constraint's ``regular`` propagator keeps exactly the values of accepted words."""

from __future__ import annotations

import itertools
import random

import constraint as python_constraint
import pytest

from solvers.backends.python_constraint import RegularConstraint
from solvers.builders import regular
from solvers.model import Model

# words over {0, 1} with blocks 2, 1 (a nonogram clue): 0* 11 0+ 1 0*
TRANSITIONS = [(0, 0, 0), (0, 1, 1), (1, 1, 2), (2, 0, 3), (3, 0, 3), (3, 1, 4), (4, 0, 5),
               (5, 0, 5)]


@pytest.mark.parametrize("seed", range(30))
def test_filtering_keeps_exactly_the_supported_values(seed: int) -> None:
    rng = random.Random(seed)
    model = Model("line")
    cells = [model.bool_var(f"c{i}") for i in range(6)]
    meaning = regular(cells, TRANSITIONS, 0, [4, 5])
    assigned = {c: rng.randint(0, 1) for c in cells if rng.random() < 0.3}
    domains = {c: python_constraint.Domain([assigned[c]] if c in assigned else [0, 1])
               for c in cells}
    for domain in domains.values():
        domain.pushState()
    consistent = RegularConstraint(meaning)(cells, domains, dict(assigned), True)
    words = [w for w in itertools.product((0, 1), repeat=6)
             if all(w[i] == assigned.get(c, w[i]) for i, c in enumerate(cells))
             and meaning.holds(dict(zip(cells, w)))]
    assert consistent == bool(words)
    if words:
        for i, cell in enumerate(cells):
            assert sorted(domains[cell]) == sorted({w[i] for w in words})
