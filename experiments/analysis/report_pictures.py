"""The report's pictures of solved instances, drawn by each puzzle's own SVG renderer.

The store keeps a run's solution as JSON, and a puzzle offers no way back from JSON,
so the picture shows the solution the instance file ships with, checked by the
puzzle's checker; an instance without one is solved again with the puzzle's default
viewpoint, solver and heuristic (a few seconds at most), and drawn unsolved if that
finds nothing in time, which the caption then says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from experiments.analysis.report_data import CampaignData
from experiments.campaign.grid import key_instance
from experiments.solving import solve_instance
from puzzlelab.errors import PuzzleLabError
from puzzles import PUZZLES
from viewpoints import DEFAULTS

SHOWN_BY_DEFAULT = 3
"""Instances drawn when ``--instances`` names none: the campaign's first ones."""
SOLVE_SECONDS = 10.0
"""The time a picture's solution may take when the file gives none."""


@dataclass(frozen=True)
class DrawnPuzzle:
    """One instance's picture: where its SVG file is, and its text for the page."""

    instance: str
    caption: str
    svg: Path
    svg_text: str


def chosen_instances(campaign: CampaignData, named: Sequence[str]) -> list[str]:
    """The instance labels to draw: those ``named`` (each must be in the campaign), else
    the first few in grid order."""
    labels = list(dict.fromkeys(str(row["instance"]) for row in
                                sorted(campaign.rows, key=lambda r: int(r["position"]))))
    if not named:
        return labels[:SHOWN_BY_DEFAULT]
    unknown = [name for name in named if name not in labels]
    if unknown:
        raise PuzzleLabError(f"{campaign.database}: no instance {unknown[0]!r} in campaign "
                             f"{campaign.name}; its instances: {', '.join(labels[:20])}"
                             + (", ..." if len(labels) > 20 else ""))
    return list(named)


def draw_puzzles(campaign: CampaignData, named: Sequence[str], folder: Path,
                 prefix: str) -> tuple[list[DrawnPuzzle], list[str]]:
    """The pictures of the chosen instances, and a note for each one that could not be
    drawn (its file moved away, say): a report is still worth having without it."""
    puzzle = campaign.puzzle
    if puzzle is None or puzzle not in PUZZLES.names():
        return [], [f"no pictures: the campaign's puzzle ({puzzle}) is not a known puzzle"]
    kind = PUZZLES.get(puzzle)
    drawn, notes = [], []
    for label in chosen_instances(campaign, named):
        row = next(r for r in campaign.rows if str(r["instance"]) == label)
        path = _instance_path(campaign, str(row["instance_file"]))
        if path is None:
            notes.append(f"{label}: instance file {row['instance_file']} not found")
            continue
        name = key_instance(str(row["run_key"]))
        instance = _instance(kind, path, name)
        if instance is None:
            notes.append(f"{label}: no instance {name!r} in {row['instance_file']} (the file "
                         f"changed since the run)")
            continue
        solution, how = _solution(kind, puzzle, instance)
        folder.mkdir(parents=True, exist_ok=True)
        svg = folder / f"{prefix}-{_file_name(label)}.svg"
        text = kind.render_svg(instance, solution)
        svg.write_text(text, encoding="utf-8")
        drawn.append(DrawnPuzzle(label, f"{label}: {how}", svg, text))
    return drawn, notes


def _instance_path(campaign: CampaignData, written: str) -> Path | None:
    """The instance file, relative to the spec as the campaign wrote it, else as given."""
    base = campaign.spec_base()
    for candidate in ([base / written] if base else []) + [Path(written)]:
        if candidate.is_file():
            return candidate
    return None


def _instance(kind: Any, path: Path, name: str) -> Any | None:
    """The instance of the file that the puzzle names ``name``: the name a run's key holds
    (its label may be a title or the end of a path instead)."""
    return next((instance for instance in kind.read(path) if kind.instance_name(instance) == name),
                None)


def _solution(kind: Any, puzzle: str, instance: Any) -> tuple[Any | None, str]:
    """A checked solution of ``instance`` and where it comes from."""
    known = kind.known_solution(instance)
    if known is not None:
        return known, "the solution the file gives (checked)"
    if puzzle not in DEFAULTS:
        return None, "the puzzle (no known solution, and no default viewpoint to solve it)"
    defaults = DEFAULTS.get(puzzle)
    run = solve_instance(puzzle, instance, defaults.viewpoint, defaults.solver,
                         defaults.heuristic, defaults.options, time_limit=SOLVE_SECONDS)
    if run.solution is not None and run.correct:
        return run.solution, f"solved again by {defaults.describe()} (checked)"
    return None, f"the puzzle ({defaults.describe()} found no solution in {SOLVE_SECONDS:g} s)"


def _file_name(label: str) -> str:
    """A label as a file name: letters, digits, dots, dashes and underscores kept."""
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in label)
