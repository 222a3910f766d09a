"""The check every puzzle's bad-file tests share: refused with a ``ParseError`` naming
the file, the line and (when given) the column."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from puzzlelab.errors import ParseError


def assert_refused_at(read: Callable[[Path], Any], path: Path, text: str, line: int,
                      column: int | None, message: str) -> None:
    """Write ``text`` to ``path``; reading it must fail with ``message`` at ``line``."""
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ParseError, match=message) as caught:
        read(path)
    error = caught.value
    assert (error.source, error.line) == (str(path), line)
    if column is not None:
        assert error.column == column
    assert str(path) in str(error) and f":{line}" in str(error)
