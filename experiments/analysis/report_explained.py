"""The report's explanations: the instances the spec's ``explain`` key names, explained
step by step, written to one page beside the report (:data:`EXPLAIN_PAGE`) and summed
up in it (steps, difficulty, how the steps ended), a row each.

The instances are the campaign's own, as the store keeps them. An instance that cannot
be explained (its viewpoint refuses it, the explaining is not installed) becomes a note
instead of a row: a report is still worth having without it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

from experiments.analysis.report_pictures import instance_of_run, instance_runs
from experiments.campaign.spec import explain_settings
from experiments.campaign.stored_campaign import StoredCampaign
from experiments.reasoning.steps import Explanation
from puzzlelab.errors import PuzzleLabError
from puzzles import PUZZLES

EXPLAIN_PAGE = "explain.html"
"""The page of every explanation of the report, in the report's folder."""
EXPLAIN_SECONDS = 60.0
"""How long one instance's explaining may take before its steps end there."""


@dataclass(frozen=True)
class ExplainedRow:
    """One explained instance as the report's summary shows it, with its place on the
    explanations' page."""

    explanation: Explanation
    instance: Any
    link: str

    @property
    def cells(self) -> tuple[str, str, int, int, int, str]:
        """Instance, viewpoint, steps, difficulty, total cost, ending."""
        shown = self.explanation
        return (shown.instance, shown.viewpoint, len(shown.steps), shown.difficulty,
                shown.total_cost, shown.ending)


SUMMARY_HEADERS = ("instance", "viewpoint", "steps", "difficulty", "total cost", "ending")
"""The summary's columns (:attr:`ExplainedRow.cells`)."""


def explainer() -> Callable[..., Explanation]:
    """The function that explains an instance, looked up when a report explains one (the
    explaining imports solvers a report without explanations never needs)."""
    explain: Callable[..., Explanation] = import_module(
        "experiments.reasoning.explaining").explain
    return explain


def explain_instances(campaign: StoredCampaign, first_link: int
                      ) -> tuple[list[ExplainedRow], list[str]]:
    """The rows of the instances ``campaign``'s spec asks to explain (their links number
    on from ``first_link``), and a note for each that could not be explained."""
    if campaign.session is None:
        return [], []
    settings = explain_settings(campaign.session.spec_text, Path(campaign.session.spec_path))
    if not settings.instances:
        return [], []
    puzzle = campaign.puzzle
    if puzzle is None or puzzle not in PUZZLES.names():
        return [], [f"no explanations: the campaign's puzzle ({puzzle}) is not a known puzzle"]
    try:
        explain = explainer()
    except ImportError as error:
        return [], [f"no explanations: this PuzzleLab cannot explain yet ({error})"]
    kind = PUZZLES.get(puzzle)
    rows: list[ExplainedRow] = []
    notes: list[str] = []
    runs_of = instance_runs(campaign, settings.instances)
    for label in settings.instances:
        first, _ = runs_of[label]
        if first is None:
            notes.append(f"{label}: not explained, the campaign has no run of it")
            continue
        instance, missing = instance_of_run(campaign, kind, first)
        if instance is None:
            notes.append(f"{label}: not explained, {missing}")
            continue
        try:
            explanation = explain(instance, viewpoint=settings.viewpoint,
                                  time_limit=EXPLAIN_SECONDS)
        except PuzzleLabError as error:
            notes.append(f"{label}: not explained ({error})")
            continue
        link = f"{EXPLAIN_PAGE}#explanation-{first_link + len(rows)}"
        rows.append(ExplainedRow(explanation, instance, link))
    return rows, notes


def write_explanations(rows: Sequence[ExplainedRow], folder: Path, title: str) -> Path | None:
    """The explanations' page in ``folder``, when there is any row (None otherwise)."""
    from experiments.reasoning.explain_page import explanation_page

    if not rows:
        return None
    path = folder / EXPLAIN_PAGE
    path.parent.mkdir(parents=True, exist_ok=True)
    page = explanation_page([row.explanation for row in rows], [row.instance for row in rows],
                            title=title)
    path.write_text(page, encoding="utf-8")
    return path
