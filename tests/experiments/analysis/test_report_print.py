"""Nonogram clues in print: the report page printed to PDF by Chromium on A4, the PDF
read back glyph by glyph. A 99x99 puzzle's clue digits come out at 4 pt or more, and so
does the largest bundled one's (80x95), where digits a fixed share of a roomier layout
printed under 3 pt.

Chromium is found and run by :mod:`tests.browser` (skipped where it is not installed).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from experiments.api import run_experiment
from experiments.generate import generate
from puzzles import PUZZLES
from tests.browser import browser, run_browser
from tests.paths import NONOGRAM_DATA

LEGIBLE_PT = 4.0
"""The least printed height (font size, points) we call legible for a clue digit: small
print. A 99-column grid leaves no more on A4: its columns alone take 99 digits' room."""


def printed_digits(program: str, page: Path, pdf: Path) -> list[float]:
    """The font sizes (points) of every digit on the page as printed on A4."""
    pdfplumber = pytest.importorskip("pdfplumber")
    a4 = page.with_name("a4.html")
    a4.write_text(page.read_text(encoding="utf-8").replace(
        "@media print {", "@page { size: A4; }\n  @media print {", 1), encoding="utf-8")
    run_browser(program, "--no-pdf-header-footer", f"--print-to-pdf={pdf}", a4.as_uri())
    for _ in range(50):  # the file is complete once Chromium has exited
        if pdf.is_file():
            break
        time.sleep(0.1)
    with pdfplumber.open(pdf) as document:
        assert all(round(p.width) == 595 and round(p.height) == 842 for p in document.pages)
        return [char["size"] for p in document.pages for char in p.chars
                if char["text"].isdigit()]


def test_a_99x99_nonograms_clue_digits_print_legibly_on_a4(tmp_path: Path) -> None:
    program = browser()
    [large] = generate("nonogram", {"size": "99x99", "density": 0.75}, seed=7, count=1,
                       output=tmp_path / "generated")
    faase = NONOGRAM_DATA / "webpbn_survey" / "faase.non"
    spec = tmp_path / "print.toml"
    spec.write_text(f'name = "print"\npuzzle = "nonogram"\ninstances = ["{large.path.as_posix()}", '
                    f'"{faase.as_posix()}"]\nviewpoints = ["regular"]\nsolvers = ["cp"]\n'
                    f'heuristics = ["input/min"]\ntime_limit = 1\n', encoding="utf-8")
    done = run_experiment(spec, jobs=1, out=tmp_path / "out")
    sizes = printed_digits(program, done.database.parent / "report" / "index.html",
                           tmp_path / "report.pdf")
    nonogram = PUZZLES.get("nonogram")
    clue_digits = sum(len(str(number)) for instance in (large.instance, *nonogram.read(faase))
                      for clue in (*instance.rows, *instance.columns) for number in clue)
    assert len(sizes) >= clue_digits  # the pictures printed as text, every clue's digits
    assert min(sizes) >= LEGIBLE_PT, sorted(sizes)[:5]
