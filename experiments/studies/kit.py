"""What the puzzle benchmarks share: a combination to measure, a shipped data set's
instances, progress on stderr, figures in milliseconds, targets met or not, and the
published report (printed, written, and the exit status a wrong answer gives)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from puzzlelab.errors import PuzzleLabError
from puzzles import PUZZLES
from solvers import Status


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


@dataclass(frozen=True)
class Choice:
    """One viewpoint (with options) on one solver under one heuristic."""

    viewpoint: str
    solver: str
    heuristic: str
    options: Mapping[str, str] = field(default_factory=dict)
    slow: bool = False  # times out often: a benchmark may run it on fewer instances

    @property
    def name(self) -> str:
        """``solver:viewpoint[,option=value...]:heuristic``, as the throughput benchmark."""
        options = "".join(f",{key}={value}" for key, value in self.options.items())
        return f"{self.solver}:{self.viewpoint}{options}:{self.heuristic}"


def instances_of(puzzle: str, set_name: str, first: int | None = None) -> list[Any]:
    """The instances of one shipped data set of ``puzzle`` (the first ``first`` if given)."""
    kind = PUZZLES.get(puzzle)
    found = {data.name: data.files for data in kind.data_sets()}
    if set_name not in found:
        raise SystemExit(f"no {puzzle} data set {set_name!r}; shipped: {sorted(found)}")
    instances = [instance for path in found[set_name] for instance in kind.read(path)]
    return instances[:first] if first is not None else instances


def progress(text: str) -> None:
    """A line on stderr, so that the report on stdout stays clean."""
    print(text, file=sys.stderr, flush=True)


def ms(seconds: float) -> str:
    """Seconds as milliseconds, one decimal, thousands separated."""
    return f"{seconds * 1000:,.1f}"


def met(condition: bool) -> str:
    """A target's verdict, in bold."""
    return "**met**" if condition else "**not met**"


def wrong_runs(outcomes: Iterable[Any]) -> list[str]:
    """``instance: status`` of each outcome (``instance``, ``status``, ``correct``) that
    ended in an error or with a solution the checks rejected."""
    return [f"{o.instance}: {o.status}" for o in outcomes
            if o.status == Status.ERROR.value or (o.status == Status.SOLVED.value
                                                  and not o.correct)]


def publish(report: str, output: Path | None, wrong: Sequence[str]) -> int:
    """Print ``report``, write it to ``output`` when given; name every wrong answer, which
    makes the exit status 1."""
    print(report, end="")
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(report, encoding="utf-8")
    for problem in wrong:
        progress(f"wrong answer: {problem}")
    return 1 if wrong else 0
