"""The report's figures say what they draw: an effort figure draws one statistic, named
in its title and on its axis, for the solvers it names; a scatter plot's legend hides
none of its points."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from experiments.analysis.report import write_report
from experiments.analysis.report_data import plot_cells
from experiments.analysis.report_effort import effort_plans
from experiments.analysis.report_figures import scatter_figure, scatter_points
from experiments.analysis.tables import CampaignRuns
from experiments.campaign.store import ResultsStore
from experiments.campaign.stored_campaign import read_campaign
from tests.experiments.records import COMPLETE, SUDOKUS, known_store, record_of, session_of, task_of

INSTANCES = ("lambda", "hard17", "coloin")
VIEWPOINTS = ("classic", "channeled")


def two_solver_store(path: Path) -> Path:
    """Every instance and viewpoint on cp (backtracks and branches) and on cpsat
    (branches alone, as CP-SAT reports): the course campaign's mix of solvers."""
    with ResultsStore(path) as store:
        store.start_campaign(session_of("mixed", planned=12))
        position = 0
        for solver in ("cp", "cpsat"):
            for number, instance in enumerate(INSTANCES, start=1):
                for viewpoint in VIEWPOINTS:
                    task = task_of(instance, viewpoint, solver, position=position,
                                   instance_file=SUDOKUS)
                    position += 1
                    store.record_run(record_of(
                        task, solve_s=0.001 * number,
                        backtracks=10 * number if solver == "cp" else None,
                        branches=1000 * number))
    return path


def svg_texts(path: Path) -> list[str]:
    """The texts an SVG figure shows (matplotlib writes them as text elements)."""
    root = ElementTree.parse(path).getroot()
    return [text.strip() for element in root.iter() if element.tag.endswith("text")
            for text in ["".join(element.itertext())] if text.strip()]


def test_each_effort_figure_draws_one_statistic_named_by_its_title_and_axis(
        tmp_path: Path) -> None:
    database = two_solver_store(tmp_path / "mixed" / "runs.sqlite")
    plans = effort_plans(plot_cells(CampaignRuns.of(read_campaign(database)), "viewpoint"))
    assert [(plan.statistic, plan.solvers) for plan in plans.figures] == [
        ("backtracks", ("cp",)), ("branches", ("cpsat",))]
    folder = write_report([database], tmp_path / "out").folder
    markdown = (folder / "report.md").read_text(encoding="utf-8")
    shown = dict(re.findall(r"!\[([^\]]*)\]\(figures/(mixed-effort[^)]*)\.svg\)", markdown))
    by_file = {file: title for title, file in shown.items()}
    assert sorted(by_file) == ["mixed-effort-backtracks", "mixed-effort-branches"]
    for statistic, solver, other in (("backtracks", "cp", "branches"),
                                     ("branches", "cpsat", "backtracks")):
        title = by_file[f"mixed-effort-{statistic}"]
        assert statistic in title.lower() and other not in title.lower()
        assert re.search(rf"\b{solver}\b", title)
        texts = svg_texts(folder / "figures" / f"mixed-effort-{statistic}.svg")
        axis = [text for text in texts if "+ 1" in text]
        assert len(axis) == 1 and statistic in axis[0] and other not in axis[0]
        assert not any(other in text for text in texts)  # no box says another statistic
        assert {text for text in texts if text in VIEWPOINTS} == set(VIEWPOINTS)


def test_one_statistic_for_every_solver_makes_one_effort_figure(tmp_path: Path) -> None:
    path = tmp_path / "cp" / "runs.sqlite"
    with ResultsStore(path) as store:
        store.start_campaign(session_of("cp-only", planned=2))
        for position, viewpoint in enumerate(VIEWPOINTS):
            store.record_run(record_of(task_of("lambda", viewpoint, position=position,
                                               instance_file=SUDOKUS),
                                       solve_s=0.01, backtracks=5, branches=12))
    folder = write_report([path], tmp_path / "out").folder
    efforts = sorted(p.name for p in (folder / "figures").glob("*effort*.svg"))
    assert efforts == ["cp-only-effort.svg"]
    texts = svg_texts(folder / "figures" / efforts[0])
    assert any("backtracks" in text for text in texts)
    assert not any("branches" in text for text in texts)


@pytest.mark.parametrize("count", [3, 40])
def test_the_scatter_legend_lies_outside_the_axes_and_covers_no_point(count: int) -> None:
    """Points everywhere, down to the lower right corner where the legend once sat."""
    from experiments.analysis.report_data import PlotCell

    cells = [PlotCell(group, "", f"i{index}", "cp", None, 0.001 * (index + 1) * factor,
                      {"backtracks": float(index)}, 10.0)
             for index in range(count)
             for group, factor in (("first", 50.0), ("second", 1.0))]
    cells.append(PlotCell("first", "", "late", "cp", "t/o", time_limit=10.0))
    cells.append(PlotCell("second", "", "late", "cp", None, 0.002, {}, 10.0))
    placed = scatter_points(cells, ("first", "second"), "time")
    figure = scatter_figure(placed, ("first", "second"), "time")
    figure.canvas.draw()
    [legend] = figure.legends
    box = legend.get_window_extent()
    [axes] = figure.axes
    assert not box.overlaps(axes.get_window_extent())  # outside the data area
    points = [*placed.both, *(p for where in placed.marks.values() for p in where)]
    shown = axes.transData.transform(points)
    assert not any(box.contains(x, y) for x, y in shown)
    assert {text.get_text() for text in legend.get_texts()} >= {"both solved"}


def test_a_report_written_again_leaves_no_figure_of_the_earlier_one(tmp_path: Path) -> None:
    """A figure the new report does not draw (an earlier version's name, another
    campaign's) and an explanations' page it does not write are taken out; files the
    report does not make stay."""
    database = known_store(tmp_path / "known" / "runs.sqlite", COMPLETE)
    folder = tmp_path / "report"
    first = write_report([database], out=folder)
    figures = folder / "figures"
    stale = [figures / "known-effort-conflicts.svg", figures / "earlier-cactus.pdf",
             folder / "explain.html"]
    for path in stale:
        path.write_text("left by an earlier report", encoding="utf-8")
    (figures / "notes.txt").write_text("mine", encoding="utf-8")
    again = write_report([database], out=folder)
    assert not any(path.exists() for path in stale)
    assert (figures / "notes.txt").is_file()
    assert sorted(again.files) == sorted(first.files) and all(p.is_file() for p in again.files)
