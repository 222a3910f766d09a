"""A campaign's ``trees`` setting: the trees of the named instances recorded once the runs
are stored, their counts the runs', kept in the store, drawn side by side in the report."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest

from experiments.campaign.grid import expand
from experiments.campaign.spec import load_spec
from experiments.campaign.store import ResultsStore
from experiments.campaign.stored_campaign import read_campaign
from experiments.campaign.tree_runs import record_trees, tree_tasks
from puzzlelab.errors import SpecError
from tests.experiments.cli.commands import run_cli
from tests.experiments.tree_campaign import SPEC, TREES
from tests.facts import states


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The spec run once with its trees (module-wide: a campaign takes seconds)."""
    from experiments.api import run_experiment
    from tests.paths import SUDOKU_DATA

    folder = tmp_path_factory.mktemp("trees")
    spec = folder / "trees.toml"
    spec.write_text(SPEC.replace("{data}", SUDOKU_DATA.as_posix()) + TREES, encoding="utf-8")
    run_experiment(spec, out=folder / "out", jobs=1, show_progress=False)
    return folder


def test_the_named_instances_runs_on_recording_solvers_get_a_tree_each(campaign: Path) -> None:
    database = campaign / "out" / "runs.sqlite"
    runs = {run.identity.key: run for run in read_campaign(database).runs}
    with ResultsStore.open_existing(database) as store:
        trees = store.trees()
    assert sorted((t.instance, t.viewpoint, t.solver) for t in trees) == [
        ("lambda", "classic-weak", "cp"), ("lambda", "value-position-weak", "cp")]
    for tree in trees:
        run = runs[tree.run_key]
        assert run.identity.repeat == 0 and run.identity.instance == "lambda"
        counts = tree.tree.counts()
        assert counts["failures"] == run.statistics.backtracks
        assert counts["branches"] == run.statistics.branches
        assert counts["solutions"] == run.statistics.solutions == 1
        assert tree.profile["backend"] == "cp" and tree.profile["fixed"] >= 17


def test_a_campaign_run_again_records_only_the_trees_it_lacks(campaign: Path) -> None:
    spec = load_spec(campaign / "trees.toml")
    chosen = tree_tasks(spec.trees, expand(spec).tasks, spec.error)
    with ResultsStore(campaign / "out" / "runs.sqlite") as store:
        assert record_trees(store, chosen, spec.trees.nodes) == 0


def test_the_report_sets_the_trees_of_an_instance_side_by_side(campaign: Path) -> None:
    report = campaign / "out" / "report"
    html = (report / "index.html").read_text(encoding="utf-8")
    section = html[html.index("<h3>Search trees</h3>"):]
    assert section.index("<h4>lambda</h4>") < section.index('class="trees"')
    figures = section.split('<figure class="tree">')[1:]
    assert len(figures) == 2
    for figure in figures:  # each caption: the tree's counts, the same as its run's
        caption = figure.split("<figcaption>", 1)[1].split("</figcaption>", 1)[0]
        assert states(caption, "1 solution", "measured run") and "differs" not in caption
    assert "root propagation on cp" in section and "all-different" in section
    drawn = sorted((report / "figures").glob("*-tree-*.svg"))
    assert len(drawn) == 2 and len(list((report / "figures").glob("*-tree-*.pdf"))) == 2
    for path in drawn:
        root = ElementTree.parse(path).getroot()
        assert any("solution" in element.attrib.get("class", "") for element in root.iter())
    markdown = (report / "report.md").read_text(encoding="utf-8")
    assert "### Search trees" in markdown and drawn[0].name in markdown
    assert "tree-1.pdf" in (report / "report.tex").read_text(encoding="utf-8")


def test_every_image_and_heading_of_report_md_starts_a_block(campaign: Path) -> None:
    """Markdown joins an image written right under a line of text to that paragraph:
    each picture (trees, figures, puzzles) and heading has a blank line above it."""
    lines = (campaign / "out" / "report" / "report.md").read_text(encoding="utf-8").splitlines()
    images = [number for number, line in enumerate(lines) if line.startswith("![")]
    headings = [number for number, line in enumerate(lines) if line.startswith("#")]
    assert sum("search tree" in lines[number] for number in images) == 2
    assert all(number > 0 and not lines[number - 1].strip()
               for number in images + headings[1:]), [
        lines[number - 1:number + 1] for number in images + headings[1:]
        if lines[number - 1].strip()]


#: the value at fault, and what the campaign has or the setting takes
@pytest.mark.parametrize(("trees", "stated"), [
    ('trees = { instances = ["omega"] }', ("instance 'omega'", "hard17", "lambda")),
    ('trees = { instances = ["lambda"], heuristics = ["input/max"] }',
     ("heuristic 'input/max'", "first-fail/min")),
    ('trees = { instances = ["lambda"], nodes = 0 }', ("'nodes'", "positive integer", "0")),
    ('trees = { instance = ["lambda"] }', ("'instance'", "instances", "nodes")),
    ('trees = ["lambda"]', ("instances = [NAME, ...]",)),
])
def test_a_wrong_trees_setting_is_a_spec_error_on_its_line(write_spec: Any, trees: str,
                                                           stated: tuple[str, ...]) -> None:
    path = write_spec(SPEC + trees + "\n")
    with pytest.raises(SpecError) as refused:
        spec = load_spec(path)
        tree_tasks(spec.trees, expand(spec).tasks, spec.error)
    message = str(refused.value)
    assert states(message, "key 'trees'", *stated)
    assert f"{path}:{SPEC.count(chr(10)) + 1}:" in message  # the line of the key


def test_changing_the_trees_setting_keeps_the_stored_runs(monkeypatch, capsys,
                                                          write_spec: Any,
                                                          tmp_path: Path) -> None:
    """``trees`` is presentation: a store made without it takes the spec with it."""
    first = write_spec(SPEC.replace("repeats = 2", "repeats = 1")
                       .replace('"lambda", "hard17"', '"hard17"'))
    code, _, err = run_cli(monkeypatch, capsys, "run", str(first), "--jobs", "1", "--out",
                           str(tmp_path / "grown"), "--no-progress")
    assert code == 0, err
    second = write_spec(first.read_text(encoding="utf-8")
                        + 'trees = { instances = ["hard17"], viewpoints = ["classic-weak"] }\n')
    code, _, err = run_cli(monkeypatch, capsys, "run", str(second), "--jobs", "1", "--out",
                             str(tmp_path / "grown"), "--no-progress")
    assert code == 0, err
    with ResultsStore.open_existing(tmp_path / "grown" / "runs.sqlite") as store:
        assert [(t.instance, t.viewpoint) for t in store.trees()] == [
            ("hard17", "classic-weak")]


def test_the_report_shows_each_viewpoints_model_size(campaign: Path) -> None:
    from experiments.analysis.report_sizes import size_rows
    from puzzles import PUZZLES
    from viewpoints import get_viewpoint

    sudoku = PUZZLES.get("sudoku")
    instance = sudoku.load(sudoku.data_folder() / "kul_named_9x9.txt", "lambda")
    rows = {(row.viewpoint, row.solvers): row.cells
            for row in size_rows(read_campaign(campaign / "out" / "runs.sqlite"))}
    # both solvers post these models natively: one row each, naming both
    assert set(rows) == {("classic-weak", "cp, cpsat"), ("value-position-weak", "cp, cpsat")}
    for label, name in (("classic-weak", "classic"), ("value-position-weak", "value-position")):
        model = get_viewpoint("sudoku", name).build(instance, {"alldiff": "weak"}).model
        built = (f"{len(model.variables):,}", f"{len(model.constraints):,}")
        assert rows[(label, "cp, cpsat")] == built * 2
    html = (campaign / "out" / "report" / "index.html").read_text(encoding="utf-8")
    assert "<h3>Model sizes</h3>" in html and "posted constraints" in html
