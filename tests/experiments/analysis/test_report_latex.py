"""``report.tex`` compiles: ``\\input`` from a small document loading booktabs and graphicx,
as its own header says, pdflatex turns it into a PDF with every figure and table and no
error, even where names hold LaTeX's special characters.

pdflatex is Debian's ``texlive-latex-base`` with ``texlive-latex-recommended`` (for
booktabs; ``.ci/run`` installs them when missing); where it is not installed the test is
skipped, saying so.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from experiments.analysis.report import write_report
from experiments.campaign.store import ResultsStore
from tests.experiments.analysis.pages import FIGURES
from tests.experiments.records import (
    COMPLETE,
    SUDOKUS,
    known_store,
    record_of,
    task_of,
    wide_runs,
)

DOCUMENT = r"""\documentclass{article}
\usepackage[T1]{fontenc}
\usepackage{booktabs,graphicx}
\graphicspath{{report/}}
\begin{document}
\input{report/report}
\end{document}
"""


def pdflatex() -> str:
    """The pdflatex program, or skip the test saying why there is none."""
    found = shutil.which("pdflatex")
    if not found:
        pytest.skip("pdflatex is not installed (Debian packages texlive-latex-base and "
                    "texlive-latex-recommended; .ci/run installs them): report.tex cannot "
                    "be compiled here")
    return found


def compiled(program: str, database: Path, folder: Path) -> str:
    """The log of compiling the report of ``database`` as ``folder/paper.tex`` inputs it."""
    write_report([database], out=folder / "report")
    (folder / "paper.tex").write_text(DOCUMENT, encoding="utf-8")
    done = subprocess.run([program, "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
                          cwd=folder, capture_output=True, text=True, timeout=300,
                          check=False, env={**os.environ, "max_print_line": "100000"})
    log = (folder / "paper.log").read_text(encoding="utf-8", errors="replace")
    assert done.returncode == 0, log[-3000:]
    return log


def test_report_tex_compiles_into_a_pdf_with_its_figures_and_tables(tmp_path: Path) -> None:
    program = pdflatex()
    name = "odd_name & 100% #1"
    database = known_store(tmp_path / "known" / "runs.sqlite", COMPLETE, name=name)
    log = compiled(program, database, tmp_path / "paper")
    assert (tmp_path / "paper" / "paper.pdf").stat().st_size > 10_000
    # every figure's PDF was read (the log names each file it included) ...
    included = set(re.findall(r"<[^<>]*/figures/([^/<>,]+\.pdf)", log))
    assert len(included) == len(FIGURES), included
    assert all(any(name.endswith(f"-{figure}.pdf") for name in included) for figure in FIGURES)
    # ... and nothing was missing or undefined
    assert "LaTeX Warning: File" not in log and "undefined" not in log
    assert "Missing character" not in log


def test_a_wide_table_and_its_footnotes_fit_the_page(tmp_path: Path) -> None:
    """Six viewpoints with long figures go on in parts no wider than the text (TeX says
    "Overfull \\hbox" of a wider one), and a refusal's footnote number compiles."""
    program = pdflatex()
    database = known_store(tmp_path / "wide" / "runs.sqlite", wide_runs())
    with ResultsStore(database) as store:
        store.record_run(record_of(task_of("lambda", "refusing", instance_file=SUDOKUS),
                                   "refused", message="too big: 10^9 placements"))
    log = compiled(program, database, tmp_path / "paper")
    assert "Overfull \\hbox" not in log
    latex = (tmp_path / "paper" / "report" / "report.tex").read_text(encoding="utf-8")
    assert r"n/a\textsuperscript{1}" in latex and "(part 2 of" in latex
