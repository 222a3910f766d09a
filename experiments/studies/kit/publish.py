"""How a study speaks: progress on stderr, its report printed and written beside its
results (keeping what a person wrote below it), and the exit status a wrong answer gives."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from puzzlelab.errors import PuzzleLabError


def run_main(main: Callable[[Sequence[str]], int | None]) -> None:
    """Run a study's ``main`` as ``python -m`` does: its arguments from the command line,
    a PuzzleLab error as one line and exit status 2 (as ``puzzlelab study``), Ctrl-C as
    ``interrupted`` and 130."""
    try:
        sys.exit(main(sys.argv[1:]) or 0)
    except PuzzleLabError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)


def progress(text: str) -> None:
    """A line on stderr, so that the report on stdout stays clean."""
    print(text, file=sys.stderr, flush=True)


BY_HAND = "<!-- written by hand: kept when the report above is made again -->"
"""The line in a published report after which the text is a person's (what a run showed,
what was tried): :func:`publish` replaces what comes before it only."""


def publish(report: str, output: Path | None, wrong: Sequence[str]) -> int:
    """Print ``report``, write it to ``output`` when given, keeping what the file holds
    from its :data:`BY_HAND` line on; name every wrong answer, which makes the exit
    status 1."""
    print(report, end="")
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        before = output.read_text(encoding="utf-8") if output.exists() else ""
        kept = before[before.index(BY_HAND):] if BY_HAND in before else ""
        output.write_text(report + ("\n" + kept if kept else ""), encoding="utf-8")
    for problem in wrong:
        progress(f"wrong answer: {problem}")
    return 1 if wrong else 0
