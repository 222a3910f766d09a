"""results/hashi-connectivity states only figures its runs.csv gives: improvements.md is
made again byte for byte, the README's solved table is the one the study prints, and
every figure the study prints is in the README's prose."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from experiments.studies import hashi_connectivity as study
from experiments.studies.kit import Row
from tests.paths import ROOT

FOLDER = ROOT / "results" / "hashi-connectivity"
README = FOLDER / "README.md"


@pytest.fixture(scope="module")
def rows() -> list[Row]:
    return study.read_runs(FOLDER / "runs.csv")


def table_block(text: str) -> str:
    """The README's solved table: its lines from the ``| solver · order`` header on."""
    lines = text.splitlines()
    start = lines.index(next(line for line in lines if line.startswith("| solver · order |")))
    end = next(i for i in range(start, len(lines) + 1)
               if i == len(lines) or not lines[i].startswith("|"))
    return "\n".join(lines[start:end]) + "\n"


def missing(figures: Sequence[tuple[str, str]], text: str) -> list[str]:
    """The figures whose value is not in ``text`` (line breaks read as spaces), a number
    not matching inside a longer one."""
    flat = " ".join(text.split())
    return [f"{label}: {value}" for label, value in figures
            if not re.search(r"(?<![\d.,])" + re.escape(value) + r"(?!\d|[.,]\d)", flat)]


def test_the_study_writes_improvements_md_again_byte_for_byte(tmp_path: Path, capsys) -> None:
    code = study.main(["--from", str(FOLDER / "runs.csv"), "--output", str(tmp_path)])
    printed = capsys.readouterr().out
    assert code == 0
    assert (tmp_path / "improvements.md").read_bytes() == (FOLDER / "improvements.md").read_bytes()
    assert study.solved_table(study.read_runs(FOLDER / "runs.csv")) in printed


def test_the_readme_solved_table_is_the_one_the_study_prints(rows: list[Row]) -> None:
    assert table_block(README.read_text(encoding="utf-8")) == study.solved_table(rows)


def test_every_figure_the_study_prints_is_in_the_readme(rows: list[Row]) -> None:
    figures = study.figures(rows)
    assert len(figures) >= 50
    assert missing(figures, README.read_text(encoding="utf-8")) == []


def test_a_changed_readme_figure_is_caught(rows: list[Row]) -> None:
    text = README.read_text(encoding="utf-8")
    for old, new in (("29 three to nine", "23 three to nine"), ("1,713", "1,712"),
                     ("0.4-24 ms", "0.5-24 ms"), ("62,612 → 15,252", "62,612 → 15,253")):
        assert old in " ".join(text.split())
        assert missing(study.figures(rows), text.replace(old, new)) != []
    changed = text.replace("| cp · auto | 34 → 37 |", "| cp · auto | 34 → 38 |")
    assert table_block(changed) != study.solved_table(rows)
