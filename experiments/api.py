"""PuzzleLab's Python API: what the command line does, as functions.

Solve one instance (:func:`solve`, returning a judged
:class:`~experiments.campaign.solving.PuzzleRun`), run an experiment and write its
tables and report (:func:`run_experiment`), explain an instance step by step
(:func:`explain`, an :class:`~experiments.reasoning.steps.Explanation`) or give a hint on
a partly filled grid (:func:`hint`), and read a campaign back as typed run
records (:func:`read_runs`) or as a pandas DataFrame (:func:`runs_frame`, with the
``pandas`` extra), and build its course-style tables (:func:`result_tables`).
``docs/python-api.md`` shows them at work, and says which result type to use when; in a
notebook, instances, solutions, runs, statistics, campaigns and tables display themselves.
These calls leave the interpreter's settings (its garbage collector, its thread switch
interval) as they found them: the command line's tuning of its own process is its own.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from experiments.analysis.outputs import Outputs, write_outputs
from experiments.analysis.table_format import ResultTable
from experiments.analysis.tables import CampaignRuns, build_comparison
from experiments.campaign.grid import RunTask
from experiments.campaign.identity import ALL_SOLUTIONS, RunIdentity
from experiments.campaign.record import RunRecord
from experiments.campaign.runner import CampaignTally, run_campaign
from experiments.campaign.solving import PuzzleRun, solve
from experiments.campaign.spec import ExperimentSpec, load_spec
from experiments.campaign.stored_campaign import StoredCampaign, read_campaign
from experiments.reasoning.explaining import explain
from experiments.reasoning.hints import Hint, hint
from experiments.reasoning.steps import Explanation, Step
from puzzlelab.errors import PuzzleLabError
from puzzles import PUZZLES, puzzle_of

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["ALL_SOLUTIONS", "Experiment", "Explanation", "Hint", "PuzzleRun", "ResultTable",
           "RunIdentity", "RunRecord", "Step", "StoredCampaign", "explain", "hint",
           "load_spec", "read_campaign", "read_runs", "result_tables", "run_experiment",
           "runs_frame", "solve", "solve_instance"]


@dataclass(frozen=True)
class Experiment:
    """What :func:`run_experiment` did (``campaign``) and wrote (``outputs``)."""

    campaign: CampaignTally
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
                   on_start: Callable[[CampaignTally], None] | None = None,
                   on_run: Callable[[RunTask, RunRecord], None] | None = None,
                   on_checked: Callable[[], None] | None = None) -> Experiment:
    """Run the experiment ``spec`` (a spec or its TOML file), resuming where it stopped,
    then write ``table.md``, ``table.tex``, ``runs.csv`` and the report beside its store
    (the report unless ``report`` or the spec's ``table.report`` says no). An interrupted
    campaign writes the tables of what it stored, no report, and says so in
    ``campaign.interrupted``. The tables come back as text within ``width`` columns, and
    only their summary rows past ``height`` lines. ``on_checked`` hears that the spec and
    its grid passed every check, before the results folder is made or a worker started;
    ``on_start`` hears the plan (runs planned, stored, new, and the workers) before the
    first run, ``on_run`` each run as it is stored."""
    loaded = spec if isinstance(spec, ExperimentSpec) else load_spec(spec)
    summary = run_campaign(loaded, jobs=jobs, executor=executor, scheduler=scheduler,
                           fresh=fresh, results_root=results_root, out=out,
                           show_progress=show_progress, console=console, on_run=on_run,
                           on_start=on_start, on_checked=on_checked)
    # after Ctrl-C, the tables of what is stored, but no report: the user asked to stop
    return Experiment(summary, write_outputs(summary.database,
                                             False if summary.interrupted else report, width,
                                             height))


def read_runs(database: str | Path) -> list[RunRecord]:
    """Every run of a campaign's ``runs.sqlite``, in grid order, as typed records."""
    return list(read_campaign(database).runs)


def result_tables(campaign: StoredCampaign | str | Path, *, by: str | None = None,
                  metrics: Sequence[str] | None = None, reached: bool | None = None
                  ) -> list[ResultTable]:
    """The course-style tables ``puzzlelab table`` prints of a campaign (read already,
    or its ``runs.sqlite``), one per solver and heuristic when grouped by viewpoint;
    what is left out is the campaign's spec's ``table`` setting. Each table displays
    itself in a notebook."""
    stored = campaign if isinstance(campaign, StoredCampaign) else read_campaign(campaign)
    own = stored.table_settings()
    return build_comparison([CampaignRuns.of(stored)], by or own.by,
                            own.metrics if metrics is None else metrics,
                            own.reached if reached is None else reached)


def runs_frame(database: str | Path, *, all_runs: bool = False) -> Any:
    """Every run of a campaign's grid (every stored run with ``all_runs``) as a pandas
    DataFrame: a row per run, a column per store column, typed as the store declares it
    (counts stay integers beside missing values). Read from the store through Arrow, a
    batch at a time, never as run records (``pip install 'puzzlelab[pandas]'``)."""
    try:
        import pandas
    except ImportError:
        raise PuzzleLabError("runs_frame needs pandas: pip install 'puzzlelab[pandas]'"
                             ) from None
    from experiments.campaign.store.arrow import runs_table

    table = runs_table(database, all_runs)
    integer = {field.type for field in table.schema if str(field.type) == "int64"}
    return table.to_pandas(types_mapper={kind: pandas.Int64Dtype() for kind in integer}.get)


def solve_instance(puzzle: str, instance: Any, viewpoint: str, solver: str, heuristic: str,
                   options: Mapping[str, Any] | None = None, **limits: Any) -> PuzzleRun:
    """The former positional form of :func:`solve` (deprecated: call ``solve(instance,
    viewpoint=..., solver=..., heuristic=..., options=...)``, which infers the puzzle)."""
    warnings.warn("solve_instance(puzzle, instance, viewpoint, solver, heuristic, options) "
                  "is deprecated: call solve(instance, viewpoint=..., solver=..., "
                  "heuristic=..., options=...)", DeprecationWarning, stacklevel=2)
    if puzzle_of(instance).name != PUZZLES.get(puzzle).name:
        raise PuzzleLabError(f"the instance is a {puzzle_of(instance).name} puzzle, not "
                             f"{puzzle}")
    return solve(instance, viewpoint=viewpoint, solver=solver, heuristic=heuristic,
                 options=options, **limits)
