"""Work done in a forked child (:mod:`experiments.analysis.forked_work`): its result or its
error is the one the work gives in place, and the report drawn with its figures in
children is the same, file for file, as the one drawn in place."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from experiments.analysis import forked_work
from experiments.analysis.forked_work import run_forked
from experiments.analysis.report import write_report
from puzzlelab.errors import PuzzleLabError
from tests.experiments.records import COMPLETE, known_store
from tests.paths import ROOT


def run_python(script: str) -> subprocess.CompletedProcess[str]:
    """``script`` in a fresh interpreter, which has one thread: forking is allowed there
    (a test process of pytest-xdist has more, so it does the work in place)."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def fail() -> int:
    raise PuzzleLabError("no such store")


def test_in_place_the_result_and_the_error_are_the_work_s(monkeypatch) -> None:
    monkeypatch.setattr(forked_work, "can_fork", lambda: False)
    assert run_forked(lambda: 6 * 7).result() == 42
    with pytest.raises(PuzzleLabError, match="no such store"):
        run_forked(fail).result()


FORKS = sys.platform == "linux" and len(forked_work.os.sched_getaffinity(0)) > 1
"""Whether a process of one thread does its work in a forked child on this machine."""


@pytest.mark.skipif(not FORKS, reason="work is forked only on Linux with two cores or more")
def test_a_forked_child_answers_with_its_result_its_error_or_its_death() -> None:
    done = run_python("""
        import os
        from experiments.analysis.forked_work import run_forked, can_fork
        from puzzlelab.errors import PuzzleLabError

        assert can_fork()
        print(run_forked(os.getpid).result() != os.getpid())

        def fail():
            raise PuzzleLabError("no such store")

        try:
            run_forked(fail).result()
        except PuzzleLabError as error:
            print("raised:", error)
        try:
            run_forked(lambda: os._exit(3)).result()
        except RuntimeError as error:
            print("died:", error)
        """)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "True"  # another process did the work
    assert lines[1] == "raised: no such store"
    assert lines[2].startswith("died:") and "exit status 3" in lines[2]


def test_the_report_with_figures_drawn_in_children_is_the_report_drawn_in_place(
        tmp_path: Path, monkeypatch) -> None:
    store = known_store(tmp_path / "runs.sqlite", COMPLETE)
    monkeypatch.setattr(forked_work, "can_fork", lambda: False)
    write_report([store], tmp_path / "in-place")
    done = run_python(f"""
        from experiments.analysis.forked_work import can_fork
        from experiments.analysis.report import write_report

        print(can_fork())
        write_report([{str(store)!r}], {str(tmp_path / "forked")!r})
        """)
    assert done.returncode == 0, done.stderr
    forked = done.stdout.split()[0] == "True"
    files = sorted(p.relative_to(tmp_path / "in-place")
                   for p in (tmp_path / "in-place").rglob("*") if p.is_file())
    assert any(p.suffix == ".pdf" for p in files) and any(p.suffix == ".svg" for p in files)
    assert files == sorted(p.relative_to(tmp_path / "forked")
                           for p in (tmp_path / "forked").rglob("*") if p.is_file())
    for name in files:
        assert (tmp_path / "forked" / name).read_bytes() == \
            (tmp_path / "in-place" / name).read_bytes(), name
    assert forked == FORKS


@pytest.mark.skipif(not FORKS, reason="work is forked only on Linux with two cores or more")
def test_a_result_never_asked_for_leaves_no_child_behind() -> None:
    done = run_python("""
        import gc, os, time
        from experiments.analysis.forked_work import run_forked

        pending = run_forked(lambda: time.sleep(60) or "x" * 200_000)  # more than a pipe holds
        del pending
        gc.collect()
        try:
            os.waitpid(-1, os.WNOHANG)
            print("a child is left")
        except ChildProcessError:  # none: stopped and reaped
            print("gone")
        """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["gone"]
