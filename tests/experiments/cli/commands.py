"""What the command-line tests share: ``puzzlelab`` run inside the test's own process
(its status, standard output and standard error), the small Sudoku files they solve and
draw, and the texts of a picture a command drew."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from experiments.cli import main
from tests.paths import SUDOKU_DATA

SMALL_4X4 = str(SUDOKU_DATA / "small_4x4.txt")  # with known solutions (a companion file)
MULTI_4X4 = str(SUDOKU_DATA / "multi_4x4.txt")  # without; four instances, the second has 12


def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
            *arguments: str) -> tuple[int, str, str]:
    """Run ``puzzlelab`` with these arguments in this process: its exit status, then what it
    wrote to standard output and to standard error."""
    monkeypatch.setattr("sys.argv", ["puzzlelab", *arguments])
    code = 0
    try:
        main()
    except SystemExit as finished:
        code = finished.code if isinstance(finished.code, int) else int(bool(finished.code))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def svg_texts(path: Path) -> list[str]:
    """The texts of an SVG picture (digits and clues), in document order."""
    return [node.text or "" for node in ElementTree.parse(path).iter()
            if node.tag.endswith("text")]
