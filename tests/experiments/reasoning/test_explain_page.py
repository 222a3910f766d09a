"""The explanation page as written: one offline file, every text escaped, the
explanations in one JSON blob with where each named cell is in the picture."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from experiments.reasoning.explain_page import DATA_ID, explanation_page, page_data
from puzzles import PUZZLES
from tests.experiments.reasoning.hand_explanation import hand_explanation, tiny

HOSTILE = "</script><script>alert(1)</script> & <b>"


class Tags(HTMLParser):
    """Every start tag's name and attributes, and the JSON blob's text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.blob = ""
        self._in_blob = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_blob = dict(attrs).get("id") == DATA_ID

    def handle_endtag(self, tag: str) -> None:
        self._in_blob = False

    def handle_data(self, data: str) -> None:
        if self._in_blob:
            self.blob += data


def parsed(page: str) -> Tags:
    tags = Tags()
    tags.feed(page)
    return tags


def test_the_page_needs_nothing_from_outside() -> None:
    page = explanation_page([hand_explanation()], [tiny()])
    tags = parsed(page)
    assert not [attrs for tag, attrs in tags.tags if tag in ("script", "link", "img")
                and (attrs.get("src") or attrs.get("href"))]
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", page)
    assert sum(tag == "svg" for tag, _ in tags.tags) == 1
    assert sum(tag == "section" for tag, _ in tags.tags) == 1


def test_texts_are_escaped_and_the_blob_reads_back() -> None:
    explanation = hand_explanation(note=HOSTILE)
    page = explanation_page([explanation], [tiny()])
    assert page.count("<script") == 2  # the blob and the page's own script
    assert "<b>" not in page.split("<style>")[0] + page.split("</style>")[1].split("<script")[0]
    data = json.loads(parsed(page).blob)
    assert data[0]["note"] == HOSTILE
    assert [step["text"] for step in data[0]["steps"]] == [s.text for s in explanation.steps]


def test_every_named_cell_has_its_box_in_the_picture() -> None:
    explanation, instance = hand_explanation(), tiny()
    boxes = page_data(explanation, instance)["boxes"]
    assert isinstance(boxes, dict)
    assert len(boxes) == 16  # the givens and the three steps name every cell
    kind = PUZZLES.get("sudoku")
    assert boxes["3,0"] == list(kind.cell_box(instance, 3, 0))
    assert boxes["3,0"][1] > boxes["0,0"][1] and boxes["0,3"][0] > boxes["0,0"][0]


def test_several_explanations_make_a_section_each() -> None:
    first, second = hand_explanation(), hand_explanation(note="again")
    tags = parsed(explanation_page([first, second], [tiny(), tiny()]))
    sections = [attrs["id"] for tag, attrs in tags.tags if tag == "section"]
    assert sections == ["explanation-0", "explanation-1"]
    assert [attrs["href"] for tag, attrs in tags.tags if tag == "a"] == [
        "#explanation-0", "#explanation-1"]
    with pytest.raises(ValueError, match="2 explanations but 1 instances"):
        explanation_page([first, second], [tiny()])
