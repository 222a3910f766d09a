"""``puzzlelab table A B``: campaigns side by side, with ratios to the first, and text that
fits the width asked for."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.campaign.store import ResultsStore
from experiments.campaign.stored_campaign import read_campaigns
from puzzlelab.errors import PuzzleLabError
from tests.experiments.cli.commands import run_cli
from tests.experiments.records import record_of, session_of, small_store, task_of
from tests.facts import states


@pytest.fixture
def two_stores(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "before" / "grid").mkdir(parents=True)
    (tmp_path / "after" / "grid").mkdir(parents=True)
    before = small_store(tmp_path / "before" / "grid" / "runs.sqlite", "grid",
                         {"lambda": 0.004, "hard17": 0.010, "coloin": None})
    after = small_store(tmp_path / "after" / "grid" / "runs.sqlite", "grid",
                        {"lambda": 0.002, "hard17": 0.015, "coloin": 0.020})
    return before, after


def test_two_stores_side_by_side_have_ratio_columns(monkeypatch, capsys,
                                                    two_stores: tuple[Path, Path]) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "table", *map(str, two_stores),
                             "--format", "csv")
    assert code == 0, err
    lines = out.splitlines()
    # both campaigns are called "grid": their folders tell them apart (in the CSV header,
    # which a user's script reads: compared whole)
    assert lines[0] == ("table,instance,before/grid: classic time (ms),before/grid: classic "
                        "backtracks,after/grid: classic time (ms),after/grid: classic time "
                        "ratio,after/grid: classic backtracks,after/grid: classic "
                        "backtracks ratio")
    rows = {line.split(",")[1]: line.split(",")[2:] for line in lines[1:]}
    assert rows["lambda"] == ["4.0", "4", "2.0", "0.50", "2", "0.50"]
    assert rows["hard17"] == ["10.0", "10", "15.0", "1.50", "15", "1.50"]
    assert rows["coloin"] == ["t/o", "t/o", "20.0", "", "20", ""]
    assert rows["total (2 solved by all)"] == ["14.0", "14", "17.0", "1.21", "17", "1.21"]
    # PAR-2: before (4 + 10 + 2 x 10,000) / 3, after (2 + 15 + 20) / 3
    assert rows["PAR-2 (3 instances)"] == ["6671.3", "", "12.3", "0.0018", "", ""]


def test_text_of_two_stores_fits_the_width_asked_for(monkeypatch, capsys,
                                                     two_stores: tuple[Path, Path]) -> None:
    _, wide, _ = run_cli(monkeypatch, capsys, "table", *map(str, two_stores), "--width", "0")
    assert "(part 1 of" not in wide and max(map(len, wide.splitlines())) > 60
    _, narrow, _ = run_cli(monkeypatch, capsys, "table", *map(str, two_stores), "--width",
                           "60")
    # groups, then columns, split into parts: each titled with its table and its part
    titles = [line for line in narrow.splitlines() if line.startswith("solver cp")]
    assert len(titles) == 3 and all(states(title, "heuristic input/min", f"part {part} of 3")
                                    for part, title in enumerate(titles, start=1))
    assert max(map(len, narrow.splitlines())) <= 60
    # the ratios are to the first campaign, named
    assert states(" ".join(narrow.split()), "Ratio", "÷", "first campaign's (before/grid)")


def test_the_same_store_twice_is_refused(monkeypatch, capsys,
                                         two_stores: tuple[Path, Path]) -> None:
    code, _, err = run_cli(monkeypatch, capsys, "table", str(two_stores[0]),
                           str(two_stores[0]))
    assert code == 2 and states(err, str(two_stores[0]), "same results database", "twice")
    with pytest.raises(PuzzleLabError):
        read_campaigns([two_stores[1], two_stores[1].parent / ".." / "grid" / "runs.sqlite"])


def test_campaigns_with_their_own_names_keep_them(tmp_path: Path) -> None:
    first = small_store(tmp_path / "a.sqlite", "course-2024", {"lambda": 0.004})
    second = small_store(tmp_path / "b.sqlite", "course-2025", {"lambda": 0.002})
    assert [c.name for c in read_campaigns([first, second])] == ["course-2024", "course-2025"]


def test_a_store_is_tabled_as_its_spec_says_unless_told(monkeypatch, capsys,
                                                         tmp_path: Path) -> None:
    """``puzzlelab table DB`` groups and measures as the campaign's spec ``table`` key
    says, as ``run`` wrote it and ``report`` shows it; the options override it."""
    database = tmp_path / "runs.sqlite"
    with ResultsStore(database) as store:
        store.start_campaign(session_of("grouped", spec_text='name = "grouped"\ntable = { '
                                        'by = "heuristic", metrics = ["branches"] }\n'))
        for position, heuristic in enumerate(("input/min", "first-fail/min")):
            store.record_run(record_of(task_of("lambda", heuristic=heuristic,
                                               position=position), branches=7 + position))
    _, own, _ = run_cli(monkeypatch, capsys, "table", str(database), "--format", "csv")
    # the CSV headers say the grouping and the metrics: compared whole, as a script reads them
    assert own.splitlines()[0] == ("table,instance,input/min branches,"
                                   "first-fail/min branches")
    assert own.splitlines()[1].split(",")[2:] == ["7", "8"]
    _, told, _ = run_cli(monkeypatch, capsys, "table", str(database), "--format", "csv",
                         "--by", "viewpoint", "--metrics", "time")
    assert told.splitlines()[0] == "table,instance,classic time (ms)"
