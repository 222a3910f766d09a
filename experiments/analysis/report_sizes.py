"""The report's model sizes: each viewpoint's variables and constraints as built, and as
the solvers are given them once lowered, one row for the solvers given the same (the
course reports judge a viewpoint by "the amount of constraints you need").

Read from the runs' size statistics (``model_variables`` ... ``posted_constraints``);
where the instances of a campaign differ (a Nonogram's size is its grid's), a cell
shows the range. Runs stored before PuzzleLab measured sizes have none, and a campaign
of only those gets no such table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from experiments.campaign.stored_campaign import StoredCampaign

FIGURES = ("model_variables", "model_constraints", "posted_variables", "posted_constraints")


@dataclass(frozen=True)
class SizeRow:
    """One viewpoint on the solvers given the same model: each size figure over the
    campaign's instances."""

    viewpoint: str
    solvers: str  # "cp, cpsat, choco": the solvers that post it alike
    cells: tuple[str, ...]  # one per FIGURES entry: "27", or "25-40" where they differ


HEADERS = ("viewpoint", "solvers", "variables", "constraints", "posted variables",
           "posted constraints")


def size_rows(campaign: StoredCampaign) -> list[SizeRow]:
    """A row per viewpoint and lowered size, naming the solvers that post it so, in the
    runs' order; runs stored before sizes were measured are left out (asked of the store
    for a campaign read without its runs)."""
    if not campaign.read_whole:
        from experiments.analysis.store_tally import size_spans

        return _rows(size_spans(campaign))
    seen: dict[tuple[str, str], list[list[int]]] = {}
    for run in campaign.runs:
        figures = run.statistics.as_dict()
        values = [int(figures[name]) for name in FIGURES if figures.get(name) is not None]
        if len(values) < len(FIGURES):
            continue
        columns = seen.setdefault((run.identity.viewpoint, run.identity.solver),
                                  [[] for _ in FIGURES])
        for column, value in zip(columns, values, strict=True):
            column.append(value)
    return _rows([(viewpoint, solver, [(min(column), max(column)) for column in columns])
                  for (viewpoint, solver), columns in seen.items()])


def _rows(spans: Sequence[tuple[str, str, list[tuple[int, int]]]]) -> list[SizeRow]:
    """The rows of each viewpoint and solver's least and largest sizes, the solvers that
    post a viewpoint alike in one row."""
    rows: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for viewpoint, solver, columns in spans:
        cells = tuple(_span(low, high) for low, high in columns)
        rows.setdefault((viewpoint, cells), []).append(solver)
    return [SizeRow(viewpoint, ", ".join(solvers), cells)
            for (viewpoint, cells), solvers in rows.items()]


def _span(low: int, high: int) -> str:
    return f"{low:,}" if low == high else f"{low:,}-{high:,}"
