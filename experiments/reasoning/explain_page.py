"""One HTML page that steps through explanations on the puzzles' own pictures.

Each explanation gets a section: its puzzle's SVG picture, and for the step shown the
cells of the constraints it uses (a translucent band each), of its premises and of what
it derives marked over the picture, with the values fixed so far written in their cells.
Previous and next buttons, the arrow keys and a slider move through the steps; step 0
shows the givens. ``#step=N`` (or ``#explanation=I&step=N``) in the address opens a step.

The page needs nothing else: its style, its script and the pictures are inline, and the
explanations are one JSON blob the script reads, so the page opens from disk, offline.
Where a cell is in a picture is the puzzle's to say (:meth:`PuzzleKind.cell_box`); the
page names no puzzle.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from experiments.reasoning.steps import Explanation, Fact
from puzzlelab.wording import counted
from puzzles import PUZZLES
from viewpoints.terms import Cell

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "explain_page.js"
"""The page's script: reads the JSON blob, draws the marks, moves through the steps."""
STYLE = HERE / "explain_page.css"
DATA_ID = "explanations"
"""The id of the ``<script type="application/json">`` that holds the explanations."""
_SCRIPT_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028",
                  "\u2029": "\\u2029"}


def explanation_page(explanations: Sequence[Explanation], instances: Sequence[Any], *,
                     title: str = "PuzzleLab explanations") -> str:
    """The page of ``explanations``, each drawn on its instance (``instances[i]`` is the
    instance ``explanations[i]`` explains), one section each in order."""
    if len(explanations) != len(instances):
        raise ValueError(f"{len(explanations)} explanations but {len(instances)} instances: "
                         f"give each explanation its instance")
    data = [page_data(explanation, instance)
            for explanation, instance in zip(explanations, instances)]
    sections = "\n".join(_section(index, explanation, instance)
                         for index, (explanation, instance)
                         in enumerate(zip(explanations, instances)))
    contents = "".join(f'<li><a href="#explanation-{index}">{html.escape(e.instance)}</a> '
                       f'({html.escape(e.viewpoint)})</li>'
                       for index, e in enumerate(explanations))
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n"
            f"<style>\n{STYLE.read_text(encoding='utf-8')}</style>\n</head>\n<body>\n"
            f"<h1>{html.escape(title)}</h1>\n"
            + (f'<nav><ul class="contents">{contents}</ul></nav>\n' if len(data) > 1 else "")
            + f"{_LEGEND}\n{sections}\n"
            f'<script type="application/json" id="{DATA_ID}">{script_json(data)}</script>\n'
            f"<script>\n{SCRIPT.read_text(encoding='utf-8')}</script>\n</body>\n</html>\n")


def page_data(explanation: Explanation, instance: Any) -> dict[str, object]:
    """What the script knows of one explanation: its JSON form (``explain --json``) and,
    for every cell it names, where the cell is in the picture (``"r,c"``: x, y, width,
    height)."""
    kind = PUZZLES.get(explanation.puzzle)
    boxes = {f"{row},{column}": list(kind.cell_box(instance, row, column))
             for row, column in sorted(named_cells(explanation))}
    return {**explanation.to_json(), "boxes": boxes}


def named_cells(explanation: Explanation) -> set[Cell]:
    """Every cell the explanation's givens, facts, premises and constraints name."""
    facts: list[Fact] = list(explanation.givens)
    cells: set[Cell] = set()
    for step in explanation.steps:
        facts += [*step.facts, *step.premises]
        cells.update(cell for reason in step.constraints for cell in reason.cells)
    cells.update(cell for fact in facts for cell in fact.cells)
    return cells


def script_json(data: object) -> str:
    """``data`` as JSON safe inside a ``<script>`` element: no ``</script>`` or ``<!--``
    can end it early, whatever the texts hold."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return "".join(_SCRIPT_UNSAFE.get(character, character) for character in text)


def _section(index: int, explanation: Explanation, instance: Any) -> str:
    """One explanation's section: the heading and summary in HTML, the picture, and the
    empty places the script fills for the step shown."""
    picture = PUZZLES.get(explanation.puzzle).render_svg(instance)
    steps = len(explanation.steps)
    facts = (f"{counted(steps, 'step')}, difficulty {explanation.difficulty}, total cost "
             f"{explanation.total_cost}; ending: {explanation.ending}")
    note = f" {html.escape(explanation.note)}" if explanation.note else ""
    return f"""<section class="explanation" id="explanation-{index}" data-index="{index}">
<h2>{html.escape(explanation.instance)}
<small>{html.escape(explanation.puzzle)}, {html.escape(explanation.viewpoint)}</small></h2>
<p class="summary">{html.escape(facts)}.{note}</p>
<div class="stage">
<div class="picture">{picture}</div>
<div class="words">
<div class="controls">
<button type="button" class="previous" aria-label="previous step">&larr; previous</button>
<input type="range" class="slider" min="0" max="{steps}" value="0" aria-label="step">
<button type="button" class="next" aria-label="next step">next &rarr;</button>
<span class="position" aria-live="polite"></span>
</div>
<p class="step-text"></p>
<p class="cost"></p>
<h3>Constraints used</h3><ul class="constraints"></ul>
<h3 class="premises-heading">Premises</h3><ul class="premises"></ul>
<h3>Derived</h3><ul class="facts"></ul>
</div>
</div>
</section>"""


_LEGEND = """<p class="legend">
<span class="key band"></span> constraints the step uses
<span class="key premise"></span> its premises
<span class="key derived"></span> what it derives
<span class="key fixed">7</span> values fixed so far
&mdash; &larr; and &rarr; move through the steps.
</p>"""
