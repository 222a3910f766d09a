"""The choco backend's restart count, read like its fail and node counts."""

from __future__ import annotations

import pytest

from solvers import solve
from solvers.backends import choco
from tests.solvers.tiny_models import TINY_MODELS

MISSING = choco.ChocoBackend.unavailable()
needs_choco = pytest.mark.skipif(MISSING is not None, reason=f"choco unavailable: {MISSING}")


@needs_choco
@pytest.mark.parametrize("heuristic", ["input/min", "auto"])
def test_restarts_are_choco_s_own_count(heuristic: str, monkeypatch) -> None:
    """Choco's restart count is read like its other counts: a whole number where the
    search ran (neither preset search restarts here: 0), and the sum of what pychoco says
    of each search a solve makes."""
    model = TINY_MODELS[sorted(TINY_MODELS)[0]]
    assert solve(model(), "choco", heuristic, max_solutions=0).statistics.restarts == 0
    monkeypatch.setattr(choco._api(), "get_restart_count", lambda solver: 7)
    restarts = solve(model(), "choco", heuristic, max_solutions=0).statistics.restarts
    assert restarts is not None and restarts >= 7 and restarts % 7 == 0
