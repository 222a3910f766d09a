"""The report's pictures of solved instances, drawn by each puzzle's own SVG renderer.

Both the puzzle and its answer come from the store: the instance as the campaign ran
it (its text, kept in the store), and the campaign's own answer (the first solution a
run found and the checker accepted, read back from its JSON form). Where the file's
known solution differs from that answer (the puzzle has more than one), it is drawn
beside it, and each caption says which is which; where no run solved the instance,
the known solution is drawn, saying so, or else the puzzle alone. A store made before
instances were kept reads the instance from its file, and says so when the file is gone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from experiments.campaign.record import RunRecord
from experiments.campaign.stored_campaign import StoredCampaign
from experiments.campaign.verdicts import Verdict
from puzzlelab.errors import PuzzleLabError
from puzzles import PUZZLES, PuzzleKind

SHOWN_BY_DEFAULT = 3
"""Instances drawn when ``--instances`` names none: the campaign's first ones."""


@dataclass(frozen=True)
class DrawnPuzzle:
    """One picture: where its SVG file is, and its text for the page."""

    instance: str
    caption: str
    svg: Path
    svg_text: str


def chosen_instances(campaign: StoredCampaign, named: Sequence[str]) -> list[str]:
    """The instance labels to draw: those ``named`` (each must be in the campaign), else
    the first few in grid order."""
    if campaign.read_whole:
        labels = list(dict.fromkeys(run.identity.instance for run in
                                    sorted(campaign.runs, key=lambda r: r.identity.position)))
    else:
        from experiments.analysis.store_tally import labels as stored_labels

        labels = stored_labels(campaign)
    if not named:
        return labels[:SHOWN_BY_DEFAULT]
    unknown = [name for name in named if name not in labels]
    if unknown:
        raise PuzzleLabError(f"{campaign.database}: no instance {unknown[0]!r} in campaign "
                             f"{campaign.name}; its instances: {', '.join(labels[:20])}"
                             + (", ..." if len(labels) > 20 else ""))
    return list(named)


def draw_puzzles(campaign: StoredCampaign, named: Sequence[str], folder: Path,
                 prefix: str) -> tuple[list[DrawnPuzzle], list[str]]:
    """The pictures of the chosen instances, and a note for each one that could not be
    drawn: a report is still worth having without it."""
    puzzle = campaign.puzzle
    if puzzle is None or puzzle not in PUZZLES.names():
        return [], [f"no pictures: the campaign's puzzle ({puzzle}) is not a known puzzle"]
    kind = PUZZLES.get(puzzle)
    drawn: list[DrawnPuzzle] = []
    notes: list[str] = []
    chosen = chosen_instances(campaign, named)
    for label, (first, answer) in instance_runs(campaign, chosen).items():
        assert first is not None  # a chosen instance has runs
        instance, missing = instance_of_run(campaign, kind, first)
        if instance is None:
            notes.append(f"{label}: {missing}")
            continue
        for index, (caption, solution) in enumerate(_pictures(kind, instance, answer)):
            name = f"{prefix}-{_file_name(label)}" + ("-known" if index else "")
            drawn.append(_draw(kind, instance, solution, label, f"{label}: {caption}",
                               folder / f"{name}.svg"))
    return drawn, notes


def instance_runs(campaign: StoredCampaign, labels: Sequence[str]
                  ) -> dict[str, tuple[RunRecord | None, RunRecord | None]]:
    """Each instance's first run (None: it has none), and its first run with a solution
    the checker accepted: all a picture or an explanation needs of its runs."""
    if not campaign.read_whole:
        from experiments.analysis.store_tally import instance_runs as stored_runs

        return stored_runs(campaign, labels)
    found: dict[str, tuple[RunRecord | None, RunRecord | None]] = {}
    for label in labels:
        runs = [run for run in campaign.runs if run.identity.instance == label]
        found[label] = (runs[0] if runs else None,
                        next((run for run in runs if run.verdict is Verdict.CORRECT
                              and run.solution is not None), None))
    return found


def _pictures(kind: PuzzleKind[Any, Any], instance: Any,
              found: RunRecord | None) -> list[tuple[str, Any]]:
    """What to draw of one instance, each with its caption: the campaign's answer, then
    the file's known solution where it differs; or what there is."""
    known = kind.known_solution(instance)
    if found is None:
        if known is not None:
            return [("the solution the file gives (no run of the campaign found one)", known)]
        return [("the puzzle (no run of the campaign solved it, and its file gives no "
                 "solution)", None)]
    answer = kind.solution_from_json(found.solution)
    by = found.identity
    if kind.check(instance, answer):  # stored as checked: a changed checker would say so
        raise PuzzleLabError(f"{by.instance}: the stored answer of {by.viewpoint} on "
                             f"{by.solver} no longer passes the puzzle's checker")
    pictures = [(f"the campaign's answer ({by.viewpoint} on {by.solver} with "
                 f"{by.heuristic}; checked)", answer)]
    if known is not None and known != answer:
        pictures.append(("the solution the file gives (the puzzle has another: the "
                         "campaign's differs)", known))
    return pictures


def instance_of_run(campaign: StoredCampaign, kind: PuzzleKind[Any, Any],
              run: RunRecord) -> tuple[Any | None, str]:
    """The instance a run ran on: as the store keeps it, else (a store made before
    instances were kept) from its file; None and why when neither has it."""
    file, name = run.identity.instance_file, run.identity.instance_name
    stored = campaign.instances.get((file, name))
    if stored is not None:
        found = kind.stored_instance(stored.text, name, file)
        if found is not None:
            return found, ""
    path = _instance_path(campaign, file)
    if path is None:
        why = (" (this store was made before stores kept their instances)" if stored is None
               else f", and the store's text of it holds no instance {name!r}")
        return None, f"instance file {file} not found{why}"
    found = _named(kind.read(path), kind, name)
    if found is None:
        return None, f"no instance {name!r} in {file} (the file changed since the run)"
    return found, ""


def _named(instances: Sequence[Any], kind: PuzzleKind[Any, Any], name: str) -> Any | None:
    return next((i for i in instances if kind.instance_name(i) == name), None)


def _instance_path(campaign: StoredCampaign, written: str) -> Path | None:
    """The instance file, relative to the spec as the campaign wrote it, else as given."""
    base = campaign.spec_base()
    for candidate in ([base / written] if base else []) + [Path(written)]:
        if candidate.is_file():
            return candidate
    return None


def _draw(kind: PuzzleKind[Any, Any], instance: Any, solution: Any, label: str,
          caption: str, svg: Path) -> DrawnPuzzle:
    svg.parent.mkdir(parents=True, exist_ok=True)
    text = kind.render_svg(instance, solution)
    svg.write_text(text, encoding="utf-8")
    return DrawnPuzzle(label, caption, svg, text)


def _file_name(label: str) -> str:
    """A label as a file name: letters, digits, dots, dashes and underscores kept."""
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in label)
