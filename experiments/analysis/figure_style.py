"""How every figure of the report is drawn and saved: one palette, one set of markers,
line styles and hatches, one size, log axes labelled with plain numbers, and files that
come out the same when drawn again. The figures themselves are
:mod:`experiments.analysis.report_figures`' and :mod:`experiments.analysis.report_effort`'.

Groups differ by marker and line style as well as colour (Okabe and Ito's palette),
so the figures survive black-and-white print.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

import matplotlib

matplotlib.use("Agg")  # files only: no display, no GUI toolkit (before pyplot is imported)

# the two formats save writes, imported with this module (a campaign imports it while its
# runs go on) rather than by the first savefig, after the runs
import matplotlib.backends.backend_pdf
import matplotlib.backends.backend_svg
import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#F0E442")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", "h")
LINE_STYLES = ("-", "--", ":", "-.")
HATCHES = ("", "//", "..", "xx", "\\\\", "++", "oo", "--")
MINOR_LABELS_BELOW = 300
"""A log axis spanning less than this ratio labels its 2s and 5s as well as its powers of
ten."""
WIDTH, HEIGHT = 6.4, 4.4
"""Inches; at matplotlib's 72 points per inch the SVG is 460.8 x 316.8 points."""


@dataclass(frozen=True)
class DrawnFigure:
    """A figure of the report: its files and the SVG text the HTML page inlines."""

    name: str
    title: str
    caption: str
    svg: Path
    pdf: Path
    svg_text: str


class Look(TypedDict):
    """How a group's line is drawn (``plot`` keyword arguments)."""

    color: str
    marker: str
    linestyle: Any  # a name, or a dash pattern (offset, (on, off, ...))


def look(index: int) -> Look:
    """The colour, marker and line style of the ``index``-th group."""
    return Look(color=COLOURS[index % len(COLOURS)], marker=MARKERS[index % len(MARKERS)],
                linestyle=LINE_STYLES[(index // len(COLOURS)) % len(LINE_STYLES)])


def styled(draw: Callable[[], DrawnFigure]) -> Callable[[], DrawnFigure]:
    """``draw`` in the report's style."""
    def in_style() -> DrawnFigure:
        # a fixed salt: the SVG's ids, hence the files, are the same when drawn again
        with plt.rc_context({"svg.hashsalt": "puzzlelab", "svg.fonttype": "none",
                             "font.size": 9, "axes.spines.top": False,
                             "axes.spines.right": False}):
            return draw()

    return in_style


def log_scale(axes: Axes, *which: str) -> None:
    """Log scales on ``which`` axes (``"x"``, ``"y"``), labelled ``0.01``, ``1``, ``100``:
    plain numbers, not matplotlib's ``10^{-2}``, whose mathematical typesetting took most
    of a report's drawing time."""
    for name in which:
        getattr(axes, f"set_{name}scale")("log")
        axis = getattr(axes, f"{name}axis")
        axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
        axis.set_minor_formatter(FuncFormatter(_minor_label(axis)))


def _minor_label(axis: Any) -> Callable[[float, object], str]:
    """Labels 2 and 5 times a power of ten where the axis spans few decades (fitted to
    its data, it may hold one labelled power of ten or none); none on a wider one."""
    def label(value: float, _: object) -> str:
        low, high = sorted(axis.get_view_interval())
        if value <= 0 or low <= 0 or high / low > MINOR_LABELS_BELOW:
            return ""
        lead = round(value / 10 ** math.floor(math.log10(value)))
        return f"{value:g}" if lead in (2, 5) else ""

    return label


def save(figure: Figure, folder: Path, name: str, title: str, caption: str) -> DrawnFigure:
    """Write ``figure`` as ``name``.svg and .pdf in ``folder``, with no dates inside (so a
    figure drawn again from the same runs is the same file)."""
    folder.mkdir(parents=True, exist_ok=True)
    svg_path, pdf_path = folder / f"{name}.svg", folder / f"{name}.pdf"
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    svg_path.write_text(buffer.getvalue(), encoding="utf-8")
    figure.savefig(pdf_path, format="pdf", metadata={"CreationDate": None, "ModDate": None})
    plt.close(figure)
    return DrawnFigure(name, title, caption, svg_path, pdf_path, buffer.getvalue())
