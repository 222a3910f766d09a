"""``puzzlelab report``: one or several results databases as a course-style report.

Writes into one folder ``index.html`` (a page that needs nothing else: CSS inline,
every figure and picture inlined as an SVG image), ``report.md`` and ``report.tex``
(the same tables and figures for a written report, the LaTeX one a fragment to
``\\input``), and under ``figures/`` each figure as SVG and PDF and each puzzle
picture as SVG. The tables are those of ``puzzlelab table``
(:mod:`experiments.analysis.tables`), the figures :mod:`experiments.analysis.report_figures`', the
pictures :mod:`experiments.analysis.report_pictures`'. Several databases make one page with a
section each. A table wider than a printed page goes on in parts, by column group, on
the printed page (:data:`PAGE_CHARACTERS`) and in the Markdown and the LaTeX, as in
``table.md`` and ``table.tex`` (:func:`~experiments.analysis.table_format.printed`); on a
screen the page has the width of a laptop's window, and its tables go on in parts only
past that (:data:`SCREEN_CHARACTERS`).
"""

from __future__ import annotations

import functools
import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import jinja2

import puzzlelab
from experiments.analysis.figure_style import DrawnFigure
from experiments.analysis.forked_work import run_forked
from experiments.analysis.report_data import plot_cells, summary_line
from experiments.analysis.report_explained import (
    EXPLAIN_PAGE,
    SUMMARY_HEADERS,
    ExplainedRow,
    explain_instances,
    write_explanations,
)
from experiments.analysis.report_facts import facts
from experiments.analysis.report_figures import planned_figures
from experiments.analysis.report_pictures import DrawnPuzzle, draw_puzzles
from experiments.analysis.report_sizes import HEADERS, SizeRow, size_rows
from experiments.analysis.report_trees import TreeGroup, draw_trees
from experiments.analysis.table_format import (
    TEMPLATES,
    ResultTable,
    column_parts,
    latex_escape,
    legend,
    mark_meaning,
    printed,
    text_width,
)
from experiments.analysis.tables import (
    AGGREGATED_FROM_RUNS,
    NOTES,
    CampaignRuns,
    build_comparison,
    table_columns,
)
from experiments.campaign.stored_campaign import StoredCampaign, read_campaigns
from puzzlelab.errors import PuzzleLabError
from puzzlelab.notebook import svg_address
from puzzlelab.statistics import EFFORT_STATISTICS

OUTPUTS = ("index.html", "report.md", "report.tex")
"""The report's files, each rendered from its template ``<name>.j2``."""
FIGURES = "figures"
"""The sub-folder of the report with the figures' SVG and PDF files and the pictures."""
PAGE_CHARACTERS = 100
"""The widest table part of the page, in characters of the text layout (two between
columns): what an A4 or Letter page holds at the printed table's font (the browser test
measures it). Wider tables go on in further parts, by column group; ``report.md`` and
``report.tex`` are split as ``table.md`` and ``table.tex`` are (:func:`printed`)."""
SCREEN_WIDTH = 1280
"""CSS pixels across the window the page's screen layout is made for: a laptop's."""
PAGE_PADDING = 48
"""CSS pixels of the page's padding, left and right (``1.5rem`` each)."""
SCROLL_BAR = 16
"""CSS pixels a browser's vertical scroll bar may take from the window."""
CHARACTER_PIXELS = 7.75
"""CSS pixels a character of the text layout takes at the screen table's font, at most:
the browser test's measure (Chromium with DejaVu Sans, wider than most system fonts)."""
SCREEN_CHARACTERS = int((SCREEN_WIDTH - PAGE_PADDING - SCROLL_BAR) / CHARACTER_PIXELS)
"""The widest table part of the page on a screen of :data:`SCREEN_WIDTH` (156 characters,
half as wide again as a printed page's)."""


@dataclass(frozen=True)
class ShownTable:
    """One table of the report: its summary sentence, and its parts as a printed page
    shows them (one, unless it is wider than :data:`PAGE_CHARACTERS`) and as a screen
    does (:data:`SCREEN_CHARACTERS`)."""

    title: str
    summary: str
    parts: list[ResultTable]
    screen_parts: list[ResultTable]

    @property
    def one_layout(self) -> bool:
        """The screen shows the table as print does: the page holds it once."""
        return self.screen_parts == self.parts

    @property
    def notes(self) -> tuple[str, ...]:
        """The notes under the table (its last part's, in either layout)."""
        return self.parts[-1].notes


@dataclass
class CampaignSection:
    """Everything the templates show of one campaign."""

    campaign: StoredCampaign
    facts: list[tuple[str, str]]
    anchor: str
    by: str
    tables: list[ShownTable]
    figures: list[DrawnFigure]
    puzzles: list[DrawnPuzzle]
    notes: list[str] = field(default_factory=list)
    absent_figures: list[str] = field(default_factory=list)
    """Each figure not drawn, and why (nothing solved to plot, one group only, ...)."""
    markdown_tables: str = ""
    latex_tables: str = ""
    sizes: list[SizeRow] = field(default_factory=list)
    """Each viewpoint's model size on each solver (none for runs stored before sizes)."""
    trees: list[TreeGroup] = field(default_factory=list)
    """The search trees the campaign recorded, one group per instance."""
    explained: list[ExplainedRow] = field(default_factory=list)
    """The instances the spec's ``explain`` names, explained (on the explanations' page)."""


@dataclass(frozen=True)
class WrittenReport:
    """What ``write_report`` wrote, and how long it took."""

    folder: Path
    files: tuple[Path, ...]
    seconds: float


def default_folder(databases: Sequence[str | Path]) -> Path:
    """``report/`` beside the first database."""
    return Path(databases[0]).parent / "report"


def write_report(databases: Sequence[str | Path], out: str | Path | None = None,
                 by: str | None = None, metrics: Sequence[str] | None = None,
                 instances: Sequence[str] = (), reached: bool | None = None) -> WrittenReport:
    """Write the report of ``databases`` into ``out`` (default: ``report/`` beside the
    first) and return what was written. ``by``, ``metrics`` and ``reached`` left out
    are each campaign's own, from its spec's ``table`` settings. A file that is not a
    results database, or one with no runs, is a ``PuzzleLabError`` before anything is
    written."""
    started = time.perf_counter()
    if not databases:
        raise PuzzleLabError("name at least one results database (runs.sqlite)")
    campaigns = read_campaigns(databases, require_runs=True, whole_below=AGGREGATED_FROM_RUNS)
    folder = Path(out) if out is not None else default_folder(databases)
    return report_of(campaigns, folder, by, metrics, instances, reached, started)


def report_of(campaigns: Sequence[StoredCampaign], folder: Path, by: str | None = None,
              metrics: Sequence[str] | None = None, instances: Sequence[str] = (),
              reached: bool | None = None, started: float | None = None) -> WrittenReport:
    """Write the report of ``campaigns``, read already, into ``folder`` (the end of a
    campaign has its runs in hand); see :func:`write_report`."""
    started = time.perf_counter() if started is None else started
    figures = folder / FIGURES
    sections: list[CampaignSection] = []
    used: set[str] = set()
    settings = [campaign.table_settings() for campaign in campaigns]
    groupings = [by or own.by for own in settings]
    anchors = [_unique(_slug(campaign.name), used) for campaign in campaigns]
    runs_of = [CampaignRuns.of(campaign) for campaign in campaigns]
    for runs, own in zip(runs_of, settings):  # one query in the store for plots and tables
        if runs.aggregated is not None:
            runs.cells([*EFFORT_STATISTICS, *table_columns(metrics or own.metrics)])
    cells_of = [plot_cells(runs, grouped) for runs, grouped in zip(runs_of, groupings)]
    # the figures, the longest part, are drawn each in a forked process of its own (the
    # cores idle at the end of a campaign), while the rest is made here
    plans = [planned_figures(cells, figures, anchor, grouped)
             for cells, anchor, grouped in zip(cells_of, anchors, groupings)]
    drawing = [[run_forked(draw) for draw in drawers] for drawers, _ in plans]
    for campaign, runs, own, grouped, anchor, cells in zip(campaigns, runs_of, settings,
                                                           groupings, anchors, cells_of):
        tables = build_comparison([replace(runs, name="")], grouped, metrics or own.metrics,
                                  own.reached if reached is None else reached)
        pictures, notes = draw_puzzles(campaign, instances, figures, anchor)
        if campaign.planned_runs is not None and campaign.stored_runs < campaign.planned_runs:
            notes.insert(0, f"partial: {campaign.stored_runs} of {campaign.planned_runs} "
                            f"planned runs stored; run the spec again to finish")
        hidden = campaign.hidden_note()
        if hidden:
            notes.insert(0, hidden)
        explained, unexplained = explain_instances(campaign, sum(
            len(section.explained) for section in sections))
        notes += unexplained
        shown = [ShownTable(t.title, summary_line(cells, t.title),
                            column_parts(t, PAGE_CHARACTERS),
                            column_parts(t, SCREEN_CHARACTERS)) for t in tables]
        sections.append(CampaignSection(
            campaign, facts(campaign), anchor, grouped, shown, [], pictures, notes,
            markdown_tables=printed(tables, "markdown"),
            latex_tables=printed(tables, "latex"),
            sizes=size_rows(campaign), trees=draw_trees(campaign, figures, anchor),
            explained=explained))
    templates = {name: _template(name) for name in OUTPUTS}  # while the figures are drawn
    for section, pending, (_, absent) in zip(sections, drawing, plans):
        section.figures.extend(figure.result() for figure in pending)
        section.absent_figures.extend(absent)
    explanations = write_explanations([row for s in sections for row in s.explained], folder,
                                      "Explanations: " + _title(campaigns))
    written = [_write(folder / name, template.render(
        sections=sections, title=_title(campaigns), version=puzzlelab.__version__,
        legend=legend(), notes=NOTES, figures_folder=FIGURES, size_headers=HEADERS,
        explained_headers=SUMMARY_HEADERS,
        screen_pixels=screen_pixels(sections)))
        for name, template in templates.items()]
    files = [*written, *([explanations] if explanations else []),
             *(f.svg for s in sections for f in s.figures),
             *(f.pdf for s in sections for f in s.figures),
             *(p.svg for s in sections for p in s.puzzles),
             *(f for s in sections for g in s.trees for t in g.trees for f in (t.svg, t.pdf))]
    _remove_stale(folder, files)
    return WrittenReport(folder, tuple(files), time.perf_counter() - started)


def _remove_stale(folder: Path, written: Sequence[Path]) -> None:
    """Take out what an earlier report left in ``folder`` that this one did not write:
    figure files (SVG, PDF) under ``figures/`` and the explanations' page, which would
    otherwise sit beside the report as if they were its own. Other files stay."""
    kept = {path.resolve() for path in written}
    figures = folder / FIGURES
    stale = [*figures.glob("*.svg"), *figures.glob("*.pdf"), folder / EXPLAIN_PAGE]
    for path in stale:
        if path.is_file() and path.resolve() not in kept:
            path.unlink()


def screen_pixels(sections: Sequence[CampaignSection]) -> int:
    """The narrowest window that holds the widest table part of the screen layout, where
    it differs from the printed one: a narrower window shows the printed parts (about
    780 CSS pixels at most) rather than scroll (0: the layouts never differ)."""
    widest = max((text_width(part) for section in sections for shown in section.tables
                  if not shown.one_layout for part in shown.screen_parts), default=0)
    return math.ceil(widest * CHARACTER_PIXELS) + PAGE_PADDING + SCROLL_BAR if widest else 0


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _title(campaigns: Sequence[StoredCampaign]) -> str:
    return "PuzzleLab report: " + ", ".join(c.name for c in campaigns)


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-") or "campaign"


def _unique(slug: str, used: set[str]) -> str:
    candidate, number = slug, 2
    while candidate in used:
        candidate, number = f"{slug}-{number}", number + 1
    used.add(candidate)
    return candidate




def prepare() -> None:
    """Compile the report's templates now: a campaign calls this while its runs go on,
    so that its report, written after them, does not wait for it."""
    for name in OUTPUTS:
        _template(name)


@functools.cache
def _template(name: str) -> jinja2.Template:
    """The compiled template of the output ``name``, made once a process (the templates
    are files of the package)."""
    return _environment(name).get_template(f"{name}.j2")


def _environment(name: str) -> jinja2.Environment:
    """Jinja for one output: HTML escaped, LaTeX with its own delimiters (braces clash)."""
    if name.endswith(".tex"):
        environment = jinja2.Environment(
            loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=False,
            block_start_string="((*", block_end_string="*))", variable_start_string="(((",
            variable_end_string=")))", comment_start_string="((#", comment_end_string="#))",
            trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    else:
        environment = jinja2.Environment(
            loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=name.endswith(".html"),
            trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    environment.filters.update(data_uri=lambda f: svg_address(f.svg_text), latex=latex_escape,
                               mark=mark_meaning, relative=lambda p: f"{FIGURES}/{p.name}")
    return environment
