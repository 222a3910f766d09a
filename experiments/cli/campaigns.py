"""``puzzlelab run``, ``table`` and ``report``: experiments, and what their stores show.

The campaign engine and the analysis are imported by the command that runs, not with
this module: ``puzzlelab solve`` or ``--help`` pays for neither."""

from __future__ import annotations

import os
import signal
import sys
import time
from argparse import ArgumentParser, BooleanOptionalAction, Namespace
from pathlib import Path
from typing import TYPE_CHECKING

from experiments.cli.app import (
    INTERRUPTED,
    at_least,
    command,
    listed,
    note,
    say,
    say_first_use,
    writable_folder,
)
from puzzlelab.errors import OptionError, PuzzleLabError
from puzzlelab.wording import counted

if TYPE_CHECKING:
    from collections.abc import Sequence

    from experiments.campaign.runner import CampaignTally
    from experiments.campaign.stored_campaign import StoredCampaign

BY_HELP = ("column groups: viewpoint, heuristic or solver (default: as the campaign's spec "
           "says)")
ALL_RUNS_HELP = ("also the stored runs of cells the spec no longer plans (a campaign whose "
                 "spec lost viewpoints, solvers, heuristics, instances or repeats)")
REACHED_HELP = ("for runs stopped by a limit, show the counts reached (≥N) (default: as the "
                "campaign's spec says)")


def _metrics_help() -> str:
    from puzzlelab.statistics import metric_names

    return ("comma-separated, from: " + ", ".join(metric_names())
            + " (default: as the campaign's spec says in its table settings)")


def _run_arguments(parser: ArgumentParser) -> None:
    from experiments.campaign.sizing import JOBS_PER_CORE

    parser.add_argument("spec", metavar="SPEC", type=Path, help="experiment spec (TOML)")
    parser.add_argument("--jobs", type=int, help=f"runs at a time (default: the cores); no "
                                                 f"more than the runs to make, nor "
                                                 f"{JOBS_PER_CORE} per core")
    parser.add_argument("--executor", default="local", help="local or dask")
    parser.add_argument("--scheduler", help="Dask scheduler address (default: a local "
                                            "cluster)")
    parser.add_argument("--fresh", action=BooleanOptionalAction, default=False,
                        help="forget stored runs and start over")
    parser.add_argument("--out", type=Path, metavar="FOLDER",
                        help="folder of runs.sqlite and the tables (default: runs/<name> in "
                             "the current folder)")
    parser.add_argument("--results", type=Path, metavar="FOLDER",
                        help="same as --out RESULTS/<name>")
    parser.add_argument("--progress", action=BooleanOptionalAction, default=True,
                        help="show the progress bar")


@command("run", _run_arguments)
def run(given: Namespace) -> int | None:
    """Run an experiment (resuming where it stopped) and write its tables and report."""
    from rich.console import Console  # the progress bar's

    from experiments.analysis.terminal import output_width, terminal_height
    from experiments.api import run_experiment
    from experiments.campaign.runner import results_folder
    from experiments.campaign.spec import load_spec
    from experiments.cli.early_imports import ImportOnFirstRun

    signal.signal(signal.SIGTERM, _interrupt)  # a polite kill stops the campaign like Ctrl-C
    loaded = load_spec(given.spec)
    folder = results_folder(loaded, given.results, given.out)

    def checked() -> None:
        """The spec passed every check: say where the results go, before any is made."""
        say(f"results go to {folder}{os.sep} (runs.sqlite, table.md, table.tex, runs.csv)")
        if given.out is None and given.results is None:
            _point_at_former_folder(loaded.name, folder)
        say_first_use([solver.name for solver in loaded.solvers])

    reporting = loaded.table.report
    done = run_experiment(loaded, jobs=given.jobs, executor=given.executor,
                          scheduler=given.scheduler, fresh=given.fresh, out=folder,
                          show_progress=given.progress, console=Console(soft_wrap=True),
                          width=output_width(), height=terminal_height(),
                          on_checked=checked, on_start=_say_plan,
                          on_run=ImportOnFirstRun("experiments.analysis.report")
                          if reporting else None)
    campaign = done.campaign
    for line in campaign.skipped:
        say(f"skipped: {line}")
    statuses = ", ".join(f"{n} {s}" for s, n in sorted(campaign.statuses.items())) or "none"
    if campaign.marked_wrong:
        statuses += (f"; {counted(campaign.marked_wrong, 'earlier run')} marked wrong "
                     f"(\"unsatisfiable\" where a run of this session found a solution)")
    say(f"{counted(campaign.ran, 'run')} this session ({statuses}); "
        f"{campaign.already_stored} of {campaign.planned} were stored before. "
        f"Results: {campaign.database}")
    if campaign.interrupted:
        say("interrupted: the finished runs are stored (and their tables written); run the "
            "same command again to resume")
        sys.exit(INTERRUPTED)  # said already: main() would say "interrupted" again
    if done.outputs.text:
        print(done.outputs.text)
    say("wrote " + ", ".join(str(p) for p in done.outputs.files))
    return None


def _say_plan(plan: CampaignTally) -> None:
    """How many runs the grid plans, how many are stored and how many are new: a spec run
    again after it grew runs only its new cells. On stderr, fewer workers than --jobs
    asked, or more than the cores."""
    said = plan.workers.note() if plan.workers else None
    if said:
        note(said)
    if not plan.already_stored and not plan.outside_grid:
        return
    new = plan.planned - plan.already_stored
    line = (f"{counted(plan.planned, 'run')} planned: {plan.already_stored} stored, "
            f"{new} new")
    if plan.outside_grid:
        line += (f"; {counted(plan.outside_grid, 'stored run')} of cells the spec no longer "
                 f"plans kept in the store, not shown (table and report --all-runs show them)")
    say(line)


def _point_at_former_folder(name: str, folder: Path) -> None:
    """Campaigns went to ``results/<name>`` by default before: one begun there and left
    unfinished resumes with ``--out``, which a user would not guess. A finished store
    there is a result (every committed experiment keeps one): nothing to resume, and no
    reason to write into ``results/``."""
    from experiments.campaign.stored_campaign import left_unfinished

    former = Path("results") / name
    if (not (folder / "runs.sqlite").exists() and (former / "runs.sqlite").exists()
            and left_unfinished(former / "runs.sqlite")):
        note(f"note: {former / 'runs.sqlite'} holds an unfinished campaign of this "
             f"experiment (earlier versions wrote there by default); stop and run again with "
             f"--out {former} to resume it")


def _interrupt(signal_number: int, frame: object) -> None:
    raise KeyboardInterrupt


def _note_hidden(campaigns: Sequence[StoredCampaign]) -> None:
    """Say on stderr what each campaign's tables leave out (runs of cells no longer
    planned), and how to show it."""
    for campaign in campaigns:
        hidden = campaign.hidden_note()
        if hidden:
            note(f"note: {hidden}")


def _table_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("databases", metavar="DATABASE", type=Path, nargs="+",
                        help="a campaign's runs.sqlite; several put their campaigns side by "
                             "side, with ratios to the first")
    parser.add_argument("--metrics", help=_metrics_help())
    parser.add_argument("--format", dest="fmt", default="text",
                        help="text, markdown, latex or csv; or parquet: every run as a row "
                             "with typed columns, into --output")
    parser.add_argument("--output", type=Path, metavar="FILE",
                        help="write there instead of printing (parquet needs it)")
    parser.add_argument("--by", help=BY_HELP)
    parser.add_argument("--reached", action=BooleanOptionalAction, help=REACHED_HELP)
    parser.add_argument("--all-runs", action="store_true", help=ALL_RUNS_HELP)
    parser.add_argument("--width", type=at_least(0),
                        help="text: columns to fit, groups past it go on below (default: the "
                             "terminal's; 0: no limit)")


@command("table", _table_arguments)
def table(given: Namespace) -> None:
    """Print the course-style tables of one results database, or of several side by side
    (grouped and measured as the first campaign's spec says, unless told otherwise)."""
    from experiments.analysis.tables import AGGREGATED_FROM_RUNS, CampaignRuns, format_campaigns
    from experiments.analysis.terminal import terminal_width
    from experiments.campaign.stored_campaign import read_campaigns

    if given.fmt == "parquet":
        _runs_to_parquet(given)
        return
    campaigns = read_campaigns(given.databases, all_runs=given.all_runs,
                               whole_below=AGGREGATED_FROM_RUNS)
    _note_hidden(campaigns)
    own = campaigns[0].table_settings()
    width = terminal_width() if given.width is None else given.width or None
    text = format_campaigns([CampaignRuns.of(c) for c in campaigns], by=given.by or own.by,
                            metrics=listed(given.metrics) if given.metrics is not None
                            else own.metrics, fmt=given.fmt,
                            reached=own.reached if given.reached is None else given.reached,
                            width=width)
    if given.output is None:
        print(text, end="")
        return
    try:
        given.output.write_text(text, encoding="utf-8")
    except OSError as error:
        raise PuzzleLabError(f"--output {given.output}: cannot write the table "
                             f"({error.strerror or error})") from None
    say(f"wrote {given.output}")


def _runs_to_parquet(given: Namespace) -> None:
    """``table DB --format parquet --output FILE``: every run, not a table of them."""
    from experiments.campaign.store.arrow import write_parquet

    if given.output is None:
        raise OptionError("--format parquet writes a file: give it with --output FILE")
    if len(given.databases) > 1:
        raise OptionError("--format parquet writes one campaign's runs: give one database")
    written = write_parquet(given.databases[0], given.output, all_runs=given.all_runs)
    say(f"wrote {counted(written, 'run')} to {given.output}")


def _report_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("databases", metavar="DATABASE", type=Path, nargs="+",
                        help="a campaign's runs.sqlite; several make one page, a section each")
    parser.add_argument("--out", type=Path, metavar="FOLDER",
                        help="folder to write into (default: report/ beside the first "
                             "database)")
    parser.add_argument("--metrics", help="table columns, " + _metrics_help())
    parser.add_argument("--by", help=BY_HELP.replace("column groups",
                                                     "column groups and plot lines"))
    parser.add_argument("--instances", help="comma-separated instance labels to draw "
                                            "(default: the first few)")
    parser.add_argument("--reached", action=BooleanOptionalAction, help=REACHED_HELP)
    parser.add_argument("--all-runs", action="store_true", help=ALL_RUNS_HELP)


@command("report", _report_arguments)
def report(given: Namespace) -> None:
    """Write the course-style report of results databases: index.html (tables, figures,
    puzzles), report.md, report.tex, and each figure as SVG and PDF."""
    from experiments.analysis.report import default_folder, report_of  # matplotlib
    from experiments.analysis.tables import AGGREGATED_FROM_RUNS
    from experiments.campaign.stored_campaign import read_campaigns

    started = time.perf_counter()
    folder = Path(given.out) if given.out is not None else default_folder(given.databases)
    if folder.exists() and not folder.is_dir():
        raise PuzzleLabError(f"--out {folder}: is a file; name the folder to write the "
                             f"report into (it is made if missing)")
    campaigns = read_campaigns(given.databases, require_runs=True, all_runs=given.all_runs,
                               whole_below=AGGREGATED_FROM_RUNS)
    writable_folder(folder, "the report")
    _note_hidden(campaigns)
    written = report_of(campaigns, folder, by=given.by, started=started,
                        metrics=listed(given.metrics) if given.metrics is not None else None,
                        instances=listed(given.instances or ""), reached=given.reached)
    say(f"wrote {written.folder / 'index.html'} (and report.md, report.tex, "
        f"{counted(len(written.files) - 3, 'figure file')} in {written.folder / 'figures'}) "
        f"in {written.seconds:.1f} s")
