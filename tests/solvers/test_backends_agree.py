"""Every backend counts the solutions of every tiny model exactly, as brute force does."""

from __future__ import annotations

import pytest

from puzzlelab.errors import UnsupportedCombination
from solvers import BACKENDS, Status, load_backends, solve
from tests.solvers.tiny_models import TINY_MODELS, brute_force_count

load_backends()

HEURISTICS = {"cp": ["input/min", "auto"], "cpsat": ["input/min", "auto"],
              "python-constraint": ["input/min", "first-fail/max"],
              "automata": ["input/min", "first-fail/max+probe-all", "auto"]}


def refused(name: str, backend: str) -> bool:
    """Whether the backend refuses the tiny model: python-constraint a strong
    all-different, automata any model with a variable beyond 0/1 (``connected``'s
    flow decomposition brings some in)."""
    if backend == "automata":
        model = TINY_MODELS[name]()
        return not all(variable.is_boolean for variable in model.variables) or any(
            c.kind == "connected" for c in model.constraints)
    return (name, backend) == ("all-different-strong", "python-constraint")


@pytest.mark.parametrize("backend", BACKENDS.names())
@pytest.mark.parametrize("name", TINY_MODELS)
def test_solution_count_matches_brute_force(name: str, backend: str) -> None:
    expected = brute_force_count(TINY_MODELS[name]())
    if refused(name, backend):
        with pytest.raises(UnsupportedCombination, match=r"weak|0/1 variables only"):
            solve(TINY_MODELS[name](), backend, HEURISTICS[backend][0])
        return
    for heuristic in HEURISTICS[backend]:
        model = TINY_MODELS[name]()
        result = solve(model, backend, heuristic, max_solutions=None, time_limit=30)
        assert result.complete, (name, backend, heuristic)
        assert result.statistics.solutions == expected, (name, backend, heuristic)
        if expected:
            assert result.status is Status.SOLVED
            assert model.satisfied_by(result.assignment)
        else:
            assert result.status is Status.UNSATISFIABLE and result.assignment is None


@pytest.mark.parametrize("backend", BACKENDS.names())
def test_max_solutions_stops_early(backend: str) -> None:
    model = TINY_MODELS["booleans" if backend == "automata" else "all-different-weak"]()
    result = solve(model, backend, "input/min", max_solutions=2)
    assert result.statistics.solutions == 2
    assert not result.complete
    assert result.status is Status.SOLVED


def test_every_tiny_model_has_solutions_but_the_unsatisfiable_ones() -> None:
    counts = {name: brute_force_count(factory()) for name, factory in TINY_MODELS.items()}
    assert counts.pop("unsatisfiable") == counts.pop("constant-false") == 0
    assert all(counts.values()), counts
