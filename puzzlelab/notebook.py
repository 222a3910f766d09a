"""What the objects that display themselves in a notebook share: the guard that keeps a
display from raising, HTML escaping, a small HTML table, a picture as an image.

Jupyter shows an object by calling its ``_repr_svg_`` or ``_repr_html_``; one that raises
there spoils the cell's output, so each goes through :func:`display_method`, which turns
a failure into a warning and None (Jupyter then shows the text repr). Nothing here
imports a library at import time: a display costs nothing until it is asked for.

>>> print(html_table(("name", "value"), [("backtracks", "7")], right=(1,)))
<table><thead><tr><th>name</th><th style="text-align:right">value</th></tr></thead>
<tbody><tr><td>backtracks</td><td style="text-align:right">7</td></tr></tbody></table>
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")


def display_method(method: Callable[[T], str | None]) -> Callable[[T], str | None]:
    """``method`` (a ``_repr_*_``) made safe: a failure is a warning that names it, and
    None, so that Jupyter falls back to the text repr rather than showing a traceback."""

    @functools.wraps(method)
    def guarded(shown: T) -> str | None:
        try:
            return method(shown)
        except Exception as error:
            warnings.warn(f"{type(shown).__name__}.{method.__name__} failed, so the text "
                          f"repr is shown ({type(error).__name__}: {error})", RuntimeWarning,
                          stacklevel=2)
            return None

    return guarded


def escaped(text: object) -> str:
    """``text`` safe in HTML, between tags and in a quoted attribute."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def figure_text(value: float, unit: str = "count") -> str:
    """A statistic's value as a person reads it: a count whole, a time or a size with
    four significant digits (no exponent below ten thousand).

    >>> figure_text(7), figure_text(0.004213, "s"), figure_text(12345.6, "MiB")
    ('7', '0.004213', '12346')
    """
    if unit == "count" or isinstance(value, int):
        return str(round(value))
    return f"{value:.4g}" if abs(value) < 1e4 else f"{value:.0f}"


def html_table(headers: Sequence[str], rows: Iterable[Sequence[str]], *,
               right: Collection[int] = (), titles: Sequence[str] = ()) -> str:
    """A plain table: ``headers`` (none: no header row), ``rows`` of cell texts (escaped
    here), the columns numbered in ``right`` aligned right (figures), and each row's
    first cell explained on hover by its entry in ``titles``."""

    def cell(tag: str, column: int, text: str, title: str = "") -> str:
        style = ' style="text-align:right"' if column in right else ""
        hover = f' title="{escaped(title)}"' if title else ""
        return f"<{tag}{style}{hover}>{escaped(text)}</{tag}>"

    head = ("<thead><tr>" + "".join(cell("th", c, h) for c, h in enumerate(headers))
            + "</tr></thead>\n") if headers else ""
    body = "".join(
        "<tr>" + "".join(cell("td", c, text, titles[r] if c == 0 and r < len(titles) else "")
                         for c, text in enumerate(row)) + "</tr>"
        for r, row in enumerate(rows))
    return f"<table>{head}<tbody>{body}</tbody></table>"


def svg_address(svg_text: str) -> str:
    """An SVG picture as a ``data:`` address: a page shows it as an image, needing no file."""
    import base64

    return "data:image/svg+xml;base64," + base64.b64encode(svg_text.encode()).decode("ascii")


def svg_image(svg_text: str, alt: str) -> str:
    """An SVG picture as an ``<img>`` of its :func:`svg_address`: its own style sheet
    stays inside it rather than restyling the page around it (as an inline ``<svg>``'s
    would, every ``<text>`` of the notebook)."""
    return f'<img src="{svg_address(svg_text)}" alt="{escaped(alt)}"/>'


def side_by_side(*parts: str) -> str:
    """HTML parts in a row, top-aligned, wrapping where the output is narrow."""
    cells = "".join(f"<div>{part}</div>" for part in parts if part)
    style = "display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start"
    return f'<div style="{style}">{cells}</div>'
