"""The report page in a real browser: headless Chromium loads ``index.html`` from disk,
and the test reads from the page's DOM and from a screenshot that the tables and the
figures are there and visible (images loaded, of their SVG's size, not blank).

Chromium is found and run by :mod:`tests.browser`; where it is not installed the test
is skipped, saying so.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest

from experiments.analysis.report import write_report
from tests.browser import browser, run_browser
from tests.experiments.analysis.pages import parsed
from tests.experiments.records import COMPLETE, known_store, wide_runs

WIDTH = 1280
PRINTED_WIDTH = 700
"""CSS pixels across a printed A4 page inside Chromium's default margins (793 less
about 2 x 38), a little less for Letter's wider margins' sake."""
PROBE = """
<script>
window.addEventListener("load", function () {
  var box = function (element) {
    var rect = element.getBoundingClientRect();
    return {left: rect.left + window.scrollX, top: rect.top + window.scrollY,
            width: rect.width, height: rect.height};
  };
  var images = Array.from(document.images).map(function (image) {
    return {alt: image.alt, file: image.dataset.file, complete: image.complete,
            naturalWidth: image.naturalWidth, naturalHeight: image.naturalHeight,
            box: box(image), visible: getComputedStyle(image).visibility === "visible"};
  });
  var tables = Array.from(document.querySelectorAll("table.results")).filter(function (table) {
    return table.getClientRects().length > 0;  // shown: not in a layout the page hides
  }).map(function (table) {
    return {rows: table.rows.length, box: box(table)};
  });
  var probe = document.createElement("pre");
  probe.id = "probe";
  probe.textContent = JSON.stringify({images: images, tables: tables,
                                      height: document.documentElement.scrollHeight,
                                      width: document.documentElement.clientWidth});
  document.body.appendChild(probe);
});
</script>
"""


def svg_pixels(path: Path) -> tuple[float, float]:
    """The CSS pixel size an SVG file declares (points are 4/3 of a pixel)."""
    root = ElementTree.parse(path).getroot()

    def pixels(text: str) -> float:
        number, unit = re.fullmatch(r"([0-9.]+)\s*(pt|px)?", text.strip()).groups()  # type: ignore[union-attr]
        return float(number) * (4 / 3 if unit == "pt" else 1)

    return pixels(root.attrib["width"]), pixels(root.attrib["height"])


def probe_page(program: str, folder: Path, width: int = WIDTH,
               printed: bool = False) -> dict[str, Any]:
    """What the page's DOM says once loaded, read from a copy carrying a probe script;
    ``printed``: with the page's print styles applied, as a printed page lays it out."""
    probed = folder / "probed.html"
    page = (folder / "index.html").read_text(encoding="utf-8")
    if printed:
        assert "@media print {" in page
        page = page.replace("@media print {", "@media all {")
    probed.write_text(page.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dumped = run_browser(program, f"--window-size={width},1000", "--dump-dom",
                         probed.as_uri()).stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dumped, re.S)
    assert found, "the probe script did not run: " + dumped[-500:]
    probed.unlink()
    return dict(json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&")
                           .replace("&lt;", "<").replace("&gt;", ">")))


def test_the_page_shows_its_tables_and_figures_in_chromium(tmp_path: Path) -> None:
    from PIL import Image  # a dependency of matplotlib

    program = browser()
    database = known_store(tmp_path / "known" / "runs.sqlite", COMPLETE)
    folder = write_report([database]).folder
    probe = probe_page(program, folder)
    # tables: all of them, every row, on the page with a size
    assert len(probe["tables"]) == 1
    assert probe["tables"][0]["rows"] == 2 + 3 + 5  # two header rows, instances, closing
    assert probe["tables"][0]["box"]["height"] > 100
    # images: loaded, at the size their SVG declares, every file they name present
    images = probe["images"]
    assert len(images) == 4 + 3
    for image in images:
        assert image["complete"] and image["naturalWidth"] > 0, image["alt"]
        assert image["visible"] and image["box"]["width"] > 100 and image["box"]["height"] > 100
        declared = svg_pixels(folder / image["file"])
        assert abs(image["naturalWidth"] - declared[0]) <= 1, image
        assert abs(image["naturalHeight"] - declared[1]) <= 1, image
    # the screenshot: each figure's area holds a drawing, not a blank
    height = min(int(probe["height"]) + 50, 16000)
    shot = tmp_path / "page.png"
    run_browser(program, f"--window-size={WIDTH},{height}", f"--screenshot={shot}",
                (folder / "index.html").as_uri())
    picture = Image.open(shot).convert("L")
    assert picture.size == (WIDTH, height)
    for image in images:
        box = image["box"]
        area = picture.crop((int(box["left"]), int(box["top"]),
                             int(box["left"] + box["width"]), int(box["top"] + box["height"])))
        dark = sum(count for level, count in enumerate(area.histogram()) if level < 128)
        share = dark / (area.size[0] * area.size[1])
        assert 0.005 < share < 0.6, f"{image['alt']}: {share:.3f} of its area is dark"
    page_dark = sum(c for level, c in enumerate(picture.histogram()) if level < 128)
    assert page_dark / (picture.size[0] * picture.size[1]) > 0.01


def test_a_wide_table_fits_the_screen_and_a_printed_page(tmp_path: Path) -> None:
    """Six viewpoints, two columns each, with long figures: the table goes on in parts
    rather than running past the page, on a screen and on a printed page, and the
    parts together have every column. On the screen the parts use its width: wider
    than a printed page's, the whole table unless it passes the screen."""
    program = browser()
    runs = wide_runs()
    viewpoints = list(dict.fromkeys(run[1] for run in runs))
    database = known_store(tmp_path / "wide" / "runs.sqlite", runs)
    folder = write_report([database]).folder
    widths = {}
    for width, printed in ((WIDTH, False), (PRINTED_WIDTH, True)):
        probe = probe_page(program, folder, width, printed)
        assert len(probe["tables"]) >= 2, probe["tables"]
        for table in probe["tables"]:
            assert table["box"]["left"] + table["box"]["width"] <= probe["width"], (
                width, table)
        widths[printed] = [table["box"]["width"] for table in probe["tables"]]
    content = WIDTH - 2 * 24  # the page's padding
    assert max(widths[False]) > 0.75 * content > max(widths[True])
    headers = [cell for row in parsed(folder).rows for cell, _ in row
               if cell in viewpoints]
    # each group once in the screen's parts and once in the printed page's
    assert sorted(headers) == sorted(viewpoints * 2)


@pytest.mark.slow  # a third Chromium window size (4 s)
def test_a_narrow_window_shows_the_printed_parts(tmp_path: Path) -> None:
    """A window too narrow for the screen layout's widest part shows the printed page's
    parts rather than scroll sideways."""
    program = browser()
    folder = write_report([known_store(tmp_path / "wide" / "runs.sqlite",
                                       wide_runs())]).folder
    wide, narrow = (probe_page(program, folder, width) for width in (WIDTH, 900))
    printed = probe_page(program, folder, PRINTED_WIDTH, printed=True)
    assert max(table["box"]["width"] for table in wide["tables"]) > narrow["width"]
    assert len(narrow["tables"]) == len(printed["tables"])
    assert all(table["box"]["left"] + table["box"]["width"] <= narrow["width"]
               for table in narrow["tables"])


def test_the_trees_section_shows_its_trees_in_chromium(tmp_path: Path) -> None:
    """The search trees a campaign recorded are drawn side by side, loaded and visible."""
    from experiments.api import run_experiment
    from tests.experiments.tree_campaign import SPEC, TREES
    from tests.paths import SUDOKU_DATA

    program = browser()
    spec = tmp_path / "trees.toml"
    spec.write_text(SPEC.replace("{data}", SUDOKU_DATA.as_posix()).replace("repeats = 2", "")
                    + TREES, encoding="utf-8")
    run_experiment(spec, out=tmp_path / "out", jobs=1, show_progress=False)
    probe = probe_page(program, tmp_path / "out" / "report")
    trees = [image for image in probe["images"] if image["alt"].startswith("search tree")]
    assert len(trees) == 2
    first, second = trees
    for image in trees:
        assert image["complete"] and image["naturalWidth"] > 0, image["alt"]
        assert image["visible"] and image["box"]["width"] > 100 and image["box"]["height"] > 50
    assert abs(first["box"]["top"] - second["box"]["top"]) < 2  # side by side
    assert first["box"]["left"] + first["box"]["width"] <= second["box"]["left"]
