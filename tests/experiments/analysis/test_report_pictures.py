"""The report's Nonogram pictures: clue digits readable at every puzzle size, at the
picture's own size and where a page shrinks it to fit; drawn from files of every format."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from pathlib import Path

import pytest

from experiments.api import run_experiment
from puzzles import PUZZLES
from puzzles.nonogram import NonogramInstance
from puzzles.nonogram_pictures import DIGIT_WIDTH, SQUEEZE, svg_layout
from tests.paths import NONOGRAM_DATA

SVG = "{http://www.w3.org/2000/svg}"
SCREEN, PRINTED = 1200, 700
"""CSS pixels across the report page's column on a screen, and on a printed A4 page."""
READABLE = 8.0
"""The least pixel height of a digit we call readable."""
FILES = ("webpbn_survey/webpbn-00001.non", "webpbn_survey/webpbn-00529.non",
         "webpbn_survey/faase.non")
"""A 5x10 puzzle, the 45x50 'Swing' and the largest bundled one, 80x95."""


def picture(name: str) -> tuple[NonogramInstance, ElementTree.Element]:
    nonogram = PUZZLES.get("nonogram")
    [instance] = nonogram.read(NONOGRAM_DATA / name)
    assert isinstance(instance, NonogramInstance)
    return instance, ElementTree.fromstring(nonogram.render_svg(
        instance, nonogram.known_solution(instance)))


@pytest.mark.parametrize("name", FILES)
def test_clue_digits_are_readable_and_apart_at_every_size(name: str) -> None:
    instance, root = picture(name)
    texts = list(root.iter(f"{SVG}text"))
    sizes = {float(t.attrib["font-size"]) for t in texts}
    assert len(sizes) == 1 and min(sizes) >= 10  # the same size whatever the puzzle's
    size = sizes.pop()
    cell, left, top = svg_layout(instance)
    rows: dict[float, list[ElementTree.Element]] = defaultdict(list)
    columns: dict[float, list[ElementTree.Element]] = defaultdict(list)
    for text in texts:
        x, y = float(text.attrib["x"]), float(text.attrib["y"])
        (rows[y] if x < left else columns[x]).append(text)
        assert (x < left) != (y < top)  # a row clue left of the grid, a column clue above
    for row in rows.values():  # numbers of a row clue side by side, none overlapping
        row.sort(key=lambda t: float(t.attrib["x"]))
        for a, b in itertools.pairwise(row):
            room = (len(a.text or "") + len(b.text or "")) / 2 * DIGIT_WIDTH * size
            assert float(b.attrib["x"]) - float(a.attrib["x"]) >= room
    for column in columns.values():  # stacked a line apart, each within its cell's width
        ys = sorted(float(t.attrib["y"]) for t in column)
        assert all(later - earlier >= size for earlier, later in itertools.pairwise(ys))
        for text in column:  # a wide number condensed to fit, no more than SQUEEZE allows
            natural = len(text.text or "") * DIGIT_WIDTH * size
            drawn = float(text.attrib.get("textLength", natural))
            assert drawn <= cell and drawn >= SQUEEZE * natural
    # shrunk to the report's column on a screen, and up to 50 columns on a printed page
    width = float(root.attrib["width"])
    assert size * min(1.0, SCREEN / width) >= READABLE
    if instance.width <= 50:
        assert size * min(1.0, PRINTED / width) >= READABLE


def test_a_small_puzzle_is_drawn_large_enough_to_see() -> None:
    instance, root = picture(FILES[0])
    cell, _, _ = svg_layout(instance)
    assert cell >= 30 and float(root.attrib["height"]) >= 300


def test_a_campaign_over_files_of_another_format_draws_them(tmp_path: Path) -> None:
    """The store keeps each instance in the puzzle's main format (``.non``): a campaign
    over MiniZinc ``.dzn`` nonograms reads them back as such and draws them."""
    dzn = NONOGRAM_DATA / "minizinc_challenge" / "non_micro.dzn"
    spec = tmp_path / "dzn.toml"
    spec.write_text(f'name = "dzn"\npuzzle = "nonogram"\ninstances = ["{dzn.as_posix()}"]\n'
                    'viewpoints = ["regular"]\nsolvers = ["cp"]\nheuristics = ["input/min"]\n',
                    encoding="utf-8")
    done = run_experiment(spec, jobs=1, results_root=tmp_path / "results")
    figures = done.database.parent / "report" / "figures"
    assert [path.name for path in figures.glob("dzn-non_micro*.svg")] == ["dzn-non_micro.svg"]
