"""``puzzlelab run`` and ``puzzlelab table`` from the command line: where ``run`` writes
(``runs/<name>/`` in the current folder, ``--out``, ``--results``) and what it says, the
files a finished run leaves, the table of a campaign, and spec errors or a missing
database as one clear line."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.experiments.cli.commands import run_cli
from tests.facts import states
from tests.paths import ROOT
from tests.paths import SUDOKU_DATA as DATA

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


def test_jobs_past_a_few_per_core_are_capped_saying_so(monkeypatch, capsys, write_spec,
                                                       tmp_path) -> None:
    monkeypatch.setattr("experiments.campaign.environment.core_count", lambda: 1)
    spec = write_spec(SPEC.replace("select = [1, 2]", "select = [1, 2, 3, 4, 5, 6]"))
    code, _, err = run_cli(monkeypatch, capsys, "run", str(spec), "--jobs", "64",
                           "--results", str(tmp_path), "--no-progress")
    # 12 runs to make, 4 workers on the one core
    assert code == 0 and states(line_with(err, "--jobs 64"), "4 worker processes", "1 core")


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
    # found once the grid is expanded: still before a word of the run, or its folder
    (('"first-fail"', '"frist-fail"'), ("key 'heuristics[0]'", "'frist-fail'", "first-fail")),
    (("select = [1, 2]", 'select = [1, "nowhere"]'), ("key 'instances[0]'", "'nowhere'")),
    (('solvers = ["cp"]', 'solvers = "cp"'), ("key 'solvers'", 'solvers = ["cp"]')),
    # a typo that would plan more runs than memory holds: the count, and the key
    (("time_limit = 5", "time_limit = 5\nrepeats = 99999999999999999999"),
     ("key 'repeats'", "99,999,999,999,999,999,999")),
    (("time_limit = 5", "time_limit = 5\nrepeats = 100000000"),
     ("key 'repeats'", "100,000,000")),
])
def test_spec_errors_exit_2_with_one_line(monkeypatch, capsys, write_spec, tmp_path, change,
                                          stated) -> None:
    path = write_spec(SPEC.replace(*change))
    code, out, err = run_cli(monkeypatch, capsys, "run", str(path), "--results", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and out == ""
    assert err.startswith(f"error: {path}") and states(err, *stated)
    assert "Traceback" not in err and not (tmp_path / "cli").exists()


def test_a_jobs_no_machine_runs_exits_2_with_one_line(monkeypatch, capsys, write_spec,
                                                      tmp_path) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "run", str(write_spec(SPEC)), "--jobs",
                             "99999999999999999999", "--results", str(tmp_path))
    assert code == 2 and out == "" and err.startswith("error:") and err.count("\n") == 1
    assert states(err, "--jobs 99999999999999999999", "1,024")
    assert not (tmp_path / "cli").exists()


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


#: one run, to see where ``run`` writes and what it says about it
WHERE = """
name = "where"
puzzle = "sudoku"
instances = [{ file = "{data}/small_4x4.txt", select = [1] }]
viewpoints = ["classic"]
solvers = ["cp"]
heuristics = ["input/min"]
"""


def test_run_writes_to_runs_in_the_current_folder_and_says_so(monkeypatch, capsys, write_spec,
                                                             tmp_path: Path) -> None:
    spec = write_spec(WHERE)
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    code, out, _ = run_cli(monkeypatch, capsys, "run", str(spec), "--no-progress", "--jobs", "1")
    assert code == 0
    # said first: the folder, and the files it will hold
    assert states(out.splitlines()[0], f"{Path('runs', 'where')}{os.sep}", "runs.sqlite",
                  "table.md", "table.tex", "runs.csv")
    assert (here / "runs" / "where" / "runs.sqlite").is_file()
    assert sorted(p.name for p in here.iterdir()) == ["runs"]
    code, out, _ = run_cli(monkeypatch, capsys, "run", str(spec), "--no-progress")
    assert code == 0 and states(line_with(out, "this session"), "0 runs", "none", "1 of 1",
                                "stored before")


def test_out_names_the_folder_and_results_the_folder_above(monkeypatch, capsys, write_spec,
                                                           tmp_path: Path) -> None:
    spec = write_spec(WHERE)
    code, out, _ = run_cli(monkeypatch, capsys, "run", str(spec), "--no-progress", "--out",
                           str(tmp_path / "mine"))
    assert code == 0 and states(out.splitlines()[0], f"{tmp_path / 'mine'}{os.sep}")
    assert (tmp_path / "mine" / "runs.sqlite").is_file()
    code, out, _ = run_cli(monkeypatch, capsys, "run", str(spec), "--no-progress",
                           "--results", str(tmp_path / "above"))
    assert code == 0 and (tmp_path / "above" / "where" / "runs.sqlite").is_file()
    code, _, err = run_cli(monkeypatch, capsys, "run", str(spec), "--out", str(tmp_path / "a"),
                           "--results", str(tmp_path / "b"))
    assert code == 2 and states(err, "--out", "--results", "one of them")
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_an_unfinished_campaign_where_campaigns_went_before_is_pointed_at(
        monkeypatch, capsys, write_spec, tmp_path: Path) -> None:
    """Campaigns went to results/<name> by default before: one left unfinished there
    (interrupted, or short of its planned runs) is pointed at; a finished one is a result,
    and the user is not sent to write into results/."""
    spec = write_spec(WHERE.replace("select = [1]", "select = [1, 2]"))
    monkeypatch.chdir(tmp_path)
    former = Path("results", "where")
    code, _, _ = run_cli(monkeypatch, capsys, "run", str(spec), "--no-progress", "--out",
                         str(former))
    assert code == 0

    def note_for(change: str) -> str:
        shutil.rmtree(tmp_path / "runs", ignore_errors=True)  # a new folder: nothing there
        with sqlite3.connect(former / "runs.sqlite") as store:
            store.execute(change)
        store.close()
        code, out, err = run_cli(monkeypatch, capsys, "run", str(spec), "--no-progress")
        assert code == 0 and states(line_with(out, "this session"), "2 runs", "0 of 2")
        return err

    assert "note" not in note_for("UPDATE campaign SET end_state = 'finished'")
    # the store there, and the option that resumes its runs
    for unfinished in ("UPDATE campaign SET end_state = 'interrupted'",
                       "UPDATE campaign SET end_state = NULL",  # killed: it could not say
                       "DELETE FROM runs WHERE id = (SELECT max(id) FROM runs)"):
        err = note_for(unfinished)
        assert err.startswith("note:") and states(err, str(former / "runs.sqlite"),
                                                  f"--out {former}", "resume")
    code, _, err = run_cli(monkeypatch, capsys, "run", str(spec), "--no-progress")
    assert code == 0 and err == ""  # the new folder holds the runs now: nothing to say


def test_the_committed_course_store_is_not_pointed_at(monkeypatch, capsys, write_spec,
                                                      tmp_path: Path) -> None:
    """In a fresh clone results/sudoku-course/runs.sqlite is the committed result: a run
    of an experiment of that name, into the default folder, says nothing of it."""
    committed = ROOT / "results" / "sudoku-course" / "runs.sqlite"
    (tmp_path / "results" / "sudoku-course").mkdir(parents=True)
    shutil.copy2(committed, tmp_path / "results" / "sudoku-course" / "runs.sqlite")
    spec = write_spec(WHERE.replace('name = "where"', 'name = "sudoku-course"'))
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(monkeypatch, capsys, "run", str(spec), "--no-progress")
    assert code == 0 and states(out.splitlines()[0], str(Path("runs", "sudoku-course")))
    assert "results" not in err and "note" not in err


def test_a_finished_run_leaves_only_its_database_and_tables(tmp_path: Path) -> None:
    """SQLite's -wal and -shm files stay behind only when a connection is left open. The
    empty lock file stays: deleting it on release would let two runs lock two files."""
    spec = tmp_path / "mini.toml"
    spec.write_text(f"""
name = "mini"
puzzle = "sudoku"
instances = [{{ file = "{(DATA / 'small_4x4.txt').as_posix()}", select = [1] }}]
viewpoints = ["classic"]
solvers = ["cp"]
heuristics = ["input/min"]
""", encoding="utf-8")
    for command in (["run", str(spec), "--results", str(tmp_path), "--no-progress"],
                    ["table", str(tmp_path / "mini" / "runs.sqlite")]):
        finished = subprocess.run([sys.executable, "-m", "experiments", *command], cwd=ROOT,
                                  capture_output=True, text=True, timeout=120)
        assert finished.returncode == 0, finished.stderr
        assert sorted(p.name for p in (tmp_path / "mini").iterdir()) == [
            "report", "runs.csv", "runs.sqlite", "runs.sqlite.lock", "table.md", "table.tex",
            "workers.log"]


WIDE = """
name = "wide"
puzzle = "sudoku"
instances = [{ file = "{data}/small_4x4.txt", select = [1, 2] }]
viewpoints = [
    { name = "classic", options = { alldiff = "weak" }, label = "classic-weak" },
    { name = "classic", options = { alldiff = "strong" }, label = "classic-strong" },
    { name = "value-position", options = { alldiff = "weak" }, label = "value-position-weak" },
    { name = "value-position", options = { alldiff = "strong" }, label = "value-position-strong" },
    { name = "channeled", options = { alldiff = "weak" }, label = "channeled-weak" },
]
solvers = ["cp"]
heuristics = ["input/min"]
time_limit = 5
table = { report = false }
"""
LABELS = ("classic-weak", "classic-strong", "value-position-weak", "value-position-strong",
          "channeled-weak")


def _printed_tables(out: str, folder: Path) -> list[str]:
    """The lines of ``run``'s output but those naming where its files are."""
    return [line for line in out.splitlines() if str(folder) not in line]


def test_off_a_terminal_run_prints_every_row_within_the_output_width(
        monkeypatch, capsys, write_spec, tmp_path: Path) -> None:
    """Captured output is no terminal: the tables fit COLUMNS, or 100 columns without it,
    each instance's row and each viewpoint in them."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr("experiments.analysis.terminal.terminal_height", lambda: 1000)
    arguments = ("run", str(write_spec(WIDE)), "--jobs", "1", "--results", str(tmp_path),
                 "--no-progress")
    code, out, err = run_cli(monkeypatch, capsys, *arguments)
    assert code == 0, err
    lines = _printed_tables(out, tmp_path)
    assert max(len(line) for line in lines) <= 100
    assert "(part 2 of 2)" in out  # five viewpoints are wider than 100 columns
    assert all(label in out for label in ("small_4x4#1", "small_4x4#2", *LABELS))
    monkeypatch.setenv("COLUMNS", "170")
    code, out, _ = run_cli(monkeypatch, capsys, *arguments)
    lines = _printed_tables(out, tmp_path)
    assert code == 0 and 100 < max(len(line) for line in lines) <= 170
    assert "(part 2 of" not in out and all(label in out for label in LABELS)


def test_off_a_terminal_run_past_a_screenful_says_which_files_hold_every_row(
        monkeypatch, capsys, write_spec, tmp_path: Path) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr("experiments.analysis.terminal.terminal_height", lambda: 10)
    code, out, err = run_cli(monkeypatch, capsys, "run", str(write_spec(WIDE)), "--jobs", "1",
                             "--results", str(tmp_path), "--no-progress")
    assert code == 0, err
    lines = _printed_tables(out, tmp_path)
    assert max(len(line) for line in lines) <= 100
    assert "summary of 2 instances" in out and "small_4x4#1" not in "\n".join(lines)
    # beside the line saying what was written, one saying where every row is
    naming = [line for line in out.splitlines() if str(tmp_path / "wide" / "table.md") in line]
    assert len(naming) == 2 and naming[0] != line_with(out, "wrote")
    assert "small_4x4#1" in (tmp_path / "wide" / "table.md").read_text(encoding="utf-8")
