"""``table.md`` and ``table.tex`` split a wide table by column group, as the report does:
each Markdown part's lines fit 100 columns, each LaTeX part the width of a page."""

from __future__ import annotations

import subprocess
from pathlib import Path

from experiments.analysis.outputs import write_outputs
from tests.experiments.analysis.test_report_latex import pdflatex
from tests.experiments.records import known_store, wide_runs

INSTANCES = ("lambda", "hard17", "coloin")


def markdown_tables(text: str) -> list[list[list[str]]]:
    """Each Markdown table of ``text``: its rows, each a list of cells (rule row left out)."""
    tables: list[list[list[str]]] = []
    previous = ""
    for line in text.splitlines():
        if line.startswith("|"):
            if not previous.startswith("|"):
                tables.append([])
            if not line.startswith("|---"):
                tables[-1].append([cell.strip() for cell in line.strip("|").split("|")])
        previous = line
    return tables


def padded_width(rows: list[list[str]]) -> int:
    """Characters across the table's lines with each column padded to its widest cell."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return sum(widths) + 3 * len(widths) + 1


def test_table_md_splits_a_wide_table_into_parts_of_100_columns(tmp_path: Path) -> None:
    database = known_store(tmp_path / "wide" / "runs.sqlite", wide_runs(), table='table = '
                           '{ report = false }')
    write_outputs(database)
    text = (tmp_path / "wide" / "table.md").read_text(encoding="utf-8")
    tables = markdown_tables(text)
    assert len(tables) > 1 and "(part 2 of" in text
    assert all(padded_width(rows) <= 100 for rows in tables), [padded_width(t) for t in tables]
    # every part keeps every row, and the parts hold every column once, in order
    assert all([row[0] for row in rows[1:len(INSTANCES) + 1]] == list(INSTANCES)
               for rows in tables)
    headers = [header for rows in tables for header in rows[0][1:]]
    viewpoints = list(dict.fromkeys(header.rsplit(" ", 2)[0] for header in headers
                                    if header.endswith("(ms)")))
    assert len(viewpoints) == 6
    assert headers == [f"{viewpoint} {measure}" for viewpoint in viewpoints
                       for measure in ("time (ms)", "backtracks")]


def test_table_tex_splits_a_wide_table_to_fit_a_page(tmp_path: Path) -> None:
    """TeX says "Overfull \\hbox" of a table wider than the text."""
    program = pdflatex()
    database = known_store(tmp_path / "wide" / "runs.sqlite", wide_runs(), table='table = '
                           '{ report = false }')
    write_outputs(database)
    latex = (tmp_path / "wide" / "table.tex").read_text(encoding="utf-8")
    assert latex.count(r"\begin{tabular}") > 1 and "(part 2 of" in latex
    (tmp_path / "wide" / "paper.tex").write_text(
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs}\n"
        "\\begin{document}\n\\input{table}\n\\end{document}\n", encoding="utf-8")
    done = subprocess.run([program, "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
                          cwd=tmp_path / "wide", capture_output=True, text=True, timeout=300,
                          check=False)
    log = (tmp_path / "wide" / "paper.log").read_text(encoding="utf-8", errors="replace")
    assert done.returncode == 0, log[-3000:]
    assert "Overfull \\hbox" not in log
