"""A solved run and a stored campaign display themselves in a notebook: a run as its
solved grid beside how it ended and its statistics, a campaign as what it is, how its
runs ended and its first runs with the figures its tables measure."""

from __future__ import annotations

import base64
import xml.etree.ElementTree as ElementTree
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from experiments.api import read_campaign, solve
from experiments.campaign.solving import PuzzleRun
from experiments.campaign.stored_campaign import RUNS_SHOWN
from puzzles import PUZZLES
from tests.experiments.records import COMPLETE, known_store, wide_runs
from tests.facts import states
from tests.paths import SUDOKU_DATA

SUDOKU = PUZZLES.get("sudoku")
FOUR = SUDOKU.load(SUDOKU_DATA / "small_4x4.txt", 1)
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def run() -> PuzzleRun:
    return solve(FOUR, solver="cp", heuristic="first-fail/min")


def shown(html: str | None) -> ElementTree.Element:
    """The display parsed (it must be well-formed), under one root."""
    assert html is not None
    return ElementTree.fromstring(f"<div>{html}</div>")


def rows(root: ElementTree.Element) -> list[list[str]]:
    """The texts of every table row's data cells, tables in order."""
    return [["".join(cell.itertext()) for cell in row if cell.tag == "td"]
            for row in root.iter("tr") if any(cell.tag == "td" for cell in row)]


def facts(root: ElementTree.Element) -> dict[str, str]:
    """The two-cell rows (fact, value) of the display's tables."""
    return {row[0]: row[1] for row in rows(root) if len(row) == 2}


def pictures(root: ElementTree.Element) -> list[ElementTree.Element]:
    """The SVG pictures the display holds as images."""
    return [ElementTree.fromstring(base64.b64decode(image.get("src", "").split(",", 1)[1]))
            for image in root.iter("img")]


def digits(picture: ElementTree.Element) -> Counter[str]:
    return Counter(text.text or "" for text in picture.iter(f"{SVG}text"))


def test_a_run_shows_its_solved_grid_how_it_ended_and_its_statistics(run: PuzzleRun) -> None:
    root = shown(run._repr_html_())
    [picture] = pictures(root)
    assert digits(picture) == Counter(str(d) for row in run.solution.grid for d in row)
    stated = facts(root)
    assert stated["status"] == run.status.value == "solved"
    assert stated["verdict"] == run.verdict.value == "correct"
    assert stated["viewpoint"] == run.identity.viewpoint and stated["solver"] == "cp"
    figures = {row[0]: row[1] for row in rows(root) if len(row) == 3}
    assert figures["backtracks"] == str(run.statistics.backtracks)
    assert figures["solutions"] == "1" and figures["branches"] == str(run.statistics.branches)


def test_a_run_that_found_nothing_shows_the_puzzle(run: PuzzleRun) -> None:
    root = shown(replace(run, solution=None, violations=None)._repr_html_())
    [picture] = pictures(root)
    assert digits(picture) == Counter(str(d) for row in FOUR.givens for d in row if d)


def test_a_wrong_answer_shows_the_rules_it_breaks(run: PuzzleRun) -> None:
    broken = ("row 1 has 1 2 times (columns 1, 2)",)
    stated = facts(shown(replace(run, violations=broken)._repr_html_()))
    assert stated["rules broken"] == broken[0]


def test_a_run_whose_picture_fails_warns_and_leaves_the_text_repr(run: PuzzleRun) -> None:
    with pytest.warns(RuntimeWarning, match="PuzzleRun"):
        assert replace(run, instance="not a sudoku")._repr_html_() is None
    assert repr(run).startswith("PuzzleRun(")


def test_a_campaign_shows_its_runs_and_how_they_ended(tmp_path: Path) -> None:
    campaign = read_campaign(known_store(tmp_path / "runs.sqlite", COMPLETE))
    root = shown(campaign._repr_html_())
    stated = facts(root)
    assert states(stated["runs"], f"{len(COMPLETE)} stored", f"{len(COMPLETE)} planned")
    assert states(stated["how they ended"], "5 solved", "1 timeout")
    assert stated["puzzle"] == "sudoku"
    listed = [row for row in rows(root) if len(row) > 2]
    assert [(row[0], row[1]) for row in listed] == [(instance, viewpoint) for instance,
                                                    viewpoint, *_ in COMPLETE]
    headers = ["".join(cell.itertext()) for cell in root.iter("th")]
    backtracks = headers.index("backtracks")
    assert [row[backtracks] for row in listed] == [str(run[4]) for run in COMPLETE]


def test_a_large_campaign_lists_its_first_runs_and_says_how_to_see_them_all(
        tmp_path: Path) -> None:
    runs = wide_runs()
    assert len(runs) > RUNS_SHOWN
    html = read_campaign(known_store(tmp_path / "runs.sqlite", runs))._repr_html_()
    listed = [row for row in rows(shown(html)) if len(row) > 2]
    assert len(listed) == RUNS_SHOWN
    assert "result_tables" in (html or "") and str(len(runs)) in (html or "")


def test_a_stored_run_shows_how_it_ended_and_its_statistics(tmp_path: Path) -> None:
    """A run read back from a store (``read_runs``, a campaign's ``runs``): the same facts
    as a solve shows, and the runner's figures."""
    campaign = read_campaign(known_store(tmp_path / "runs.sqlite", COMPLETE))
    stored = next(run for run in campaign.runs if run.status.value == "timeout")
    root = shown(stored._repr_html_())
    stated = facts(root)
    assert (stated["status"], stated["solver"]) == ("timeout", stored.identity.solver)
    assert stated["puzzle"] == f"sudoku {stored.identity.instance}"
    assert stated["campaign"] == campaign.name and "rules broken" not in stated
    figures = {row[0]: row[1] for row in rows(root) if len(row) == 3}
    assert figures["backtracks"] == str(stored.statistics.backtracks)


def test_a_campaign_read_without_its_runs_shows_its_first_runs_from_the_store(
        tmp_path: Path) -> None:
    """``table`` and ``report`` read a large store without its runs: shown, it lists the
    same first runs as read whole, and says it did not count how they ended."""
    from experiments.campaign.stored_campaign import read_header

    database = known_store(tmp_path / "runs.sqlite", wide_runs())
    whole, header = read_campaign(database), read_header(database)
    assert not header.runs and header.stored_runs == len(whole.runs)
    listed = [row for row in rows(shown(header._repr_html_())) if len(row) > 2]
    assert listed == [row for row in rows(shown(whole._repr_html_())) if len(row) > 2]
    stated = facts(shown(header._repr_html_()))
    assert states(stated["runs"], f"{len(whole.runs)} stored")
    assert states(stated["how they ended"], "without its runs")
