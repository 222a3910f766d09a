"""The report's model sizes: each viewpoint's variables and constraints as built, and as
each solver is given them once lowered (the course reports judge a viewpoint by "the
amount of constraints you need").

Read from the runs' size statistics (``model_variables`` ... ``posted_constraints``);
where the instances of a campaign differ (a Nonogram's size is its grid's), a cell
shows the range. Runs stored before PuzzleLab measured sizes have none, and a campaign
of only those gets no such table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from experiments.campaign.record import RunRecord

FIGURES = ("model_variables", "model_constraints", "posted_variables", "posted_constraints")


@dataclass(frozen=True)
class SizeRow:
    """One viewpoint on one solver: each size figure over the campaign's instances."""

    viewpoint: str
    solver: str
    cells: tuple[str, ...]  # one per FIGURES entry: "27", or "25-40" where they differ


HEADERS = ("viewpoint", "solver", "variables", "constraints", "posted variables",
           "posted constraints")


def size_rows(runs: Sequence[RunRecord]) -> list[SizeRow]:
    """A row per viewpoint and solver that measured its sizes, in the runs' order."""
    seen: dict[tuple[str, str], list[list[int]]] = {}
    for run in runs:
        figures = run.statistics.as_dict()
        values = [int(figures[name]) for name in FIGURES if figures.get(name) is not None]
        if len(values) < len(FIGURES):  # stored before sizes were measured
            continue
        columns = seen.setdefault((run.viewpoint, run.solver), [[] for _ in FIGURES])
        for column, value in zip(columns, values, strict=True):
            column.append(value)
    return [SizeRow(viewpoint, solver, tuple(_span(column) for column in columns))
            for (viewpoint, solver), columns in seen.items()]


def _span(values: list[int]) -> str:
    low, high = min(values), max(values)
    return f"{low:,}" if low == high else f"{low:,}-{high:,}"
