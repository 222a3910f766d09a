"""Markdown tables and the figures in them, one way for every study: a table is rows and
column specs, figures right-aligned and words left, numbers spelt alike everywhere.

>>> rows = [("cp", 1234, True), ("cpsat", None, False)]
>>> print("\\n".join(table(rows, [text("solver", lambda r: r[0]),
...                                Column("backtracks", lambda r: figure(r[1])),
...                                text("checked", lambda r: yes_no(r[2]))])))
| solver | backtracks | checked |
|---|---:|---|
| cp | 1,234 | yes |
| cpsat | – | no |
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

RowT = TypeVar("RowT")
NONE = "–"
"""A figure the run does not have (a solver that does not count it), never 0."""


@dataclass(frozen=True)
class Column(Generic[RowT]):
    """One column: its header, how a row gives its cell, and whether it holds figures
    (right-aligned) or words (left-aligned)."""

    header: str
    cell: Callable[[RowT], object]
    figures: bool = True


def text(header: str, cell: Callable[[RowT], object]) -> Column[RowT]:
    """A column of words: names, statuses, verdicts."""
    return Column(header, cell, figures=False)


def table(rows: Iterable[RowT], columns: Sequence[Column[RowT]],
          padded: bool = False) -> list[str]:
    """The lines of a Markdown table of ``rows``; ``padded`` also lines the cells up in
    columns of spaces, for a terminal."""
    cells = [[str(column.cell(row)) for column in columns] for row in rows]
    headers = [column.header for column in columns]
    widths = ([max(len(line[i]) for line in [headers, *cells]) for i in range(len(columns))]
              if padded else [0] * len(columns))

    def line(values: Sequence[str]) -> str:
        return "| " + " | ".join(
            value.rjust(width) if column.figures else value.ljust(width)
            for value, width, column in zip(values, widths, columns)) + " |"

    rule = "|" + "".join("-" * max(3, width + 1 if column.figures else width + 2)
                         + (":|" if column.figures else "|")
                         for width, column in zip(widths, columns))
    return [line(headers), rule, *map(line, cells)]


def figure(value: float | None, digits: int = 0) -> str:
    """A figure with thousands separated and ``digits`` decimals; :data:`NONE` for None.

    >>> figure(12345), figure(0.256, 2), figure(None)
    ('12,345', '0.26', '–')
    """
    return NONE if value is None else f"{value:,.{digits}f}"


def ms(seconds: float | None) -> str:
    """Seconds as milliseconds, one decimal, thousands separated.

    >>> ms(1.23456)
    '1,234.6'
    """
    return figure(None if seconds is None else seconds * 1000, 1)


def target_verdict(reached: bool) -> str:
    """Whether a benchmark's target is reached, as its report says it: **met** or
    **not met**."""
    return "**met**" if reached else "**not met**"


def yes_no(condition: bool) -> str:
    """``yes`` or ``no``: a check's outcome in a table."""
    return "yes" if condition else "no"


def code(name: object) -> str:
    """A command, a combination or a file, as code."""
    return f"`{name}`"
