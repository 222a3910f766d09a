"""A spec's ``explain`` key: checked where the spec is read (its viewpoint) and where the
grid is expanded (its instances), and shown by the report as a summary row per instance
linking to the explanations' page written beside it.

The explaining itself is stood in for (``report_explained.explainer`` patched), so the
test judges what the report does with the explanations it is given.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from experiments.analysis import report_explained
from experiments.analysis.report import write_report
from experiments.campaign.grid import expand
from experiments.campaign.spec import check_explained, load_spec
from experiments.reasoning.steps import Explanation
from puzzlelab.errors import PuzzleLabError, SpecError
from tests.experiments.analysis.pages import parsed
from tests.experiments.reasoning.hand_explanation import hand_explanation
from tests.facts import states

SPEC = """
name = "explained"
puzzle = "sudoku"
instances = [{ file = "{data}/small_4x4.txt", select = [1, 2, 3] }]
viewpoints = ["classic"]
solvers = ["cpsat"]
heuristics = ["auto"]
time_limit = 10
"""
EXPLAIN = 'explain = { instances = ["small_4x4#3", "small_4x4#1"], viewpoint = "classic" }\n'


def standing_in(asked: list[tuple[str, object]], refused: str = "") -> Callable[..., Any]:
    """An ``explainer`` whose explain notes what it was asked and refuses ``refused``."""

    def explain(instance: Any, *, viewpoint: str | None = None, options: Any = None,
                time_limit: float | None = None) -> Explanation:
        asked.append((instance.name, viewpoint))
        if instance.name == refused:
            raise PuzzleLabError(f"{refused} cannot be explained on {viewpoint}")
        return dataclasses.replace(hand_explanation(), instance=instance.name)

    return lambda: explain


@pytest.mark.parametrize(("explain", "stated"), [
    ('explain = { instances = ["omega"] }', ("instance 'omega'", "small_4x4#1", "small_4x4#3")),
    ('explain = { instance = ["small_4x4#1"] }', ("'instance'", "instances", "viewpoint")),
    ('explain = { instances = ["small_4x4#1"], viewpoint = "nowhere" }', ("nowhere", "classic")),
    ('explain = ["small_4x4#1"]', ("instances = [NAME, ...]",)),
    ('explain = { instances = "small_4x4#1" }', ("lone string",)),
])
def test_a_wrong_explain_setting_is_a_spec_error_on_its_line(
        write_spec: Any, explain: str, stated: tuple[str, ...]) -> None:
    path = write_spec(SPEC + explain + "\n")
    with pytest.raises(SpecError) as refused:
        spec = load_spec(path)
        check_explained(spec.explain, {t.identity.instance for t in expand(spec).tasks},
                        spec.error)
    message = str(refused.value)
    assert states(message, "key 'explain'", *stated), message
    assert f"{path}:{SPEC.count(chr(10)) + 1}:" in message  # the line of the key


def test_a_campaign_stops_on_an_unknown_instance_before_running(write_spec: Any,
                                                                 tmp_path: Path) -> None:
    from experiments.api import run_experiment

    path = write_spec(SPEC + 'explain = { instances = ["omega"] }\n')
    with pytest.raises(SpecError, match="omega"):
        run_experiment(path, out=tmp_path / "out", jobs=1, show_progress=False)
    assert not (tmp_path / "out" / "runs.sqlite").exists()


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The campaign run once, its report not written (module-wide: it takes seconds)."""
    from experiments.api import run_experiment
    from tests.paths import SUDOKU_DATA

    folder = tmp_path_factory.mktemp("explained")
    spec = folder / "explained.toml"
    spec.write_text(SPEC.replace("{data}", SUDOKU_DATA.as_posix()) + EXPLAIN
                    + "table = { report = false }\n", encoding="utf-8")
    run_experiment(spec, out=folder / "out", jobs=1, show_progress=False)
    return folder / "out" / "runs.sqlite"


def test_the_report_sums_up_each_explanation_and_links_to_its_page(
        database: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[str, object]] = []
    monkeypatch.setattr(report_explained, "explainer", standing_in(asked))
    written = write_report([database], out=tmp_path / "report")
    assert asked == [("small_4x4#3", "classic"), ("small_4x4#1", "classic")]
    page = written.folder / report_explained.EXPLAIN_PAGE
    assert page in written.files
    explained = page.read_text(encoding="utf-8")
    assert explained.count('<section class="explanation"') == 2
    assert explained.index("small_4x4#3") < explained.index("small_4x4#1")
    shown = parsed(written.folder)
    rows = [[cell for cell, _ in row] for row in shown.rows]
    wanted = hand_explanation()
    summary = [str(len(wanted.steps)), str(wanted.difficulty), str(wanted.total_cost),
               wanted.ending]
    assert ["small_4x4#3", "sudoku/classic", *summary] in rows
    assert ["small_4x4#1", "sudoku/classic", *summary] in rows
    links = [link for link in shown.links if link.startswith("explain.html#")]
    assert links == ["explain.html#explanation-0", "explain.html#explanation-1"]
    markdown = (written.folder / "report.md").read_text(encoding="utf-8")
    assert "[small_4x4#1](explain.html#explanation-1)" in markdown


def test_an_instance_that_cannot_be_explained_is_a_note(
        database: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report_explained, "explainer", standing_in([], refused="small_4x4#3"))
    written = write_report([database], out=tmp_path / "report")
    index = (written.folder / "index.html").read_text(encoding="utf-8")
    assert "small_4x4#3 cannot be explained on classic" in index
    links = [link for link in parsed(written.folder).links if link.startswith("explain.html#")]
    assert links == ["explain.html#explanation-0"]


def test_without_the_explaining_the_report_says_so(
        database: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> Callable[..., Explanation]:
        raise ImportError("No module named 'experiments.reasoning.explaining'")

    monkeypatch.setattr(report_explained, "explainer", missing)
    written = write_report([database], out=tmp_path / "report")
    assert not (written.folder / report_explained.EXPLAIN_PAGE).exists()
    assert "no explanations" in (written.folder / "index.html").read_text(encoding="utf-8")
