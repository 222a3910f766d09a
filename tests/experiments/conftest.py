"""Fixtures of the experiment tests: spec files written into a temporary folder."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.paths import SUDOKU_DATA
from viewpoints import VIEWPOINTS, load_viewpoints

# Loaded only through a spec's ``modules`` key; importing it would register its
# misbehaving viewpoints in every test (doctest collection imports every module).
collect_ignore = ["faulty_viewpoints.py"]

FAULTY_VIEWPOINTS = Path(__file__).resolve().parent / "faulty_viewpoints.py"


@pytest.fixture
def write_spec(tmp_path: Path) -> Callable[..., Path]:
    """Write a spec; ``{data}`` and ``{faulty}`` in its text stand for the test data paths."""

    def write(text: str, name: str = "spec.toml") -> Path:
        path = tmp_path / name
        path.write_text(text.replace("{data}", SUDOKU_DATA.as_posix())
                        .replace("{faulty}", FAULTY_VIEWPOINTS.as_posix()), encoding="utf-8")
        return path

    return write


@pytest.fixture
def clean_registry() -> Iterator[None]:
    """Forget the test viewpoints a spec's ``modules`` registered, after the test (the
    shipped ones are all registered first: one imported during the test stays)."""
    load_viewpoints()
    before = dict(VIEWPOINTS._entries)
    modules = set(sys.modules)
    yield
    VIEWPOINTS._entries.clear()
    VIEWPOINTS._entries.update(before)
    for name in set(sys.modules) - modules:
        if name.startswith("puzzlelab_user_"):
            del sys.modules[name]
