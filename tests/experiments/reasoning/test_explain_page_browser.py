"""The explanation page in headless Chromium: the test adds a script that steps through
the page as a reader does (the next and previous buttons clicked, ArrowRight and
ArrowLeft pressed, the slider moved), noting after each what the page marks and says;
then checks each note against the step's own data. ``#step=N`` opens step N.

Chromium is found and run by :mod:`tests.browser`; where it is not installed the test
is skipped, saying so.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

from experiments.reasoning.explain_page import explanation_page
from experiments.reasoning.steps import Explanation
from puzzles import PUZZLES
from tests.browser import browser, run_browser
from tests.experiments.reasoning.hand_explanation import cells_text, hand_explanation, tiny

READER = """
<script>
window.addEventListener("load", function () {
  var section = document.querySelector("section.explanation");
  var slider = section.querySelector(".slider");
  var seen = [];
  function marked(layer) {
    return Array.from(section.querySelectorAll(".layer-" + layer + " > g"))
      .map(function (group) { return group.dataset.cells; });
  }
  function note(how) {
    var derived = section.querySelector(".layer-derived rect");
    seen.push({how: how, step: section.dataset.step, slider: slider.value,
               text: section.querySelector(".step-text").textContent,
               cost: section.querySelector(".cost").textContent,
               position: section.querySelector(".position").textContent,
               bands: marked("band"), premises: marked("premise"), derived: marked("derived"),
               derivedBox: derived && ["x", "y", "width", "height"].map(function (name) {
                 return Number(derived.getAttribute(name)); }),
               fixed: Array.from(section.querySelectorAll("text.fixed")).map(function (t) {
                 return [t.dataset.cell, t.textContent]; })});
  }
  function press(key) {
    document.body.dispatchEvent(new KeyboardEvent("keydown", {key: key, bubbles: true}));
  }
  note("load");
  section.querySelector(".next").click(); note("next");
  press("ArrowRight"); note("ArrowRight");
  slider.value = "3"; slider.dispatchEvent(new Event("input", {bubbles: true})); note("slider");
  press("ArrowRight"); note("past the end");
  press("ArrowLeft"); note("ArrowLeft");
  section.querySelector(".previous").click(); note("previous");
  slider.value = "0"; slider.dispatchEvent(new Event("input", {bubbles: true})); note("slider");
  var out = document.createElement("pre");
  out.id = "reader";
  out.textContent = JSON.stringify(seen);
  document.body.appendChild(out);
});
</script>
"""


def dumped(program: str, page: Path, fragment: str = "") -> str:
    return run_browser(program, "--dump-dom", page.as_uri() + fragment).stdout


def written(tmp_path: Path, explanation: Explanation, reader: bool) -> Path:
    page = explanation_page([explanation], [tiny()])
    path = tmp_path / "explain.html"
    path.write_text(page.replace("</body>", READER + "</body>") if reader else page,
                    encoding="utf-8")
    return path


def expected(explanation: Explanation, number: int) -> dict[str, Any]:
    """What the page should mark and say at step ``number`` (0: the givens)."""
    if number == 0:
        return {"bands": [], "premises": [cells_text(f.cells) for f in explanation.givens],
                "derived": [], "fixed": [], "cost": ""}
    step = explanation.steps[number - 1]
    fixed = [[f"{r},{c}", fact.mark] for done in explanation.steps[:number]
             for fact in done.facts for r, c in fact.cells]
    return {"bands": [cells_text(reason.cells) for reason in step.constraints],
            "premises": [cells_text(fact.cells) for fact in step.premises],
            "derived": [cells_text(fact.cells) for fact in step.facts],
            "fixed": fixed, "cost": f"cost {step.cost}", "text": step.text}


def test_a_reader_steps_through_with_buttons_keys_and_slider(tmp_path: Path) -> None:
    program = browser()
    explanation = hand_explanation()
    output = dumped(program, written(tmp_path, explanation, reader=True))
    found = re.search(r'<pre id="reader">(.*?)</pre>', output, re.S)
    assert found, "the reader script did not run: " + output[-500:]
    notes = json.loads(html.unescape(found.group(1)))
    assert [(note["how"], int(note["step"])) for note in notes] == [
        ("load", 0), ("next", 1), ("ArrowRight", 2), ("slider", 3), ("past the end", 3),
        ("ArrowLeft", 2), ("previous", 1), ("slider", 0)]
    kind, instance = PUZZLES.get("sudoku"), tiny()
    for note in notes:
        number = int(note["step"])
        assert note["slider"] == str(number)
        assert note["position"].split()[1:] == [str(number), "of", "3"]
        want = expected(explanation, number)
        for key in ("bands", "premises", "derived", "fixed", "cost"):
            assert note[key] == want[key], (note["how"], key)
        if number:
            assert note["text"] == want["text"]
            (cell,) = explanation.steps[number - 1].facts[0].cells
            assert note["derivedBox"] == list(kind.cell_box(instance, *cell))
    assert len({note["text"] for note in notes}) == 4  # each step says something else


@pytest.mark.slow  # a second Chromium run; stepping is tested on every control above
def test_the_address_opens_a_step(tmp_path: Path) -> None:
    program = browser()
    explanation = hand_explanation()
    path = written(tmp_path, explanation, reader=False)
    for number in (2, 3):
        dom = dumped(program, path, f"#step={number}")
        assert re.search(rf'<section[^>]*data-step="{number}"', dom)
        derived = re.findall(r'<g class="derived" data-cells="([^"]*)"', dom)
        assert derived == expected(explanation, number)["derived"]
