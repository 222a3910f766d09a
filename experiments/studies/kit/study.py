"""A study whose report is made from its rows alone: it measures them (or reads them back
from a ``runs.csv`` with ``--from``, at no cost), writes them beside its README with
``--output``, and says in the README the command that makes the same rows again.

Rows are a study's own (:data:`Row`, a ``runs.csv`` of its columns) or the campaign's run
records (:mod:`experiments.studies.kit.records`); :class:`Rows` says how either kind is
written and read.
"""

from __future__ import annotations

import argparse
import csv
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from experiments.studies.kit.publish import publish

RowT = TypeVar("RowT")
Row = dict[str, str]
"""One row of a study's own ``runs.csv``, by column."""


@dataclass(frozen=True)
class Rows(Generic[RowT]):
    """How a study's rows go to a ``runs.csv`` and come back from one."""

    write: Callable[[Sequence[RowT], Path], None]
    read: Callable[[Path], list[RowT]]


def read_rows(path: Path) -> list[Row]:
    """The rows of a study's own ``runs.csv``, every cell as written."""
    with path.open(newline="", encoding="utf-8") as lines:
        return list(csv.DictReader(lines))


def plain_rows(fields: Sequence[str]) -> Rows[Row]:
    """Rows of the columns ``fields``, kept as text."""
    def write(rows: Sequence[Row], path: Path) -> None:
        with path.open("w", newline="", encoding="utf-8") as out:
            writer = csv.DictWriter(out, list(fields), lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)

    return Rows(write, read_rows)


def every_problem(rows: Sequence[RowT], wrong: Callable[[RowT], str | None]) -> list[str]:
    """What ``wrong`` says of each row it finds wrong."""
    return [problem for problem in map(wrong, rows) if problem is not None]


@dataclass(frozen=True)
class Study(Generic[RowT]):
    """A study of rows: its module (as ``python -m`` names it), the options it adds, how
    it measures under them, the options that make given rows again (for the README's
    command), the report made from rows, and the wrong answers the rows hold."""

    module: str
    description: str
    rows: Rows[RowT]
    options: Callable[[argparse.ArgumentParser], None]
    measure: Callable[[argparse.Namespace], list[RowT]]
    remade_by: Callable[[Sequence[RowT]], str]
    report: Callable[[Sequence[RowT], str], str]
    wrong: Callable[[Sequence[RowT]], list[str]]
    results: str | None = None
    """Its folder under ``results/``: the report ends by saying how to make it again."""

    def main(self, argv: Sequence[str] | None) -> int:
        """Measure or read back, print the report, and with ``--output`` write it as
        README.md beside the rows it was made from; 1 when a row is wrong."""
        parser = argparse.ArgumentParser(prog=f"python -m {self.module}",
                                         description=self.description.splitlines()[0])
        self.options(parser)
        parser.add_argument("--output", type=Path, help="folder for runs.csv and README.md")
        parser.add_argument("--from", dest="source", type=Path,
                            help="make the report from this runs.csv instead of measuring")
        arguments = parser.parse_args(argv)
        output: Path | None = arguments.output
        if arguments.source is not None:
            rows = self.rows.read(arguments.source)
        else:
            rows = self.measure(arguments)
            if output is not None:  # the report from the rows as written, as --from reads them
                output.mkdir(parents=True, exist_ok=True)
                self.rows.write(rows, output / "runs.csv")
                rows = self.rows.read(output / "runs.csv")
        command = " ".join(["python -m", self.module, self.remade_by(rows)]).rstrip()
        if output is not None:
            command += f" --output {output}"
        report = self.report(rows, command)
        if self.results is not None:
            report += (f"\nRecompute every figure above from the committed rows with `python -m "
                       f"{self.module} --from results/{self.results}/runs.csv`.\n")
        return publish(report, None if output is None else output / "README.md",
                       self.wrong(rows))


@dataclass(frozen=True)
class RowsStudy:
    """A study of its own rows sized by one option: ``count`` is the option, its default
    and what it counts (``("--rounds", 3, "rounds")``); the rows hold it in the column of
    its singular (``round``), so that the README's command repeats the count that makes
    them again. ``wrong(row)`` names a row whose answers did not all hold; ``results`` as
    :class:`Study`'s."""

    module: str  # as ``python -m`` names it
    description: str
    count: tuple[str, int, str]
    fields: Sequence[str]
    measure: Callable[[int], list[Row]]
    report: Callable[[Sequence[Row], str], str]
    wrong: Callable[[Row], str | None]
    results: str | None = None

    def study(self) -> Study[Row]:
        """The study itself."""
        option, default, what = self.count
        column = option.removeprefix("--").removesuffix("s")

        def options(parser: argparse.ArgumentParser) -> None:
            parser.add_argument(option, type=int, default=default,
                                help=f"{what} (default {default})")

        return Study(self.module, self.description, plain_rows(self.fields), options,
                     lambda arguments: self.measure(getattr(arguments, column + "s")),
                     lambda rows: f"{option} {max(int(row[column]) for row in rows)}",
                     self.report, lambda rows: every_problem(rows, self.wrong), self.results)

    def main(self, argv: Sequence[str] | None) -> int:
        """Measure or read back, print the report, and with ``--output`` write it as
        README.md beside the rows it was made from."""
        return self.study().main(argv)
