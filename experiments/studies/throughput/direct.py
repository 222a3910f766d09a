"""What the direct scripts share: the puzzle lines they read and the answer they give.

The direct scripts stand for what a user writes without PuzzleLab, so they read the
81-character lines themselves and check each answer against the known solution line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from puzzlelab.errors import ParseError


@dataclass(frozen=True)
class DirectAnswer:
    """A direct script's answer: the 81 digits (None when it found none) and its counts."""

    digits: str | None
    backtracks: int | None
    branches: int | None


DirectSolve = Callable[[str], DirectAnswer]
"""Build and solve the classic model of one puzzle line (``0`` or ``.`` empty)."""


def solutions_path(path: Path) -> Path:
    """The companion file of known solutions, ``X.solutions.txt`` beside ``X.txt``."""
    return path.with_name(path.stem + ".solutions" + path.suffix)


def read_lines(path: Path) -> list[tuple[str, str]]:
    """Every (puzzle line, solution line) pair of a 9x9 character-line file and its
    companion solutions file; a line that is not 81 characters is a ``ParseError``."""
    companion = solutions_path(path)
    if not companion.exists():
        raise ParseError(f"the direct scripts check against known solutions, and there is "
                         f"no {companion.name} beside this file", source=str(path))
    puzzles, solutions = _lines(path), _lines(companion)
    if len(puzzles) != len(solutions):
        raise ParseError(f"{len(solutions)} solutions for {len(puzzles)} puzzles",
                         source=str(companion))
    return list(zip(puzzles, solutions, strict=True))


def _lines(path: Path) -> list[str]:
    lines = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if len(text) != 81:
            raise ParseError(f"the direct scripts read 9x9 puzzles as 81-character lines; "
                             f"this line has {len(text)}", source=str(path), line=number)
        lines.append(text)
    return lines
