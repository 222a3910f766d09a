"""The ``puzzlelab`` command line: solve, list, JSON output and clear errors."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import experiments.campaign.solving
from experiments import cli
from experiments.campaign.solving import default_heuristic
from experiments.campaign.verdicts import FALSE_UNSATISFIABLE, REJECTED
from experiments.cli import main
from puzzlelab.statistics import run_statistics
from solvers import Status, solve
from tests.facts import states
from tests.paths import NONOGRAM_DATA, ROOT
from tests.paths import SUDOKU_DATA as DATA
from tests.terminal import cli_on_terminal, read_until
from viewpoints import get_viewpoint


def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
            *arguments: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.argv", ["puzzlelab", *arguments])
    code = 0
    try:
        main()
    except SystemExit as finished:
        code = finished.code if isinstance(finished.code, int) else int(bool(finished.code))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_solve_json(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku", str(DATA / "kul_named_9x9.txt"),
                           "--instance", "lambda", "--viewpoint", "channeled", "--solver", "cp",
                           "--heuristic", "first-fail", "-o", "alldiff=strong", "--json")
    assert code == 0
    result = json.loads(out)
    assert {"puzzle", "instance", "viewpoint", "solver", "heuristic", "status", "solution",
            "statistics", "violations"} <= set(result)
    assert result["status"] == "solved" and result["violations"] == []
    assert result["instance"] == "lambda" and result["options"]["alldiff"] == "strong"
    assert result["solution"][0] == [1, 8, 4, 9, 6, 3, 7, 2, 5]
    assert list(result["statistics"]) == [s.name for s in run_statistics()]  # the declaration's
    assert result["statistics"]["conflicts"] is None


def test_solve_says_which_search_answered_a_symmetric_run(monkeypatch, capsys) -> None:
    plus = str(NONOGRAM_DATA / "small" / "plus_3x3.non")
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "nonogram", plus, "--heuristic",
                           "auto+symmetric", "--json")
    result = json.loads(out)
    assert code == 0 and result["violations"] == [] and result["heuristic"] == "auto+symmetric"
    assert result["symmetric"]["answered_by"] == "symmetric solutions"
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "nonogram", plus, "--heuristic",
                           "auto+symmetric")
    assert code == 0 and "answered by" in out and "symmetric solutions" in out
    code, _, err = run_cli(monkeypatch, capsys, "solve", "nonogram", plus, "--heuristic",
                           "auto+symmetric", "--all")
    assert code != 0 and "leave out +symmetric" in err and "Traceback" not in err


def test_counting_with_the_default_heuristic_leaves_symmetric_search_out(monkeypatch,
                                                                        capsys) -> None:
    two = str(NONOGRAM_DATA / "small" / "two_solutions_2x2.non")
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "nonogram", two, "--all", "--json")
    result = json.loads(out)
    assert code == 0 and result["heuristic"] == "auto" and result["complete"]
    assert result["statistics"]["solutions"] == 2
    # a default with +symmetric (which looks for one solution) keeps it for one solution
    # and drops it for counting, rather than refusing as a named one is
    assert default_heuristic("auto+symmetric", 1) == "auto+symmetric"
    assert default_heuristic("first-fail/min+symmetric", 0) == "first-fail/min"


def test_solve_all_counts_solutions(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku", str(DATA / "multi_4x4.txt"),
                           "--instance", "2", "--solver", "cp", "--heuristic", "input",
                           "--all", "--json")
    result = json.loads(out)
    assert code == 0 and result["statistics"]["solutions"] == 12 and result["complete"]


def test_solve_prints_grid_and_statistics(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku", str(DATA / "small_4x4.txt"),
                           "--instance", "1")
    assert code == 0
    assert "correct" in out and "backtracks" in out and "2 4 | 1 3" in out


def test_list_shows_the_registries(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "list")
    assert code == 0
    for word in ("sudoku", "classic", "value-position", "channeled", "boolean", "alldiff",
                 "cp", "cpsat", "python-constraint", "first-fail/min", "dom-deg/max"):
        assert word in out
    assert "``" not in out  # docstring markup is shown as plain text


@pytest.mark.parametrize("arguments", [[], ["--help"], ["-h"]])
def test_help_lists_every_command_with_its_summary(monkeypatch, capsys,
                                                   arguments: list[str]) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, *arguments)
    assert code == 0
    for name, command in cli.COMMANDS.items():
        assert f"  {name}  " in out or f"  {name} " in out
        assert command.help.split(". ")[0].rstrip(".") in out


def test_version_and_a_command_help(monkeypatch, capsys) -> None:
    import puzzlelab

    code, out, _ = run_cli(monkeypatch, capsys, "--version")
    assert code == 0 and out.strip() == f"puzzlelab {puzzlelab.__version__}"
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "--help")
    assert code == 0 and "--max-solutions" in out and "PUZZLE" in out
    code, out, _ = run_cli(monkeypatch, capsys, "generate", "--help")
    assert code == 0 and "--clues" in out  # the generator options, made for --help only


#: solve the first small 4x4 Sudoku; the cases below add the options under test
SMALL = ["solve", "sudoku", str(DATA / "small_4x4.txt"), "--instance", "1"]


@pytest.mark.parametrize(("arguments", "stated"), [
    (["solve", "sudoku", "missing.txt"], ("missing.txt", "no such file")),
    (["solve", "sudoku", str(DATA / "kul_named_9x9.txt"), "--instance", "nope"],
     ("kul_named_9x9.txt", "'nope'", "lambda", "hard17")),  # the names there are
    (["solve", "chess", str(DATA / "small_4x4.txt")], ("puzzle", "'chess'", "nonogram", "sudoku")),
    ([*SMALL, "--viewpoint", "x"], ("sudoku viewpoint", "'x'", "classic", "channeled")),
    ([*SMALL, "--solver", "z3"], ("solver", "'z3'", "cp", "cpsat")),
    ([*SMALL, "--viewpoint", ""], ("sudoku viewpoint", "''", "classic")),
    ([*SMALL, "--solver", ""], ("solver", "''", "cp")),
    ([*SMALL, "--heuristic", "first-fail/"], ("value order", "''", "min", "max")),
    ([*SMALL, "-o", "alldiff=best"], ("alldiff", "'best'", "weak", "strong")),
    ([*SMALL, "-o", "alldiff"], ("'alldiff'", "NAME=VALUE")),
    ([*SMALL, "-o", "alldiff=weak", "-o", "alldiff = strong"],
     ("'alldiff'", "twice", "alldiff=weak", "alldiff=strong")),
    ([*SMALL, "--heuristic", "+symmetric"],
     ("'+symmetric'", "'first-fail+symmetric'", "'auto+symmetric'")),
    ([*SMALL, "--solver", "python-constraint", "-o", "alldiff=strong"],
     ("python-constraint", "strong", "alldiff=weak")),
    ([*SMALL, "--bogus"], ("unrecognized", "--bogus")),
    (["nosuch"], ("command", "'nosuch'", "solve", "run")),
    (["solve", "sudoku"], ("required", "FILE")),
    (["generate", "nonogram", "--count", "x"], ("--count", "int", "'x'")),
    ([*SMALL, "--time-limit", "-1"], ("time limit", "positive", "-1.0")),
    ([*SMALL, "--time-limit", "nan"], ("time limit", "positive", "nan")),
    ([*SMALL, "--max-solutions", "-3"], ("--max-solutions", "at least 0", "-3")),
    ([*SMALL, "--all", "--max-solutions", "2"], ("--all", "leave out --max-solutions")),
    (["run", str(ROOT / "experiments" / "specs" / "sudoku-course.toml"), "--jobs", "0"],
     ("--jobs", "at least 1", "0")),
])
def test_errors_are_one_clear_line(monkeypatch, capsys, arguments: list[str],
                                   stated: tuple[str, ...]) -> None:
    code, _, err = run_cli(monkeypatch, capsys, *arguments)
    assert code == 2 and "Traceback" not in err
    [error] = [line for line in err.splitlines() if line.startswith("error:")]
    assert states(error, *stated), error  # what was given, and what is valid or to do


def test_a_path_that_cannot_be_a_folder_is_one_clear_line(monkeypatch, capsys,
                                                          tmp_path: Path) -> None:
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    code, _, err = run_cli(monkeypatch, capsys, "generate", "nonogram", "--output", str(a_file))
    assert code == 2 and states(err, f"--output {a_file}", "folder")
    code, _, err = run_cli(monkeypatch, capsys, "run",
                           str(ROOT / "experiments" / "specs" / "sudoku-course.toml"), "--results",
                           str(a_file))
    assert code == 2 and states(err, str(a_file / "sudoku-course"), "Not a directory")
    assert "Traceback" not in err


def test_a_scheduler_that_is_no_address_is_one_clear_line(monkeypatch, capsys,
                                                          tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed")
    code, _, err = run_cli(monkeypatch, capsys, "run",
                           str(ROOT / "experiments" / "specs" / "sudoku-course.toml"), "--results",
                           str(tmp_path), "--executor", "dask", "--scheduler", "nonsense",
                           "--no-progress")
    assert code == 2 and states(err, "Dask scheduler", "nonsense")
    assert "Traceback" not in err


def test_max_solutions_zero_counts_every_solution_as_all_does(monkeypatch, capsys) -> None:
    arguments = ["solve", "sudoku", str(DATA / "multi_4x4.txt"), "--instance", "2", "--solver",
                 "cpsat", "--json"]
    counted = [json.loads(run_cli(monkeypatch, capsys, *arguments, *extra)[1])
               for extra in (["--max-solutions", "0"], ["--all"])]
    assert [c["statistics"]["solutions"] for c in counted] == [12, 12]
    assert all(c["complete"] and c["status"] == "solved" for c in counted)


def test_bad_file_error_names_file_and_line(monkeypatch, capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("1...........4...\n1.a.........4...\n")
    code, _, err = run_cli(monkeypatch, capsys, "solve", "sudoku", str(bad), "--instance", "2")
    assert code == 2
    assert f"{bad}:2:3" in err.replace("\n", "")


@pytest.mark.parametrize(("solver", "as_json"), [("cp", False), ("cpsat", True)])
def test_ctrl_c_stops_a_long_solve_shown_on_a_terminal(solver: str, as_json: bool) -> None:
    """Faase keeps both searches busy for minutes. On a terminal the search shows that it
    runs and how to stop it; Ctrl-C must end it at once, say so, and print the figures
    so far, as a timeout does. The signal is sent once the display says the search
    itself has started (the model built)."""
    faase = NONOGRAM_DATA / "webpbn_survey" / "faase.non"
    with cli_on_terminal("solve", "nonogram", str(faase), "--solver", solver,
                         *(["--json"] if as_json else []),
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)
                         ) as (process, terminal):  # SIGINT as in a terminal
        shown = read_until(terminal, b"(Ctrl-C stops)", seconds=60)
        assert f"solving faase.non: regular on {solver}".encode() in shown
        shown += read_until(terminal, b"searching faase.non", seconds=60)
        assert b"searching faase.non" in shown
        process.send_signal(signal.SIGINT)
        try:
            out, _ = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            pytest.fail(f"{solver} ignored Ctrl-C")
        shown += read_until(terminal, b"interrupted", seconds=5)
    assert process.returncode == 130
    assert shown.rstrip().endswith(b"interrupted") and b"Traceback" not in shown
    if as_json:  # one object: the status and the declared figures so far
        record = json.loads(out)
        assert record["status"] == "interrupted" and record["complete"] is False
        figures = record["statistics"]
        assert figures["solutions"] == 0 and figures["branches"] is not None
        assert list(record["statistics"]) == [s.name for s in run_statistics()]
    else:
        lines = {line.split()[0]: line.split()[-1] for line in out.decode().splitlines()
                 if line.strip()}
        assert b"status: interrupted" in out
        assert lines["solutions"] == "0" and lines["backtracks"].isdigit()
        assert lines["branches"].isdigit() and float(lines["solve_s"]) > 0


def test_solve_shows_no_progress_off_a_terminal(monkeypatch, capsys) -> None:
    """Pipes and --json get the result alone: the progress display is for terminals."""
    code, out, err = run_cli(monkeypatch, capsys, "solve", "nonogram",
                             str(NONOGRAM_DATA / "webpbn_survey" / "webpbn-00001.non"), "--json")
    assert code == 0 and json.loads(out)["violations"] == [] and err == ""


@pytest.mark.parametrize("after_module", ["", "argparse", "solvers.capabilities"])
def test_ctrl_c_while_starting_up_is_no_traceback(after_module: str) -> None:
    """A Ctrl-C during the imports gets the same one line as during a command.

    ``-X importtime`` reports each import as it finishes, so the signal is sent at a
    known point: just after the first import of the command line (``""``), during the
    command line's own imports (``argparse``), or during those of the command, which it
    makes once it runs (``solvers.capabilities``). A fixed delay could land, on a
    loaded machine, in the interpreter's own start-up, before any PuzzleLab code runs.
    """
    process = subprocess.Popen(
        [sys.executable, "-X", "importtime", "-m", "experiments", "list"], cwd=ROOT,
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as in a terminal
    assert process.stderr is not None
    seen_package = False
    for line in process.stderr:
        module = line.rsplit("|", 1)[-1].strip()
        if seen_package and module == (after_module or module):
            break
        seen_package = seen_package or module == "experiments"
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    # CPython 3.11 may end the process by SIGINT itself after the message, when the
    # interrupt passed through an exec() (dataclasses, typing); a shell shows 130 either way
    assert process.returncode in (130, -signal.SIGINT)
    messages = [line for line in err.splitlines() if not line.startswith("import time:")]
    assert messages == ["interrupted"] and out == ""


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


@pytest.mark.parametrize("status", ["unsatisfiable", "solved"])
def test_solve_exits_1_on_a_wrong_answer(monkeypatch, capsys, status: str) -> None:
    def wrong(*args, **kwargs):
        result = solve(*args, **kwargs)
        if status == "unsatisfiable":
            return replace(result, status=Status.UNSATISFIABLE, assignment=None)
        return replace(result, assignment={variable: 0 for variable in result.assignment})

    monkeypatch.setattr(experiments.campaign.solving, "solve_model", wrong)
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku", str(DATA / "kul_named_9x9.txt"),
                           "--instance", "lambda", "--json")
    result = json.loads(out)
    assert code == 1 and result["status"] == "error"
    message = result["message"]  # a rejection: the checker's list of what is broken follows
    assert message == FALSE_UNSATISFIABLE if status == "unsatisfiable" else (
        message.startswith(REJECTED) and message != REJECTED)


def test_running_out_of_memory_is_one_clear_line(monkeypatch, capsys) -> None:
    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(experiments.campaign.solving, "solve_model", exhausted)
    code, out, err = run_cli(monkeypatch, capsys, *SMALL)
    assert code == 1 and out == "" and "Traceback" not in err
    assert err.startswith("error:") and "out of memory" in err


def test_a_refused_model_is_one_clear_line_even_with_json(monkeypatch, capsys) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "solve", "nonogram",
                             str(NONOGRAM_DATA / "webpbn_survey" / "faase.non"),
                             "--viewpoint", "line-table", "--json")
    assert code == 2 and out == "" and "Traceback" not in err
    limit = get_viewpoint("nonogram", "line-table").options["max_placements"].default
    assert err.startswith("error:") and err.count("\n") == 1  # the line, its size, the option
    assert states(err, "line-table", "row 3", "clue 3,5,4,2", "766,480",
                  f"max_placements={limit:,}")


def test_study_lists_the_studies_and_runs_one_by_name(monkeypatch, capsys) -> None:
    from experiments.studies import STUDIES

    code, out, _ = run_cli(monkeypatch, capsys, "study")
    assert code == 0 and all(name in out for name in STUDIES.names())
    code, _, err = run_cli(monkeypatch, capsys, "study", "nowhere")
    assert code == 2 and states(err, "study", "'nowhere'", "shikaku-levels")
    code, out, _ = run_cli(monkeypatch, capsys, "study", "shikaku-levels", "--help")
    assert code == 0 and "--channel" in out  # the study's own arguments


def test_every_study_has_a_main_taking_its_arguments() -> None:
    import importlib
    import inspect

    from experiments.studies import STUDIES

    for name in STUDIES.names():
        main = importlib.import_module(STUDIES.get(name).module).main
        assert list(inspect.signature(main).parameters) == ["argv"], name


def test_the_first_automata_solve_on_a_machine_says_it_compiles(tmp_path: Path) -> None:
    """A fresh kernel cache: the first solve says beforehand that it compiles, and for
    about how long; the next one, which loads the kernels, says nothing."""
    plus = str(NONOGRAM_DATA / "small" / "plus_3x3.non")
    environment = {**os.environ, "PUZZLELAB_CACHE_DIR": str(tmp_path)}
    environment.pop("NUMBA_CACHE_DIR", None)
    said = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-m", "experiments", "solve", "nonogram", plus,
                               "--solver", "automata", "--json"], cwd=ROOT, env=environment,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and json.loads(done.stdout)["violations"] == []
        said.append(done.stderr)
    assert "compiling the automata engine" in said[0] and " s " in said[0]
    assert said[1] == ""


def test_the_process_ends_with_the_commands_status_and_all_its_output(tmp_path: Path) -> None:
    """The command line ends its process without the interpreter's teardown: the status
    and everything written must still come out, and a profiler still gets its figures."""
    def command(*arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, *arguments], cwd=ROOT, capture_output=True,
                              text=True, timeout=120)

    listed = command("-m", "experiments", "list")
    assert listed.returncode == 0 and "sudoku" in listed.stdout
    assert listed.stdout.endswith("\n") and listed.stderr == ""
    missing = command("-m", "experiments", "solve", "sudoku", str(tmp_path / "none.txt"))
    assert missing.returncode == 2 and "none.txt" in missing.stderr
    profile = tmp_path / "list.prof"
    profiled = command("-m", "cProfile", "-o", str(profile), "-m", "experiments", "--version")
    assert profiled.returncode == 0 and profile.stat().st_size > 0
