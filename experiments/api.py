"""PuzzleLab's Python API: what the command line does, as functions.

Solve one instance (:func:`solve_instance`, returning a judged
:class:`~experiments.campaign.solving.PuzzleRun`), run an experiment and write its
tables and report (:func:`run_experiment`), and read a campaign back as typed run
records (:func:`read_runs`) or as a pandas DataFrame (:func:`runs_frame`, with the
``pandas`` extra). ``docs/python-api.md`` shows them at work.
"""

from __future__ import annotations

import importlib
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from experiments.analysis.outputs import Outputs, write_outputs
from experiments.campaign.record import RunRecord, to_row
from experiments.campaign.runner import CampaignReport, run_campaign
from experiments.campaign.solving import PuzzleRun, solve_instance
from experiments.campaign.spec import ExperimentSpec, load_spec
from experiments.campaign.stored import StoredCampaign, read_campaign
from puzzlelab.collector import making_lasting_objects
from puzzlelab.errors import PuzzleLabError

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["Experiment", "PuzzleRun", "RunRecord", "StoredCampaign", "load_spec",
           "read_campaign", "read_runs", "run_experiment", "runs_frame", "solve_instance"]


@dataclass(frozen=True)
class Experiment:
    """What :func:`run_experiment` did (``campaign``) and wrote (``outputs``)."""

    campaign: CampaignReport
    outputs: Outputs

    @property
    def database(self) -> Path:
        """The campaign's results store."""
        return self.campaign.database


def run_experiment(spec: ExperimentSpec | str | Path, *, jobs: int | None = None,
                   executor: str = "local", scheduler: str | None = None,
                   fresh: bool = False, results_root: Path | None = None,
                   out: Path | None = None, show_progress: bool = False,
                   console: Console | None = None, report: bool | None = None,
                   width: int | None = None, height: int | None = None,
                   on_start: Callable[[CampaignReport], None] | None = None) -> Experiment:
    """Run the experiment ``spec`` (a spec or its TOML file), resuming where it stopped,
    then write ``table.md``, ``table.tex``, ``runs.csv`` and the report beside its store
    (the report unless ``report`` or the spec's ``table.report`` says no). An interrupted
    campaign writes the tables of what it stored, no report, and says so in
    ``campaign.interrupted``. The tables come back as text within ``width`` columns, and
    only their summary rows past ``height`` lines. ``on_start`` hears the plan (runs
    planned, stored, new) before the first run."""
    loaded = spec if isinstance(spec, ExperimentSpec) else load_spec(spec)
    reporting = loaded.table.report if report is None else report
    summary = run_campaign(loaded, jobs=jobs, executor=executor, scheduler=scheduler,
                           fresh=fresh, results_root=results_root, out=out,
                           show_progress=show_progress, console=console,
                           on_run=_PrepareOnce("experiments.analysis.report") if reporting
                           else None, on_start=on_start)
    # after Ctrl-C, the tables of what is stored, but no report: the user asked to stop
    return Experiment(summary, write_outputs(summary.database,
                                             False if summary.interrupted else report, width,
                                             height))


class _PrepareOnce:
    """Called as each run ends, imports ``module`` and calls its ``prepare()`` in a
    thread once the first has: the report's libraries (matplotlib, Jinja2) and its
    templates take half a second, which the runs hide, as the runner then mostly waits
    for its workers (started earlier, the import would slow the runner's own
    preparations, which hold Python's interpreter lock)."""

    def __init__(self, module: str) -> None:
        self.module: str | None = module

    def __call__(self, task: object, record: object) -> None:
        if self.module is not None:
            threading.Thread(target=self._import, args=(self.module,), daemon=True,
                             name=f"import {self.module}").start()
            self.module = None

    @staticmethod
    def _import(module: str) -> None:
        # the runner's thread waits for results: a short switch interval lets it take the
        # interpreter back at once when one comes, rather than after 5 ms of importing
        interval = sys.getswitchinterval()
        sys.setswitchinterval(min(interval, 0.0005))
        try:
            with making_lasting_objects():  # matplotlib's (puzzlelab.collector)
                importlib.import_module(module).prepare()
        finally:
            sys.setswitchinterval(interval)


def read_runs(database: str | Path) -> list[RunRecord]:
    """Every run of a campaign's ``runs.sqlite``, in grid order, as typed records."""
    return list(read_campaign(database).runs)


def runs_frame(database: str | Path) -> Any:
    """Every run of a campaign as a pandas DataFrame: a row per run, a column per store
    column (``pip install 'puzzlelab[pandas]'``)."""
    try:
        import pandas
    except ImportError:
        raise PuzzleLabError("runs_frame needs pandas: pip install 'puzzlelab[pandas]'"
                             ) from None
    return pandas.DataFrame([to_row(run) for run in read_runs(database)])
