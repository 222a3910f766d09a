"""The report's search trees: the trees a campaign recorded, one instance at a time,
side by side (one per viewpoint, heuristic or solver), each with its counts and the
root-propagation profile of its model.

The trees come from the store (:mod:`experiments.campaign.store.trees`). Each caption says
whether the tree's counts are those the tables show for its run (the recording is a
second, deterministic solve of the same cell): failures against backtracks, branches
against branches, solution leaves against solutions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from experiments.campaign.record import RunRecord
from experiments.campaign.store import ResultsStore, StoredTree
from experiments.campaign.stored_campaign import StoredCampaign
from puzzlelab.wording import counted


@dataclass(frozen=True)
class DrawnTree:
    """One tree of the report: its SVG and PDF files, its caption and its root profile."""

    label: str
    caption: str
    svg: Path
    pdf: Path
    svg_text: str
    profile: str
    families: tuple[tuple[str, int, str], ...]  # kind, constraints, values removed


@dataclass(frozen=True)
class TreeGroup:
    """The trees of one instance, side by side."""

    instance: str
    trees: tuple[DrawnTree, ...]


def draw_trees(campaign: StoredCampaign, folder: Path, prefix: str) -> list[TreeGroup]:
    """The campaign's recorded trees, drawn into ``folder`` (none: an empty list)."""
    with ResultsStore.open_existing(campaign.database) as store:
        trees = store.trees()
    if not trees:
        return []
    from experiments.analysis.tree_drawing import write_svg_and_pdf

    if campaign.read_whole:
        runs = {run.identity.key: run for run in campaign.runs}
    else:
        from experiments.analysis.store_tally import runs_by_key

        runs = runs_by_key(campaign, [stored.run_key for stored in trees])
    varying = _varying(trees)
    groups: dict[str, list[DrawnTree]] = {}
    folder.mkdir(parents=True, exist_ok=True)
    for number, stored in enumerate(trees, start=1):
        label = ", ".join(getattr(stored, part) for part in varying) or stored.viewpoint
        stem = f"{prefix}-tree-{number}"
        svg, pdf = folder / f"{stem}.svg", folder / f"{stem}.pdf"
        text = write_svg_and_pdf(stored.tree, svg, pdf, f"{stored.instance}: {label}")
        groups.setdefault(stored.instance, []).append(DrawnTree(
            label, _caption(stored, label, runs.get(stored.run_key)), svg, pdf, text,
            _profile_line(stored.profile), _families(stored.profile)))
    return [TreeGroup(instance, tuple(drawn)) for instance, drawn in groups.items()]


def _varying(trees: Sequence[StoredTree]) -> list[str]:
    """What tells the trees of one instance apart: viewpoint, solver, heuristic."""
    return [part for part in ("viewpoint", "solver", "heuristic")
            if len({getattr(tree, part) for tree in trees}) > 1]


def _caption(stored: StoredTree, label: str, run: RunRecord | None) -> str:
    counts = stored.tree.counts()
    said = (f"{label} ({stored.solver}, {stored.heuristic}): "
            f"{counted(counts['nodes'], 'node')}, {counted(counts['failures'], 'failure')}, "
            f"{counted(counts['solutions'], 'solution')}")
    if stored.tree.truncated:
        return f"{said}; truncated at {stored.tree.cap:,} nodes"
    if counts["open"]:
        said += f", {counted(counts['open'], 'open node')} (the time limit stopped it)"
    if run is None:
        return f"{said}; its run is not in the store"
    figures = run.statistics
    pairs = [("failures", figures.backtracks, "backtracks"),
             ("branches", figures.branches, "branches"),
             ("solutions", figures.solutions, "solutions")]
    differ = [f"{counts[ours]:,} {ours} against {theirs:,} {name}" for ours, theirs, name
              in pairs if theirs is not None and counts[ours] != theirs]
    if differ:
        return f"{said}; differs from its measured run: {'; '.join(differ)}"
    return f"{said}; the counts of its measured run"


def _profile_line(profile: Mapping[str, Any]) -> str:
    """The root in one sentence: what the instance fixed, what propagation fixed."""
    before = profile["fixed_before"]
    fixed = ("the root fails" if profile["fixed"] is None else
             f"{profile['fixed']:,} of {profile['variables']:,} variables fixed before the "
             f"first decision ({before:,} by the instance)")
    return f"root propagation on {profile['backend']}: {fixed}"


def _families(profile: Mapping[str, Any]) -> tuple[tuple[str, int, str], ...]:
    """Each family's values removed alone, then all of them together."""
    rows = [(family["kind"], family["constraints"], family["removed"])
            for family in profile["families"]]
    rows.append(("together", sum(row[1] for row in rows), profile["removed"]))
    return tuple((kind, number, "fails" if removed is None else f"{removed:,}")
                 for kind, number, removed in rows)
