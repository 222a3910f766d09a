"""The committed results can be tabled and reported as their READMEs show: each campaign
under results/ commits its store, which agrees with its runs.csv and is only read."""

from __future__ import annotations

import csv
import hashlib
import io
from pathlib import Path

import pytest

from experiments.campaign.from_csv import read_runs_csv, store_from_csv
from experiments.campaign.store import runs_as_csv
from experiments.campaign.stored_campaign import read_campaign
from experiments.cli import main
from puzzlelab.errors import PuzzleLabError
from tests.facts import facts, states
from tests.paths import ROOT

RESULTS = ROOT / "results"
SPECS = ROOT / "experiments" / "specs"
CAMPAIGNS = sorted(folder.name for folder in RESULTS.iterdir()
                   if (SPECS / f"{folder.name}.toml").is_file())


def test_every_committed_campaign_commits_its_store() -> None:
    assert CAMPAIGNS and all((RESULTS / name / "runs.sqlite").is_file() for name in CAMPAIGNS)


def comparable(text: str) -> list[dict[str, str]]:
    """The rows of a runs.csv by key, the row id aside (a rebuilt store numbers its rows
    anew), and no violations written as the empty cell older versions wrote."""
    rows = []
    for row in csv.DictReader(io.StringIO(text)):
        row.pop("id")
        row["violations"] = row["violations"] or "null"
        rows.append(row)
    return sorted(rows, key=lambda row: row["run_key"])


@pytest.mark.parametrize("name", CAMPAIGNS)
def test_a_committed_store_tables_as_its_readme_shows_and_agrees_with_its_csv(
        name: str, monkeypatch, capsys) -> None:
    database = RESULTS / name / "runs.sqlite"
    before = hashlib.sha256(database.read_bytes()).hexdigest()
    campaign = read_campaign(database)
    committed = (RESULTS / name / "runs.csv").read_text(encoding="utf-8")
    assert comparable(runs_as_csv(campaign.runs)) == comparable(committed)
    monkeypatch.setattr("sys.argv", ["puzzlelab", "table", str(database), "--width", "0"])
    main()
    shown = capsys.readouterr().out
    assert all(run.identity.instance in shown for run in campaign.runs[:20])
    assert hashlib.sha256(database.read_bytes()).hexdigest() == before
    assert not list(database.parent.glob("runs.sqlite-*"))


@pytest.mark.parametrize("name", ["sudoku-eclipse", "nonogram-hard"])
def test_a_committed_store_reports(name: str, tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.argv", ["puzzlelab", "report", str(RESULTS / name / "runs.sqlite"),
                                     "--out", str(tmp_path)])
    main()
    assert (tmp_path / "index.html").is_file() and (tmp_path / "report.tex").is_file()
    assert states(capsys.readouterr().out, str(tmp_path / "index.html"))  # said what it wrote


@pytest.mark.slow
@pytest.mark.parametrize("name", CAMPAIGNS)
def test_every_committed_store_reports(name: str, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr("sys.argv", ["puzzlelab", "report", str(RESULTS / name / "runs.sqlite"),
                                     "--out", str(tmp_path)])
    main()
    assert (tmp_path / "index.html").is_file()


def test_a_store_rebuilt_from_its_csv_holds_the_same_runs(tmp_path) -> None:
    """A results folder without its store gets it back from runs.csv and the spec."""
    rebuilt = tmp_path / "runs.sqlite"
    csv_path = RESULTS / "sudoku-eclipse" / "runs.csv"
    assert store_from_csv(csv_path, SPECS / "sudoku-eclipse.toml", rebuilt) == len(
        list(read_runs_csv(csv_path)))
    campaign = read_campaign(rebuilt)
    assert comparable(runs_as_csv(campaign.runs)) == comparable(
        csv_path.read_text(encoding="utf-8"))
    assert campaign.session is not None and campaign.session.executor == "rebuilt from runs.csv"
    assert campaign.planned_runs == len(campaign.runs) and len(campaign.instances) > 0


def test_a_rebuild_refuses_runs_made_under_other_limits(tmp_path) -> None:
    rows = list(csv.DictReader(io.StringIO(
        (RESULTS / "sudoku-eclipse" / "runs.csv").read_text(encoding="utf-8"))))
    rows[3]["time_limit"] = "1234.0"
    other = tmp_path / "runs.csv"
    with other.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    # the setting, the value the runs were made under, and the spec that says otherwise
    with pytest.raises(PuzzleLabError, match=facts("time_limit", "1234.0", "sudoku-eclipse.toml")):
        store_from_csv(other, SPECS / "sudoku-eclipse.toml", tmp_path / "x.sqlite")
    assert not (tmp_path / "x.sqlite").exists()


def test_paths_are_what_the_readmes_show() -> None:
    for name in CAMPAIGNS:
        readme = (RESULTS / name / "README.md").read_text(encoding="utf-8")
        for line in readme.splitlines():
            if line.startswith("puzzlelab table "):
                assert Path(line.split()[2]) == Path("results") / name / "runs.sqlite"
