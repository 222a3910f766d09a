"""A campaign's result tables (``experiments.api.result_tables``, the tables of
``puzzlelab table``) display themselves in a notebook: as the report's page lays them
out, every cell as the other formats show it, a mark's meaning on hover; and as
Markdown."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from experiments.analysis.table_format import MARKS, TIMEOUT, render, with_footnotes
from experiments.api import read_campaign, result_tables
from puzzlelab.statistics import metric
from tests.experiments.records import COMPLETE, known_store


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return known_store(tmp_path_factory.mktemp("known") / "runs.sqlite", COMPLETE)


def shown(html: str | None) -> ElementTree.Element:
    """The display parsed (it must be well-formed), under one root."""
    assert html is not None
    return ElementTree.fromstring(f"<div>{html}</div>")


def test_a_table_shows_every_row_and_cell_the_other_formats_show(database: Path) -> None:
    [table] = result_tables(database)
    root = shown(table._repr_html_())
    body = {}
    for row in root.iter("tr"):
        texts = ["".join(cell.itertext()) for cell in row if cell.tag == "td"]
        if texts:
            body[texts[0]] = tuple(texts[1:])
    assert body == dict(with_footnotes(table).rows)
    assert {instance for instance, *_ in COMPLETE} <= body.keys()
    groups = ["".join(cell.itertext()) for cell in root.iter("th") if cell.get("colspan")]
    assert groups == [group.label for group in table.groups]
    assert table.title in "".join(root.itertext())


def test_a_mark_is_explained_on_hover(database: Path) -> None:
    [table] = result_tables(database)
    marked = [cell for cell in shown(table._repr_html_()).iter("td")
              if (cell.text or "").startswith(TIMEOUT)]
    assert marked and all(cell.get("title") == MARKS[TIMEOUT] for cell in marked)


def test_a_table_is_markdown_as_puzzlelab_table_prints_it(database: Path) -> None:
    [table] = result_tables(database)
    assert table._repr_markdown_() == render([table], "markdown")


def test_the_tables_follow_the_spec_unless_told_otherwise(tmp_path: Path) -> None:
    database = known_store(tmp_path / "runs.sqlite", COMPLETE,
                           table='table = { metrics = ["backtracks"] }')
    [own] = result_tables(read_campaign(database))
    assert [group.headers for group in own.groups] == [("backtracks",)] * len(own.groups)
    [told] = result_tables(database, metrics=["time"], by="viewpoint")
    assert [group.headers for group in told.groups] == [(metric("time").header,)] * len(
        told.groups)
