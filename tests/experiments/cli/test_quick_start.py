"""The README's quick start leaves the checkout as it found it.

``puzzlelab run experiments/specs/sudoku-course.toml`` in a fresh checkout must write where
git does not look (``runs/<name>/``, ignored), never over the committed
``results/<name>/`` tables, and never tells the user to write there. The checkout is made
from the working tree's tracked files, so the test judges the code and the ``.gitignore``
about to be committed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.facts import states
from tests.paths import ROOT

SPEC = "experiments/specs/sudoku-course.toml"


def git(folder: Path, *arguments: str) -> str:
    return subprocess.run(["git", *arguments], cwd=folder, check=True, capture_output=True,
                          text=True).stdout


def checkout(tmp_path: Path) -> Path:
    """A git repository holding the tracked files of the working tree, committed."""
    copy = tmp_path / "checkout"
    for name in git(ROOT, "ls-files", "-z").split("\0"):
        source = ROOT / name
        if name and source.is_file():  # a tracked file deleted in the working tree is left out
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    git(copy, "init", "--quiet")
    commit(copy, "the working tree")
    return copy


def commit(folder: Path, message: str) -> None:
    git(folder, "add", "--all")
    git(folder, "-c", "user.name=test", "-c", "user.email=test@example.org", "commit",
        "--quiet", "--message", message)


def quick_start(folder: Path) -> subprocess.CompletedProcess[str]:
    """``puzzlelab run experiments/specs/sudoku-course.toml`` run from the checkout's root, on
    the checkout's code (as ``pip install .`` there would install it)."""
    environment = {**os.environ, "PYTHONPATH": str(folder)}
    return subprocess.run([sys.executable, "-m", "experiments", "run", SPEC, "--no-progress"],
                          cwd=folder, env=environment, capture_output=True, text=True,
                          timeout=900)


def assert_clean_after_quick_start(folder: Path) -> None:
    committed = {name: (folder / "results" / "sudoku-course" / name).read_bytes()
                 for name in ("table.md", "table.tex", "runs.csv")}
    finished = quick_start(folder)
    assert finished.returncode == 0, finished.stderr
    # the committed store is a finished result: no note sends the user to write into it
    assert "results" not in finished.stderr, finished.stderr
    assert git(folder, "status", "--porcelain", "--untracked-files=all") == ""
    assert {name: (folder / "results" / "sudoku-course" / name).read_bytes()
            for name in committed} == committed
    # where, said up front: the first line names the folder
    assert states(finished.stdout.splitlines()[0], "runs/sudoku-course/")
    written = folder / "runs" / "sudoku-course"
    assert {p.name for p in written.iterdir()} >= {"runs.sqlite", "table.md", "table.tex",
                                                  "runs.csv"}


def test_a_small_quick_start_leaves_the_checkout_clean(tmp_path: Path) -> None:
    """The course spec cut to one puzzle, one viewpoint and one repeat (committed in the
    checkout): its tables differ from the committed ones, so a run that wrote over them
    would show in ``git status``."""
    folder = checkout(tmp_path)
    spec = folder / SPEC
    text = spec.read_text(encoding="utf-8")
    small = re.sub(r"select = \[[^\]]*\]", 'select = ["lambda"]', text)
    small = re.sub(r"viewpoints = \[.*?\n\]", 'viewpoints = ["classic"]', small, flags=re.DOTALL)
    small = re.sub(r"repeats = \d+", "repeats = 1", small)
    small = re.sub(r"(?s)\ntrees = \{.*?\}\n", "\n", small)  # no trees of a smaller grid
    assert small.count("lambda") == 1 and "repeats = 1" in small, "the spec's layout changed"
    spec.write_text(small, encoding="utf-8")
    commit(folder, "a smaller course experiment")
    assert_clean_after_quick_start(folder)


@pytest.mark.slow
def test_the_quick_start_leaves_the_checkout_clean(tmp_path: Path) -> None:
    """The README's command as it stands: 1,512 runs, about 15 s on 2 cores."""
    assert_clean_after_quick_start(checkout(tmp_path))
