"""``puzzlelab run``, ``table`` and ``report``: experiments, and what their stores show.

The campaign engine and the analysis are imported by the command that runs, not with
this module: ``puzzlelab solve`` or ``--help`` pays for neither."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from experiments.cli.app import INTERRUPTED, app, console, listed, status_console
from puzzlelab.statistics import metric_names
from puzzlelab.wording import counted

METRICS_HELP = ("comma-separated, from: " + ", ".join(metric_names())
                + " (default: as the campaign's spec says in its table settings)")
BY_HELP = ("column groups: viewpoint, heuristic or solver (default: as the campaign's spec "
           "says)")
REACHED_HELP = ("for runs stopped by a limit, show the counts reached (≥N) (default: as the "
                "campaign's spec says)")


@app.command()
def run(
    spec: Annotated[Path, typer.Argument(help="experiment spec (TOML)")],
    jobs: Annotated[int | None, typer.Option(help="runs at a time (default: the cores)")] = None,
    executor: Annotated[str, typer.Option(help="local or dask")] = "local",
    scheduler: Annotated[str | None, typer.Option(help="Dask scheduler address "
                                                       "(default: a local cluster)")] = None,
    fresh: Annotated[bool, typer.Option(help="forget stored runs and start over")] = False,
    out: Annotated[Path | None, typer.Option(
        help="folder of runs.sqlite and the tables (default: runs/<name> in the current "
             "folder)")] = None,
    results: Annotated[Path | None, typer.Option(help="same as --out RESULTS/<name>")] = None,
    progress: Annotated[bool, typer.Option(help="show the progress bar")] = True,
) -> None:
    """Run an experiment (resuming where it stopped) and write its tables and report."""
    from experiments.analysis.table_format import terminal_width
    from experiments.api import run_experiment
    from experiments.campaign.environment import core_count
    from experiments.campaign.runner import results_folder
    from experiments.campaign.spec import load_spec

    signal.signal(signal.SIGTERM, _interrupt)  # a polite kill stops the campaign like Ctrl-C
    loaded = load_spec(spec)
    folder = results_folder(loaded, results, out)
    console.print(f"results go to {escape(str(folder))}{os.sep} (runs.sqlite, table.md, "
                  f"table.tex, runs.csv)", highlight=False)
    if out is None and results is None:
        _point_at_former_folder(loaded.name, folder)
    cores = core_count()
    if executor == "local" and jobs is not None and jobs > cores:
        status_console.print(f"warning: --jobs {jobs} is more than the "
                             f"{counted(cores, 'core')} here: runs will compete for them, "
                             f"and their times will not compare with runs made alone",
                             highlight=False)
    done = run_experiment(loaded, jobs=jobs, executor=executor, scheduler=scheduler,
                          fresh=fresh, out=folder, show_progress=progress, console=console,
                          width=terminal_width())
    campaign = done.campaign
    for line in campaign.skipped:
        console.print(f"skipped: {escape(line)}", highlight=False)
    statuses = ", ".join(f"{n} {s}" for s, n in sorted(campaign.statuses.items())) or "none"
    if campaign.marked_wrong:
        statuses += (f"; {counted(campaign.marked_wrong, 'earlier run')} marked wrong "
                     f"(\"unsatisfiable\" where a run of this session found a solution)")
    console.print(f"{counted(campaign.ran, 'run')} this session ({statuses}); "
                  f"{campaign.already_stored} of {campaign.planned} were stored before. "
                  f"Results: {campaign.database}")
    if campaign.interrupted:
        console.print("interrupted: the finished runs are stored (and their tables written); "
                      "run the same command again to resume")
        sys.exit(INTERRUPTED)  # said already: main() would say "interrupted" for Exit(130)
    if done.outputs.text:
        print(done.outputs.text)
    console.print("wrote " + ", ".join(str(p) for p in done.outputs.files))


def _point_at_former_folder(name: str, folder: Path) -> None:
    """Campaigns went to ``results/<name>`` by default before: one begun there resumes
    with ``--out``, which a user would not guess."""
    former = Path("results") / name
    if not (folder / "runs.sqlite").exists() and (former / "runs.sqlite").exists():
        status_console.print(f"note: {former / 'runs.sqlite'} holds runs of this experiment "
                             f"stored by an earlier version, which wrote there by default; "
                             f"stop and run again with --out {former} to resume them",
                             highlight=False)


def _interrupt(signal_number: int, frame: object) -> None:
    raise KeyboardInterrupt


@app.command()
def table(
    databases: Annotated[list[Path], typer.Argument(
        help="a campaign's runs.sqlite; several put their campaigns side by side, with "
             "ratios to the first", metavar="DATABASE...")],
    metrics: Annotated[str | None, typer.Option(help=METRICS_HELP)] = None,
    fmt: Annotated[str, typer.Option("--format", help="text, markdown, latex or csv")] = "text",
    by: Annotated[str | None, typer.Option(help=BY_HELP)] = None,
    reached: Annotated[bool | None, typer.Option(help=REACHED_HELP)] = None,
    width: Annotated[int | None, typer.Option(
        min=0, help="text: columns to fit, groups past it go on below (default: the "
                    "terminal's; 0: no limit)")] = None,
) -> None:
    """Print the course-style tables of one results database, or of several side by side
    (grouped and measured as the first campaign's spec says, unless told otherwise)."""
    from experiments.analysis.table_format import terminal_width
    from experiments.analysis.tables import CampaignRuns, format_campaigns
    from experiments.campaign.stored import read_campaigns

    campaigns = read_campaigns(databases)
    own = campaigns[0].table_settings()
    print(format_campaigns([CampaignRuns.of(c) for c in campaigns],
                           by=by or own.by,
                           metrics=listed(metrics) if metrics is not None
                           else own.metrics, fmt=fmt,
                           reached=own.reached if reached is None else reached,
                           width=terminal_width() if width is None else width or None), end="")


@app.command()
def report(
    databases: Annotated[list[Path], typer.Argument(
        help="a campaign's runs.sqlite; several make one page, a section each",
        metavar="DATABASE...")],
    out: Annotated[Path | None, typer.Option(
        help="folder to write into (default: report/ beside the first database)")] = None,
    metrics: Annotated[str | None, typer.Option(help="table columns, " + METRICS_HELP)] = None,
    by: Annotated[str | None, typer.Option(help=BY_HELP.replace("column groups",
                                                                "column groups and plot "
                                                                "lines"))] = None,
    instances: Annotated[str | None, typer.Option(
        help="comma-separated instance labels to draw (default: the first few)")] = None,
    reached: Annotated[bool | None, typer.Option(help=REACHED_HELP)] = None,
) -> None:
    """Write the course-style report of results databases: index.html (tables, figures,
    puzzles), report.md, report.tex, and each figure as SVG and PDF."""
    from experiments.analysis.report import write_report  # matplotlib: only when reporting

    written = write_report(databases, out, by=by,
                           metrics=listed(metrics) if metrics is not None else None,
                           instances=listed(instances or ""), reached=reached)
    console.print(f"wrote {escape(str(written.folder / 'index.html'))} (and report.md, "
                  f"report.tex, {counted(len(written.files) - 3, 'figure file')} in "
                  f"{escape(str(written.folder / 'figures'))}) in {written.seconds:.1f} s",
                  highlight=False)
