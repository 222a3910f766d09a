"""``puzzlelab run`` and ``puzzlelab table`` from the command line."""

from __future__ import annotations

import sqlite3

import pytest

from tests.experiments.test_cli import run_cli
from tests.facts import states

SPEC = """
name = "cli"
puzzle = "sudoku"
instances = [{ file = "{data}/small_4x4.txt", select = [1, 2] }]
viewpoints = ["classic", "value-position"]
solvers = ["cp"]
heuristics = ["first-fail"]
time_limit = 5
"""


def line_with(text: str, marker: str) -> str:
    """The one line of ``text`` holding ``marker``: a line ``run`` says, whose facts are
    then asserted rather than its wording."""
    [line] = [line for line in text.splitlines() if marker in line]
    return line


def test_more_jobs_than_cores_is_warned_about(monkeypatch, capsys, write_spec,
                                             tmp_path) -> None:
    monkeypatch.setattr("experiments.campaign.environment.core_count", lambda: 1)
    code, _, err = run_cli(monkeypatch, capsys, "run", str(write_spec(SPEC)), "--jobs", "2",
                           "--results", str(tmp_path), "--no-progress")
    assert code == 0 and states(line_with(err, "warning"), "--jobs 2", "1 core")
    code, _, err = run_cli(monkeypatch, capsys, "run", str(write_spec(SPEC)), "--jobs", "1",
                           "--results", str(tmp_path), "--no-progress")
    assert code == 0 and "warning" not in err


def test_run_prints_the_table_and_writes_its_files(monkeypatch, capsys, write_spec,
                                                   tmp_path) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "run", str(write_spec(SPEC)), "--jobs", "1",
                             "--results", str(tmp_path), "--no-progress")
    assert code == 0, err
    assert states(line_with(out, "this session"), "4 runs", "4 solved", "0 of 4",
                  "stored before")
    assert "solver cp · heuristic first-fail" in out and "value-position" in out
    assert {p.name for p in (tmp_path / "cli").iterdir()} >= {"runs.sqlite", "table.md",
                                                             "table.tex", "runs.csv"}
    code, out, _ = run_cli(monkeypatch, capsys, "run", str(write_spec(SPEC)), "--results",
                           str(tmp_path), "--no-progress")
    assert states(line_with(out, "this session"), "0 runs", "none", "4 of 4", "stored before")
    code, out, _ = run_cli(monkeypatch, capsys, "table", str(tmp_path / "cli" / "runs.sqlite"),
                           "--metrics", "branches", "--format", "csv", "--by", "viewpoint")
    assert code == 0  # the CSV header is what a user's script reads: compared whole
    assert out.splitlines()[0] == ("table,instance,classic branches,"
                                   "value-position branches")
    _, reached, _ = run_cli(monkeypatch, capsys, "table", str(tmp_path / "cli" / "runs.sqlite"),
                            "--metrics", "branches", "--format", "csv", "--reached")
    assert reached == out  # finished runs read the same with --reached


@pytest.mark.parametrize(("change", "stated"), [
    (('"value-position"', '"diagonal"'), ("key 'viewpoints[1]'", "'diagonal'", "classic")),
    (("small_4x4.txt", "gone.txt"), ("key 'instances[0]'", "gone.txt", "not found")),
    (("time_limit = 5", "time_limit = "), ("TOML",)),
])
def test_spec_errors_exit_2_with_one_line(monkeypatch, capsys, write_spec, tmp_path, change,
                                          stated) -> None:
    path = write_spec(SPEC.replace(*change))
    code, _, err = run_cli(monkeypatch, capsys, "run", str(path), "--results", str(tmp_path))
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"error: {path}") and states(err, *stated)
    assert "Traceback" not in err and not (tmp_path / "cli").exists()


def test_table_of_a_missing_database_is_a_clear_error(monkeypatch, capsys, tmp_path) -> None:
    code, _, err = run_cli(monkeypatch, capsys, "table", str(tmp_path / "none.sqlite"))
    assert code == 2 and states(err, str(tmp_path / "none.sqlite"), "no such results database")


def test_table_of_an_interrupted_campaign_marks_cells_missing_repeats(
        monkeypatch, capsys, write_spec, tmp_path) -> None:
    spec = write_spec(SPEC.replace("time_limit = 5", "time_limit = 5\nrepeats = 3"))
    code, _, err = run_cli(monkeypatch, capsys, "run", str(spec), "--results", str(tmp_path),
                           "--no-progress")
    assert code == 0, err
    database = tmp_path / "cli" / "runs.sqlite"
    with sqlite3.connect(database) as connection:  # as if stopped after its first run
        connection.execute("DELETE FROM runs WHERE instance = 'small_4x4#2' AND "
                           "viewpoint = 'classic' AND repeat > 0")
    connection.close()
    _, out, _ = run_cli(monkeypatch, capsys, "table", str(database), "--format", "markdown")
    note, blank, heading = out.splitlines()[:3]  # a Markdown quote before the first table
    assert note.startswith("> ") and states(note, "partial", "10 of 12", "run the spec again")
    assert blank == "" and heading.startswith("### solver cp")
    cells = {line.split("|")[1].strip(): [cell.strip() for cell in line.split("|")[2:-1]]
             for line in out.splitlines() if line.startswith("| ")}
    assert cells["small_4x4#2"][:2] == ["· (1/3)", "· (1/3)"]
    assert "·" not in "".join(cells["small_4x4#1"])
    assert cells["solved"] == ["1/2", "", "2/2", ""]
    _, out, _ = run_cli(monkeypatch, capsys, "table", str(database), "--format", "csv")
    assert ",small_4x4#2,,," in out  # no figure yet
