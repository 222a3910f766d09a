"""What a campaign leaves beside its store: ``table.md``, ``table.tex``, ``runs.csv`` and
the report, all made from the store alone, the tables built once and rendered in each
form (and as text, for the terminal)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from experiments.analysis.forked_work import run_forked
from experiments.analysis.table_format import summary_of
from experiments.analysis.tables import (
    AGGREGATED_FROM_RUNS,
    CampaignRuns,
    build_comparison,
    render_campaigns,
)
from experiments.campaign.store import ResultsStore
from experiments.campaign.store.rows import write_runs_csv
from experiments.campaign.stored_campaign import read_campaigns
from experiments.campaign.verdicts import judged_against

TABLE_FILES = {"table.md": "markdown", "table.tex": "latex"}


@dataclass(frozen=True)
class Outputs:
    """The files written, and the tables as text for a terminal."""

    files: tuple[Path, ...]
    text: str


def write_outputs(database: str | Path, report: bool | None = None,
                  width: int | None = None, height: int | None = None) -> Outputs:
    """Write the tables, ``runs.csv`` and (unless the spec's ``table.report`` or
    ``report`` says no) the report beside ``database``, grouped and measured as the
    campaign's spec says; return them, with the tables as text within ``width``, and
    their summary rows alone where the whole would take more than ``height`` lines."""
    [campaign] = read_campaigns([database], whole_below=AGGREGATED_FROM_RUNS)
    folder = Path(database).parent
    settings = campaign.table_settings()
    written = None
    if campaign.stored_runs and (settings.report if report is None else report):
        from experiments.analysis.report import report_of  # matplotlib: only when reporting

        # the report is drawn in a forked child while the tables and runs.csv are written here
        written = run_forked(lambda: report_of([campaign], folder / "report").folder)
    runs = [CampaignRuns.of(campaign)]
    tables = build_comparison(runs, settings.by, settings.metrics,
                              settings.reached) if campaign.stored_runs else []
    files = []
    for name, fmt in TABLE_FILES.items():
        path = folder / name
        path.write_text(render_campaigns(tables, runs, fmt, page=True) if tables else "",
                        encoding="utf-8")
        files.append(path)
    path = folder / "runs.csv"
    with ResultsStore.open_existing(database) as store, \
            path.open("w", encoding="utf-8", newline="") as out:
        write_runs_csv(judged_against(store.iter_runs(grid_only=True), store.first_answers()),
                       out)
    files.append(path)
    if written is not None:
        files.append(written.result() / "index.html")
    text = render_campaigns(tables, runs, "text", width) if tables else ""
    if height is not None and text.count("\n") > height:
        text = (render_campaigns([summary_of(table) for table in tables], runs, "text", width)
                + f"\nevery instance's row: {files[0]} and {files[1]}\n")
    return Outputs(tuple(files), text)
