"""Reading a written report back, for the report tests: its page's tables, images and
links, the texts under its tables and its list of facts, and the figures it draws."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

FIGURES = ("cactus", "scatter-time", "scatter-backtracks", "effort")


class Page(HTMLParser):
    """The page's tables (rows of (text, class) cells), images and links."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[tuple[str, str]]] = []
        self.images: list[dict[str, str | None]] = []
        self.links: list[str] = []
        self._cell: list[str] | None = None
        self._class = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell, self._class = [], found.get("class") or ""
        elif tag == "img":
            self.images.append(found)
        elif tag == "a" and found.get("href"):
            self.links.append(str(found["href"]))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(("".join(self._cell).strip(), self._class))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def parsed(folder: Path) -> Page:
    page = Page()
    page.feed((folder / "index.html").read_text(encoding="utf-8"))
    page.close()
    return page


def row_of(page: Page, label: str, title_index: int = 0) -> list[tuple[str, str]]:
    """The cells after the label of the ``title_index``-th row labelled ``label``."""
    rows = [row[1:] for row in page.rows if row and row[0][0] == label]
    return rows[title_index]


def texts(html: str, start: str, end: str = "</p>") -> list[str]:
    """The texts from each ``start`` to the next ``end`` on a page, markup and escapes
    undone: ``texts(html, '<p class="summary">')``, the summaries under its tables."""
    found = re.findall(f"{re.escape(start)}(.*?){re.escape(end)}", html, re.DOTALL)
    return [unescape(re.sub(r"<[^>]+>", "", text)).strip() for text in found]


def described(html: str, term: str) -> str:
    """What a campaign's list of facts says of ``term`` (``runs``, ``session 1``)."""
    [text] = texts(html, f"<dt>{term}</dt><dd>", "</dd>")
    return text
