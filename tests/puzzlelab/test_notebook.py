"""What displays itself in a notebook: statistics as an HTML table of the figures a run
has, named and measured as declared; the pieces every display shares; and the guard
that turns a failing display into a warning and the text repr."""

from __future__ import annotations

import base64
import xml.etree.ElementTree as ElementTree

import pytest

from puzzlelab.notebook import display_method, escaped, html_table, svg_image
from puzzlelab.statistics import STATISTICS, Statistics


def cells(html: str) -> dict[str, list[str]]:
    """Each body row of a table, by its first cell: the texts of the others (the HTML
    must be well-formed)."""
    root = ElementTree.fromstring(html)
    rows = {}
    for row in root.iter("tr"):
        texts = ["".join(cell.itertext()) for cell in row if cell.tag == "td"]
        if texts:
            rows[texts[0]] = texts[1:]
    return rows


def test_statistics_show_the_figures_given_with_their_declared_units() -> None:
    statistics = Statistics(solve_s=0.0042, backtracks=17, peak_memory_mb=51.5)
    shown = cells(statistics._repr_html_() or "")
    assert shown["backtracks"] == ["17", STATISTICS.get("backtracks").unit]
    assert shown["solve_s"] == ["0.0042", STATISTICS.get("solve_s").unit]
    assert shown["peak_memory_mb"][1] == STATISTICS.get("peak_memory_mb").unit
    assert shown["solutions"][0] == "0"  # counted by every run
    assert "branches" not in shown  # not given: None, not shown as 0


def test_each_statistic_is_explained_by_its_declared_meaning() -> None:
    root = ElementTree.fromstring(Statistics(branches=5)._repr_html_() or "")
    explained = {cell.text: cell.get("title") for cell in root.iter("td") if cell.get("title")}
    assert explained["branches"] == STATISTICS.get("branches").meaning


def test_cell_texts_are_escaped() -> None:
    html = html_table(("a<b",), [('"x" & <y>',)])
    assert "<y>" not in html and "a<b" not in html
    assert cells(html) == {'"x" & <y>': []}
    assert escaped('<"&>') == "&lt;&quot;&amp;&gt;"


def test_a_picture_is_an_image_holding_its_svg() -> None:
    picture = '<svg xmlns="http://www.w3.org/2000/svg"><text>7</text></svg>'
    image = ElementTree.fromstring(svg_image(picture, "a <picture>"))
    assert image.tag == "img" and image.get("alt") == "a <picture>"
    address = image.get("src") or ""
    assert base64.b64decode(address.split(",", 1)[1]).decode() == picture


class Failing:
    @display_method
    def _repr_html_(self) -> str:
        raise ValueError("no figures")

    def __repr__(self) -> str:
        return "Failing()"


def test_a_failing_display_warns_and_gives_none_so_the_text_repr_is_shown() -> None:
    with pytest.warns(RuntimeWarning, match="Failing._repr_html_") as warned:
        assert Failing()._repr_html_() is None
    assert "no figures" in str(warned[0].message)


def test_an_interrupt_is_not_swallowed() -> None:
    class Interrupted:
        @display_method
        def _repr_html_(self) -> str:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        Interrupted()._repr_html_()
