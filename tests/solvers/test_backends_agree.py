"""Every backend counts the solutions of every tiny model exactly, as brute force does,
or refuses it as its declaration says it must."""

from __future__ import annotations

import pytest

from puzzlelab.errors import UnsupportedCombination
from solvers import BACKENDS, Status, load_backends, solve
from tests.expected_refusals import expected_refusal, heuristics_offered
from tests.solvers.tiny_models import TINY_MODELS, brute_force_count

load_backends()


@pytest.mark.parametrize("backend", BACKENDS.names())
@pytest.mark.parametrize("name", TINY_MODELS)
def test_solution_count_matches_brute_force(name: str, backend: str) -> None:
    expected = brute_force_count(TINY_MODELS[name]())
    capabilities = BACKENDS.get(backend).capabilities
    for heuristic in heuristics_offered(capabilities):
        model = TINY_MODELS[name]()
        refusal = expected_refusal(capabilities, model, heuristic)
        if refusal:
            with pytest.raises(UnsupportedCombination, match=f"lacks {refusal}"):
                solve(model, backend, heuristic, max_solutions=0)
            continue
        result = solve(model, backend, heuristic, max_solutions=0, time_limit=30)
        assert result.complete, (name, backend, heuristic)
        assert result.statistics.solutions == expected, (name, backend, heuristic)
        if expected:
            assert result.status is Status.SOLVED
            assert model.satisfied_by(result.assignment)
        else:
            assert result.status is Status.UNSATISFIABLE and result.assignment is None


@pytest.mark.parametrize("backend", BACKENDS.names())
def test_max_solutions_stops_early(backend: str) -> None:
    capabilities = BACKENDS.get(backend).capabilities
    hosted = [name for name, factory in TINY_MODELS.items()
              if expected_refusal(capabilities, factory(), "input/min") is None
              and brute_force_count(factory()) > 2]
    model = TINY_MODELS[hosted[0]]()
    result = solve(model, backend, "input/min", max_solutions=2)
    assert result.statistics.solutions == 2
    assert not result.complete
    assert result.status is Status.SOLVED


def test_every_tiny_model_has_solutions_but_the_unsatisfiable_ones() -> None:
    counts = {name: brute_force_count(factory()) for name, factory in TINY_MODELS.items()}
    assert counts.pop("unsatisfiable") == counts.pop("constant-false") == 0
    assert all(counts.values()), counts
