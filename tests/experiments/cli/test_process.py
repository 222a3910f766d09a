"""The ``puzzlelab`` process as a shell sees it: a closed pipe ends a command quietly and
keeps its status, Ctrl-C stops a solve or the start-up with one line, the progress display
shows on a terminal only, the process ends with the command's status and all its output,
and the first automata solve on a machine says that it compiles."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlelab.statistics import run_statistics
from tests.experiments.cli.commands import SMALL_4X4, run_cli
from tests.facts import states
from tests.paths import NONOGRAM_DATA, ROOT
from tests.terminal import cli_on_terminal, read_until


@pytest.mark.parametrize("arguments", [
    ["list"],
    ["solve", "sudoku", SMALL_4X4, "--instance", "1", "--json"],
    ["draw", "sudoku", SMALL_4X4, "--instance", "1"],
])
def test_a_closed_pipe_ends_the_command_quietly_with_status_0(arguments: list[str]) -> None:
    """As ``puzzlelab list | head`` once head has its lines: the reader end is closed
    before the command writes, so every write meets the closed pipe."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        finished = subprocess.run([sys.executable, "-m", "experiments", *arguments], cwd=ROOT,
                                  stdout=writer, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(writer)
    assert (finished.returncode, finished.stderr) == (0, "")


def test_a_closed_pipe_keeps_the_status_of_a_command_that_had_failed() -> None:
    reader, writer = os.pipe()
    os.close(reader)
    try:
        finished = subprocess.run([sys.executable, "-m", "experiments", "solve", "sudoku",
                                   "missing.txt"], cwd=ROOT, stdout=writer,
                                  stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(writer)
    assert finished.returncode == 2 and finished.stderr.count("\n") == 1
    assert finished.stderr.startswith("error:")
    assert states(finished.stderr, "missing.txt", "no such file")


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


@pytest.mark.slow  # compiles numba's kernels from a cold cache (5 s)
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
