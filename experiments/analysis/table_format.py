"""The tables as text, Markdown, LaTeX (booktabs) or CSV, and the marks their cells use.

A table is already made of strings (:class:`ResultTable`); this module only lays it
out. The text layout fits a width: column groups that would pass it go on to a
second part of the table, under the same instance column, rather than running
off a laptop's terminal. The marks a cell may show instead of a figure are
declared once, in ``MARKS``, which is also the legend printed under every table.
In a notebook a table shows itself as the report's page lays it out (the template
``results_table.html.j2`` that both use), or as Markdown.
"""

from __future__ import annotations

import csv
import functools
import io
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from experiments.analysis.table_layout import Block, Layout, lay_out, named_header, whole_width
from puzzlelab.errors import OptionError
from puzzlelab.notebook import display_method, escaped

if TYPE_CHECKING:
    import jinja2

TEMPLATES = Path(__file__).resolve().parent / "templates"
"""The report's templates, among them the HTML table a notebook shows too."""

FORMATS = ("text", "markdown", "latex", "csv")

TIMEOUT, MEMORY_OUT, REFUSED, FAILED, WRONG = "t/o", "m/o", "n/a", "err", "WRONG"
UNPLANNED, MISSING, NOT_REPORTED = "–", "·", "n/r"
MARKS = {
    TIMEOUT: "time limit",
    MEMORY_OUT: "memory limit",
    REFUSED: "model refused (past a size option of the viewpoint)",
    FAILED: "run failed (solver error, crash)",
    WRONG: "wrong answer (a solution the checker rejects, or \"unsatisfiable\" where the "
           "file or another run has a solution)",
    UNPLANNED: "no run planned",
    MISSING: "not stored yet",
    "(k/n)": "k of the cell's n repeats",
    NOT_REPORTED: "a figure the solver does not report",
    "≥N": "count reached when a limit stopped the run (--reached)",
}
"""Every mark a cell may show instead of a figure, and what it means: the legend."""

SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
"""A mark's footnote number (``n/a¹``): the note under the table says why."""


def footnote(number: int) -> str:
    """``number`` in superscript digits: ``footnote(12)`` is ``¹²``."""
    return "".join(SUPERSCRIPT_DIGITS[int(digit)] for digit in str(number))


def without_footnote(text: str) -> str:
    """A cell's text with its footnote number taken out: ``n/a¹ (1/3)`` is ``n/a (1/3)``."""
    return "".join(char for char in text if char not in SUPERSCRIPT_DIGITS)


def mark_meaning(text: str) -> str | None:
    """What a cell's mark means (None for a figure): ``t/o (1/3)`` is a time limit, and
    ``n/a¹`` a refusal (its number points to the note under the table)."""
    text = without_footnote(text)
    for mark, meaning in MARKS.items():
        if mark not in ("(k/n)", "≥N") and (text == mark or text.startswith(f"{mark} (")):
            return meaning
    return "count reached when a limit stopped the run" if text.startswith("≥") else None


DEFAULT_NOTE_WIDTH = 100
"""Where notes and legends wrap in text when no width is given."""


@dataclass(frozen=True)
class Metric:
    """A table column: which run field, scaled how, under which header."""

    name: str
    header: str
    column: str
    scale: float = 1.0
    integer: bool = False


@dataclass(frozen=True)
class ColumnGroup:
    """The columns under one group label (a viewpoint, a solver, a heuristic)."""

    label: str
    headers: tuple[str, ...]


@dataclass(frozen=True)
class ResultTable:
    """One table, every cell a string, ready to lay out."""

    title: str
    groups: tuple[ColumnGroup, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]
    """(label, cells in column order): the instance rows, then the summary rows."""
    instance_count: int
    notes: tuple[str, ...] = ()
    """Paragraphs printed under the table: why cells show marks, what the virtual best
    achieves, the legend."""
    footnotes: Mapping[tuple[str, int], int] = field(default_factory=dict)
    """The note number of a marked cell, by instance row label and column: shown after
    its mark (``n/a¹``), kept out of ``rows`` so a cell's text is its mark alone."""

    @display_method
    def _repr_html_(self) -> str:
        """The table as the report's page lays it out (a mark's meaning on hover), under
        its title, with its notes."""
        shown = with_footnotes(self)
        table = _html_template().module.results_table(shown)  # type: ignore[attr-defined]
        notes = "".join(f"<p><small>{escaped(note)}</small></p>" for note in shown.notes)
        return (f"<p><strong>{escaped(shown.title)}</strong></p>\n"
                f'<div style="overflow-x:auto">{table}</div>\n{notes}')

    @display_method
    def _repr_markdown_(self) -> str:
        """The table as ``puzzlelab table --format markdown`` prints it."""
        return render([self], "markdown")


def with_footnotes(table: ResultTable) -> ResultTable:
    """``table`` as it is shown: each noted cell's number after its mark (``n/a¹``,
    ``err² (1/3)``)."""
    if not table.footnotes:
        return table
    rows = tuple((label, tuple(_noted(text, table.footnotes.get((label, column)))
                               for column, text in enumerate(cells)) if index <
                  table.instance_count else cells)
                 for index, (label, cells) in enumerate(table.rows))
    return replace(table, rows=rows, footnotes={})


def _noted(text: str, number: int | None) -> str:
    if number is None:
        return text
    mark, _, rest = text.partition(" ")
    return f"{mark}{footnote(number)}" + (f" {rest}" if rest else "")


def summary_of(table: ResultTable) -> ResultTable:
    """``table`` without its instance rows: the summary rows alone, for a terminal that a
    campaign of thousands of instances would fill (the files keep every row)."""
    if not table.instance_count:
        return table
    counted = f"{table.instance_count} instance{'s' if table.instance_count != 1 else ''}"
    return replace(table, title=f"{table.title} (summary of {counted})",
                   rows=table.rows[table.instance_count:], instance_count=0)


def legend() -> str:
    """Every mark and its meaning, in one paragraph."""
    return "Marks: " + "; ".join(f"{mark} {meaning}" for mark, meaning in MARKS.items()) + "."


PRINTED_CHARACTERS = {"markdown": 100, "latex": 88}
"""The widest table part of a file meant for print: a Markdown table's lines, each column
padded to its widest cell (an editor's or a terminal's 100 columns); a LaTeX table in
characters of the text layout, set in :data:`LATEX_SMALL` type in an article's text
width (345 pt: at 4 pt a digit, the widest, and 6 pt between columns, 88 characters of
the text layout fit a table of seven columns of digits). Wider tables go on in further
parts, by column group."""
LATEX_SMALL = r"\scriptsize\setlength{\tabcolsep}{3pt}"
"""The type LaTeX tables are set in: small, the column gaps narrowed."""


def printed(tables: Sequence[ResultTable], fmt: str) -> str:
    """The tables in ``markdown`` or ``latex`` as a page prints them: each split by
    column group into parts that fit :data:`PRINTED_CHARACTERS` (``table.md``,
    ``table.tex`` and the report's files alike); LaTeX in :data:`LATEX_SMALL` type, so
    ``\\input{table.tex}`` fits an article's page."""
    text = render(tables, fmt, PRINTED_CHARACTERS[fmt])
    return f"{{{LATEX_SMALL}\n{text}}}\n" if fmt == "latex" else text


def render(tables: Sequence[ResultTable], fmt: str = "text", width: int | None = None) -> str:
    """The tables as ``text``, ``markdown``, ``latex`` or ``csv``; with ``width``, the
    first three split into parts of at most ``width`` characters (:func:`column_parts`:
    a Markdown or LaTeX table wider than its page is cut off in print)."""
    if fmt not in FORMATS:
        raise OptionError(f"unknown format {fmt!r}; valid: {', '.join(FORMATS)}")
    if fmt == "csv":
        return _csv(tables)
    tables = [with_footnotes(table) for table in tables]
    if fmt == "text":
        return "\n".join(_text(table, width) for table in tables)
    renderer = {"markdown": _markdown, "latex": _latex}[fmt]
    parts = [part for table in tables for part in
             ([table] if width is None else column_parts(table, width, fmt == "markdown"))]
    return "\n".join(renderer(part) for part in parts)


def _headers(table: ResultTable) -> list[str]:
    return [named_header(group.label, header) for group in table.groups
            for header in group.headers]


def _layout(table: ResultTable, width: int | None, named_columns: bool = False) -> Layout:
    return lay_out([(group.label, group.headers) for group in table.groups], table.rows, width,
                   named_columns)


def text_width(table: ResultTable) -> int:
    """Characters ``table`` takes across in the text layout, whole (two between columns)."""
    return whole_width(_layout(with_footnotes(table), None))


def _part_title(table: ResultTable, number: int, count: int) -> str:
    return table.title + (f" (part {number} of {count})" if count > 1 else "")


def column_parts(table: ResultTable, width: int,
                 named_columns: bool = False) -> list[ResultTable]:
    """``table`` as tables that each fit ``width`` characters, laid out as the text form
    lays it out (with ``named_columns``, as Markdown writes it:
    :func:`~experiments.analysis.table_layout.lay_out`): a page (printed, or a report's
    column) cuts off what is wider. Every part has every row, its cells as shown
    (:func:`with_footnotes`); the notes go under the last."""
    table = with_footnotes(table)
    layout = _layout(table, width, named_columns)
    if len(layout.parts) == 1:
        return [table]
    tables = []
    for number, part in enumerate(layout.parts, start=1):
        groups = tuple(ColumnGroup(block.label, tuple(layout.headers[i] for i in block.columns))
                       for block in part)
        chosen = [i for block in part for i in block.columns]
        rows = tuple((label, tuple(cells[i] for i in chosen)) for label, cells in table.rows)
        tables.append(replace(table, title=_part_title(table, number, len(layout.parts)),
                              groups=groups, rows=rows,
                              notes=table.notes if number == len(layout.parts) else ()))
    return tables


def _text(table: ResultTable, width: int | None) -> str:
    """The table in columns; what would pass ``width`` goes on in further parts
    (:func:`_layout`)."""
    layout = _layout(table, width)
    pieces = [_text_part(table, _part_title(table, number, len(layout.parts)), part,
                         layout.label_width, layout.headers, layout.columns)
              for number, part in enumerate(layout.parts, start=1)]
    notes = [textwrap.fill(note, width or DEFAULT_NOTE_WIDTH) for note in table.notes]
    return "\n\n".join(pieces + notes) + "\n"


def _text_part(table: ResultTable, title: str, blocks: Sequence[Block], label_width: int,
               headers: Sequence[str], columns: Sequence[int]) -> str:
    def line(label: str, texts: Sequence[str]) -> str:
        return label.ljust(label_width) + "".join(
            "  " + "  ".join(texts[i].rjust(columns[i]) for i in block.columns
                             ).rjust(block.width) for block in blocks)

    lines = [title, " " * label_width + "".join("  " + block.label.center(block.width)
                                                for block in blocks),
             line("instance", headers)]
    rule = "-" * len(lines[-1])
    lines[1:1] = [rule]
    lines.append(rule)
    for index, (label, cells) in enumerate(table.rows):
        if index == table.instance_count and index:
            lines.append(rule)
        lines.append(line(label, cells))
    return "\n".join(text.rstrip() for text in lines)


@functools.cache
def _html_template() -> jinja2.Template:
    """The HTML table's template, loaded as the report loads it (HTML escaped, marks
    explained), once a process; jinja2 is imported only when a table is shown."""
    import jinja2

    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, trim_blocks=True,
        lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    environment.filters["mark"] = mark_meaning
    return environment.get_template("results_table.html.j2")


def _markdown(table: ResultTable) -> str:
    headers = _headers(table)
    lines = [f"### {table.title}", "", "| instance | " + " | ".join(headers) + " |",
             "|---|" + "---:|" * len(headers)]
    lines += ["| " + " | ".join((label, *cells)) + " |" for label, cells in table.rows]
    return "\n".join(lines) + "\n" + "".join(f"\n{note}\n" for note in table.notes)


LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                 "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                 "^": r"\textasciicircum{}", "≥": r"$\geq$", "÷": r"$\div$",
                 "∞": r"$\infty$",
                 **{digit: rf"\textsuperscript{{{number}}}"
                    for number, digit in enumerate(SUPERSCRIPT_DIGITS)}}


def latex_escape(text: str) -> str:
    r"""``text`` with LaTeX's special characters escaped: ``a_b`` becomes ``a\_b``."""
    return "".join(LATEX_SPECIAL.get(char, char) for char in text)


def _latex(table: ResultTable) -> str:
    spans = " & ".join(rf"\multicolumn{{{len(g.headers)}}}{{c}}{{{latex_escape(g.label)}}}"
                       for g in table.groups)
    rules, start = [], 2
    for group in table.groups:
        rules.append(rf"\cmidrule(lr){{{start}-{start + len(group.headers) - 1}}}")
        start += len(group.headers)
    headers = " & ".join(latex_escape(h) for g in table.groups for h in g.headers)
    lines = [f"% {table.title}", r"\noindent\begin{tabular}{l" + "r" * (start - 2) + "}",
             r"\toprule", f" & {spans} \\\\", " ".join(rules), f"instance & {headers} \\\\",
             r"\midrule"]
    for index, (label, cells) in enumerate(table.rows):
        if index == table.instance_count:
            lines.append(r"\midrule")
        lines.append(" & ".join(latex_escape(c) for c in (label, *cells)) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    lines += [rf"\par\smallskip{{\footnotesize {latex_escape(note)}}}\par" for note in table.notes]
    return "\n".join(lines) + "\n"


def _csv(tables: Sequence[ResultTable]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    header: list[str] | None = None
    for table in tables:
        if _headers(table) != header:
            if header is not None:
                writer.writerow([])
            header = _headers(table)
            writer.writerow(["table", "instance", *header])
        for label, cells in table.rows:
            # a cell with runs still to come is empty: no figure to read yet
            writer.writerow([table.title, label,
                             *("" if c.startswith(MISSING) else c for c in cells)])
    return buffer.getvalue()
