"""Test options: ``--runslow`` runs the cases marked slow; ``--backend`` keeps one solver."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest

from solvers import BACKENDS, load_backends


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", help="also run tests marked slow")
    parser.addoption("--backend", action="append", default=[],
                     help="only run solver-grid cases of this backend (repeatable)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip_slow = pytest.mark.skip(reason="slow: run with --runslow")
    backends = config.getoption("--backend")
    load_backends()
    unknown = sorted(set(backends) - set(BACKENDS.names()))
    if unknown:  # a typo would otherwise deselect every solver case and pass
        raise pytest.UsageError(f"--backend {', '.join(unknown)}: no such solver; valid: "
                                f"{', '.join(BACKENDS.names())}")
    kept, deselected = [], []
    for item in items:
        if not config.getoption("--runslow") and "slow" in item.keywords:
            item.add_marker(skip_slow)
        callspec = getattr(item, "callspec", None)
        backend = callspec.params.get("backend") if callspec else None
        if backends and backend is not None and backend not in backends:
            deselected.append(item)
        else:
            kept.append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = kept


@pytest.fixture
def ctrl_c_raises() -> Iterator[None]:
    """Python's own SIGINT handler, as in a terminal (a shell may start the tests ignoring it)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
