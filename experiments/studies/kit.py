"""What the puzzle benchmarks share: a combination to measure, a shipped data set's
instances, progress on stderr, figures in milliseconds, targets met or not, and the
published report (printed, written, and the exit status a wrong answer gives)."""

from __future__ import annotations

import argparse
import csv
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


Row = dict[str, str]
"""One row of a study's ``runs.csv``, by column."""


@dataclass(frozen=True)
class RowsStudy:
    """A study whose figures are the rows of a ``runs.csv``: it measures them, or reads
    them back with ``--from``, and makes its report from them alone.

    ``count`` is the option that sizes a measurement, its default and what it counts
    (``("--rounds", 3, "rounds")``); the rows hold it in the column of its singular
    (``round``), so that the report's command repeats the count that remakes them.
    ``wrong(row)`` names a row whose answers did not all hold.
    """

    module: str  # as ``python -m`` names it
    description: str
    count: tuple[str, int, str]
    fields: Sequence[str]
    measure: Callable[[int], list[Row]]
    report: Callable[[Sequence[Row], str], str]
    wrong: Callable[[Row], str | None]

    def main(self, argv: Sequence[str] | None) -> int:
        """Measure or read back, print the report, and with ``--output`` write it as
        README.md beside the rows it was made from."""
        option, default, what = self.count
        column = option.removeprefix("--").removesuffix("s")
        parser = argparse.ArgumentParser(description=self.description.splitlines()[0])
        parser.add_argument(option, type=int, default=default,
                            help=f"{what} (default {default})")
        parser.add_argument("--output", type=Path, help="folder for runs.csv and README.md")
        parser.add_argument("--from", dest="source", type=Path,
                            help="make the report from this runs.csv instead of measuring")
        arguments = parser.parse_args(argv)
        if arguments.source is not None:
            with arguments.source.open(newline="", encoding="utf-8") as lines:
                rows = list(csv.DictReader(lines))
        else:
            rows = self.measure(getattr(arguments, column + "s"))
        command = f"python -m {self.module} {option} {max(int(row[column]) for row in rows)}"
        if arguments.output is not None:
            command += f" --output {arguments.output}"
            if arguments.source is None:
                arguments.output.mkdir(parents=True, exist_ok=True)
                with (arguments.output / "runs.csv").open("w", newline="",
                                                          encoding="utf-8") as out:
                    writer = csv.DictWriter(out, list(self.fields))
                    writer.writeheader()
                    writer.writerows(rows)
        problems = [problem for problem in map(self.wrong, rows) if problem is not None]
        output = None if arguments.output is None else arguments.output / "README.md"
        return publish(self.report(rows, command), output, problems)
