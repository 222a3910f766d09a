"""A campaign that grows: a spec run again on its store runs only its new cells; what
decides a stored run's meaning cannot change under it; cells taken out stay stored,
hidden unless asked for. Also the store read where it cannot be written."""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from experiments.campaign.runner import CampaignTally, run_campaign
from experiments.campaign.spec import load_spec
from experiments.campaign.stored_campaign import read_campaign
from experiments.campaign.verdicts import Verdict
from experiments.cli import main
from puzzlelab.errors import PuzzleLabError, SpecError
from tests.facts import facts, states

BASE = """
name = "growing"
puzzle = "sudoku"
instances = [{ file = "{data}/small_4x4.txt", select = [1, 2] }]
viewpoints = ["classic"]
solvers = ["cp"]
heuristics = ["input/min"]
time_limit = 10
"""
BASE_CELLS = 2  # 2 instances x 1 viewpoint x 1 solver x 1 heuristic x 1 repeat

GROWTHS = {  # what a user adds, and how many cells the grid then has
    "viewpoint": (('viewpoints = ["classic"]',
                   'viewpoints = ["classic", { name = "channeled", label = "ch" }]'), 4),
    "solver": (('solvers = ["cp"]', 'solvers = ["cp", "cpsat"]'), 4),
    "heuristic": (('heuristics = ["input/min"]', 'heuristics = ["input/min", "first-fail/min"]'),
                  4),
    "instances": (("select = [1, 2]", "select = [1, 2, 3]"), 3),
    "repeats": (("time_limit = 10", "time_limit = 10\nrepeats = 2"), 4),
}


def campaign(write_spec: Callable[..., Path], tmp_path: Path, text: str) -> CampaignTally:
    return run_campaign(load_spec(write_spec(text)), jobs=1, results_root=tmp_path,
                        show_progress=False)


def database(tmp_path: Path) -> Path:
    return tmp_path / "growing" / "runs.sqlite"


@pytest.mark.parametrize("change", sorted(GROWTHS))
def test_a_grown_spec_runs_only_its_new_cells(write_spec, tmp_path, change: str) -> None:
    first = campaign(write_spec, tmp_path, BASE)
    assert first.ran == BASE_CELLS
    before = {run.identity.key: run.finished_at for run in read_campaign(database(tmp_path)).runs}
    (old, new), cells = GROWTHS[change]
    grown = campaign(write_spec, tmp_path, BASE.replace(old, new))
    assert (grown.planned, grown.already_stored, grown.ran) == (cells, BASE_CELLS,
                                                                cells - BASE_CELLS)
    runs = read_campaign(database(tmp_path)).runs
    assert len(runs) == cells and all(run.verdict is Verdict.CORRECT for run in runs)
    kept = {run.identity.key: run.finished_at for run in runs if run.identity.key in before}
    assert kept == before
    assert [run.identity.position for run in runs] == list(range(cells))  # the spec's order


def test_cells_taken_out_stay_stored_and_show_only_when_asked(write_spec, tmp_path) -> None:
    (old, new), _ = GROWTHS["solver"]
    campaign(write_spec, tmp_path, BASE.replace(old, new))
    shrunk = campaign(write_spec, tmp_path, BASE)
    assert (shrunk.planned, shrunk.already_stored, shrunk.ran) == (2, 2, 0)
    assert shrunk.outside_grid == 2
    shown = read_campaign(database(tmp_path))
    assert {run.identity.solver for run in shown.runs} == {"cp"} and shown.outside_grid == 2
    note = shown.hidden_note()
    assert note is not None and states(note, "2 stored runs", "--all-runs")
    every = read_campaign(database(tmp_path), all_runs=True)
    assert {run.identity.solver for run in every.runs} == {"cp", "cpsat"}
    assert every.hidden_note() is None
    from experiments.analysis.report import report_of

    page = (report_of([shown], tmp_path / "report").folder / "index.html").read_text()
    assert states(page, "2 stored runs", "--all-runs")
    regrown = campaign(write_spec, tmp_path, BASE.replace(old, new))
    assert regrown.ran == 0 and len(read_campaign(database(tmp_path)).runs) == 4


@pytest.mark.parametrize(("key", "old", "new"), [
    ("time_limit", "time_limit = 10", "time_limit = 20"),
    ("memory_limit_mb", "time_limit = 10", "time_limit = 10\nmemory_limit_mb = 1000"),
    ("max_solutions", "time_limit = 10", "time_limit = 10\nmax_solutions = 0"),
    ("seed", "time_limit = 10", "time_limit = 10\nseed = 7"),
])
def test_what_a_stored_run_means_cannot_change_under_it(write_spec, tmp_path, key: str,
                                                        old: str, new: str) -> None:
    campaign(write_spec, tmp_path, BASE)
    # the key, the store it would change the meaning of, and the way to start over
    with pytest.raises(SpecError, match=facts(f"key '{key}'", "changed", str(database(tmp_path)),
                                              "--fresh")):
        campaign(write_spec, tmp_path, BASE.replace(old, new))
    assert len(read_campaign(database(tmp_path)).runs) == BASE_CELLS


def test_a_label_cannot_come_to_mean_other_options(write_spec, tmp_path) -> None:
    labelled = BASE.replace('viewpoints = ["classic"]', 'viewpoints = [{ name = "classic", '
                            'options = { alldiff = "weak" }, label = "mine" }]')
    campaign(write_spec, tmp_path, labelled)
    # the item, its label, the options it stood for and stands for now, the ways out
    with pytest.raises(SpecError, match=facts("key 'viewpoints[0]'", "'mine'", "alldiff",
                                              "weak", "strong", "--fresh")):
        campaign(write_spec, tmp_path, labelled.replace('"weak"', '"strong"'))


def test_a_new_name_or_description_reruns_nothing(write_spec, tmp_path) -> None:
    campaign(write_spec, tmp_path, BASE)
    again = run_campaign(load_spec(write_spec(
        BASE.replace('name = "growing"', 'name = "grown"\ndescription = "the same runs"'))),
        jobs=1, out=tmp_path / "growing", show_progress=False)
    assert (again.already_stored, again.ran) == (BASE_CELLS, 0)


def test_the_run_command_says_what_is_stored_and_what_is_new(write_spec, tmp_path, monkeypatch,
                                                               capsys) -> None:
    (old, new), _ = GROWTHS["solver"]
    for text in (BASE, BASE.replace(old, new), BASE):
        spec = write_spec(text)
        monkeypatch.setattr("sys.argv", ["puzzlelab", "run", str(spec), "--results",
                                         str(tmp_path), "--no-progress"])
        main()
    said = capsys.readouterr().out
    # the first run plans nothing stored: no line; then the grown spec, then the shrunk one
    grown, shrunk = [line for line in said.splitlines() if " planned:" in line]
    assert states(grown, "4 runs", "2 stored", "2 new")
    planned, _, kept = shrunk.partition(";")  # and then the runs it keeps but hides
    assert states(planned, "2 runs", "2 stored", "0 new")
    assert states(kept, "2 stored runs", "--all-runs")
    monkeypatch.setattr("sys.argv", ["puzzlelab", "table", str(database(tmp_path)),
                                     "--all-runs", "--by", "solver"])
    main()
    assert "cpsat" in capsys.readouterr().out


def test_a_store_is_read_without_writing_and_left_one_file(write_spec, tmp_path,
                                                           monkeypatch) -> None:
    """A finished campaign leaves no journal beside its store; reading it makes none.
    Where SQLite cannot open it read-only (a WAL store on a read-only mount), it is
    read as immutable rather than called "not a results database"."""
    campaign(write_spec, tmp_path, BASE)
    folder = tmp_path / "growing"
    assert not list(folder.glob("runs.sqlite-*"))
    assert len(read_campaign(database(tmp_path)).runs) == BASE_CELLS
    assert not list(folder.glob("runs.sqlite-*"))
    connect = sqlite3.connect

    def read_only_mount(database: str, *args, **kwargs):  # type: ignore[no-untyped-def]
        if "mode=ro" in str(database):
            raise sqlite3.OperationalError("unable to open database file")
        return connect(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", read_only_mount)
    assert len(read_campaign(database(tmp_path)).runs) == BASE_CELLS


def test_results_that_cannot_be_written_are_one_clear_line(write_spec, tmp_path, monkeypatch,
                                                           capsys) -> None:
    def refuse(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr("filelock.BaseFileLock.acquire", refuse)
    spec = write_spec(BASE)
    monkeypatch.setattr("sys.argv", ["puzzlelab", "run", str(spec), "--out",
                                     str(tmp_path / "ro"), "--no-progress"])
    with pytest.raises(SystemExit) as ended:
        main()
    err = capsys.readouterr().err
    assert ended.value.code == 2 and "Read-only file system" in err and "--out" in err
    assert str(tmp_path / "ro") in err and err.count("\n") == 1


def test_report_out_naming_a_file_is_refused(write_spec, tmp_path, monkeypatch, capsys) -> None:
    campaign(write_spec, tmp_path, BASE)
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    monkeypatch.setattr("sys.argv", ["puzzlelab", "report", str(database(tmp_path)), "--out",
                                     str(tmp_path / "empty.txt")])
    with pytest.raises(SystemExit) as ended:
        main()
    err = capsys.readouterr().err
    assert ended.value.code == 2 and "empty.txt" in err and "is a file" in err
    assert not (tmp_path / "figures").exists()


def test_an_unreadable_file_is_not_a_results_database(tmp_path) -> None:
    junk = tmp_path / "runs.sqlite"
    junk.write_bytes(b"not sqlite at all" * 100)
    with pytest.raises(PuzzleLabError, match=facts(str(junk), "not a results database")):
        read_campaign(junk)


def test_a_store_made_before_the_grid_was_kept_shows_every_run(write_spec, tmp_path) -> None:
    """A store of schema 2 (no grid table) reads as it did: all its runs are the grid's;
    run again, it gains the table and grows like any other."""
    (old, new), _ = GROWTHS["solver"]
    campaign(write_spec, tmp_path, BASE.replace(old, new))
    with sqlite3.connect(database(tmp_path)) as older:
        older.execute("DROP TABLE grid")
        older.execute("PRAGMA user_version=2")
    assert len(read_campaign(database(tmp_path)).runs) == 4
    again = campaign(write_spec, tmp_path, BASE)
    assert (again.ran, again.outside_grid) == (0, 2)
    assert len(read_campaign(database(tmp_path)).runs) == 2


def test_a_changed_setting_is_named_alone_with_its_values(write_spec, tmp_path) -> None:
    """Run from a spec elsewhere (its instance files absolute, so they are the same), a
    changed time limit is refused naming it and its two values, and nothing about where
    the stored runs' spec was or its instance files."""
    campaign(write_spec, tmp_path, BASE)
    moved = write_spec(BASE.replace("time_limit = 10", "time_limit = 20"), name="moved.toml")
    with pytest.raises(SpecError) as refused:
        run_campaign(load_spec(moved), jobs=1, results_root=tmp_path, show_progress=False)
    message = str(refused.value)
    assert states(message, str(moved), "key 'time_limit'", "10", "20", "--fresh")
    assert "instance" not in message and str(tmp_path / "spec.toml") not in message


def _report_error(monkeypatch, capsys, *arguments: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.argv", ["puzzlelab", "report", *arguments])
    with pytest.raises(SystemExit) as ended:
        main()
    captured = capsys.readouterr()
    return int(ended.value.code or 0), captured.out, captured.err


def test_a_report_that_cannot_be_written_says_to_give_out(write_spec, tmp_path, monkeypatch,
                                                          capsys) -> None:
    """Where the report cannot go (a read-only folder; as root, whom chmod does not stop,
    a path under a file, which cannot be a folder either), one line says where and to
    give --out another folder, with exit status 2, before any figure is drawn."""
    campaign(write_spec, tmp_path, BASE)
    folder = tmp_path / "growing"
    if os.geteuid() == 0:
        (tmp_path / "plain.txt").write_text("", encoding="utf-8")
        arguments = [str(database(tmp_path)), "--out", str(tmp_path / "plain.txt" / "report")]
        refused = tmp_path / "plain.txt" / "report"
    else:
        arguments, refused = [str(database(tmp_path))], folder / "report"
        folder.chmod(0o555)
    try:
        code, out, err = _report_error(monkeypatch, capsys, *arguments)
    finally:
        folder.chmod(0o755)
    assert code == 2 and out == "" and err.startswith("error:") and err.count("\n") == 1
    assert states(err, str(refused), "--out")
    assert not (folder / "report").exists()
