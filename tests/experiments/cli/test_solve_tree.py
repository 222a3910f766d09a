"""``puzzlelab solve --tree FILE``: the run's search tree written as JSON or drawn, its
counts the run's, and refusals before any search."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from solvers import BACKENDS, load_backends
from tests.experiments.cli.commands import run_cli
from tests.facts import states
from tests.paths import SUDOKU_DATA

LAMBDA = ("solve", "sudoku", str(SUDOKU_DATA / "kul_named_9x9.txt"), "--instance", "lambda",
          "--viewpoint", "classic", "-o", "alldiff=weak", "--heuristic", "first-fail/min")


def _solved(monkeypatch, capsys, *extra: str) -> tuple[dict, str]:
    code, out, err = run_cli(monkeypatch, capsys, *LAMBDA, "--json", *extra)
    assert code == 0, err
    return json.loads(out), err


def test_a_json_tree_holds_the_runs_counts(monkeypatch, capsys, tmp_path: Path) -> None:
    target = tmp_path / "lambda.json"
    record, err = _solved(monkeypatch, capsys, "--solver", "cp", "--tree", str(target))
    assert str(target) in err
    tree = json.loads(target.read_text(encoding="utf-8"))
    nodes = tree["nodes"]
    failures = sum(node["kind"] == "failure" for node in nodes)
    assert failures == record["statistics"]["backtracks"] > 100
    assert len(nodes) - 1 == record["statistics"]["branches"]
    assert sum(node["kind"] == "solution" for node in nodes) == 1
    assert tree["truncated"] is False and tree["solver"] == "cp"
    assert tree["instance"] == "lambda" and tree["options"] == {"alldiff": "weak"}
    assert all(nodes[n["parent"]]["depth"] + 1 == n["depth"] for n in nodes[1:])
    assert nodes[1]["decision"].startswith("cell_") and " = " in nodes[1]["decision"]


@pytest.mark.parametrize("solver", ["cp", "python-constraint"])
def test_a_drawn_tree_marks_every_failure_and_solution(monkeypatch, capsys, tmp_path: Path,
                                                       solver: str) -> None:
    target = tmp_path / "lambda.svg"
    record, _ = _solved(monkeypatch, capsys, "--solver", solver, "--tree", str(target))
    root = ElementTree.parse(target).getroot()
    marks = [element for element in root.iter() if "class" in element.attrib]

    def classed(name: str) -> list[ElementTree.Element]:
        return [m for m in marks if name in m.attrib["class"].split()]

    failures = len(classed("failure")) + sum(int(m.attrib["data-failures"])
                                             for m in classed("subtree"))
    assert failures == record["statistics"]["backtracks"]
    assert len(classed("solution")) == 1


def test_a_drawn_trees_title_says_its_options_and_file_as_a_person_would(
        monkeypatch, capsys, tmp_path: Path) -> None:
    target = tmp_path / "lambda.svg"
    _solved(monkeypatch, capsys, "--solver", "cp", "--tree", str(target))
    root = ElementTree.parse(target).getroot()
    title = " ".join(element.text or "" for element in root.iter()
                     if element.attrib.get("class") == "title")
    assert states(title, "alldiff=weak", "lambda", "kul_named_9x9.txt", "classic", "cp")
    assert not any(char in title for char in "{}'")
    assert str(SUDOKU_DATA) not in title  # the file by its name; the JSON keeps the path
    drawn = [element for element in root if element.tag.endswith("svg")]
    assert len(drawn) == 1  # the picture is as wide as its tree, at least a narrow column
    assert float(root.attrib["width"]) == max(float(drawn[0].attrib["width"]), 320)


def test_a_tree_past_its_cap_says_it_is_truncated(monkeypatch, capsys, tmp_path: Path) -> None:
    target = tmp_path / "cut.json"
    record, err = _solved(monkeypatch, capsys, "--solver", "cp", "--tree", str(target),
                          "--tree-nodes", "50")
    tree = json.loads(target.read_text(encoding="utf-8"))
    assert tree["truncated"] is True and len(tree["nodes"]) == 50
    assert "truncated at 50 nodes" in err
    assert record["status"] == "solved"  # the search itself went on


@pytest.mark.parametrize(("solver", "reason"), [("cpsat", "clauses"), ("auto", "race")])
def test_a_solver_without_trees_is_refused_naming_those_with(monkeypatch, capsys,
                                                             tmp_path: Path, solver: str,
                                                             reason: str) -> None:
    load_backends()
    recorders = [name for name in BACKENDS if BACKENDS.get(name).capabilities.search_tree]
    code, out, err = run_cli(monkeypatch, capsys, *LAMBDA, "--solver", solver, "--tree",
                             str(tmp_path / "t.svg"))
    assert code == 2 and out == ""
    # the backend (whole: 'auto' is in 'automata'), what it lacks and why, and those that
    # record trees
    assert states(err, f"'{solver}'", "search trees", reason) and states(err, *recorders)
    assert not (tmp_path / "t.svg").exists()


def test_a_tree_file_of_another_kind_is_refused_before_solving(monkeypatch, capsys,
                                                               tmp_path: Path) -> None:
    code, out, err = run_cli(monkeypatch, capsys, *LAMBDA, "--solver", "cp", "--tree",
                             str(tmp_path / "t.png"))
    assert code == 2 and out == ""
    assert all(suffix in err for suffix in (".json", ".svg", ".pdf", ".png"))


def test_cp_under_its_own_search_is_refused(monkeypatch, capsys, tmp_path: Path) -> None:
    code, _, err = run_cli(monkeypatch, capsys, *LAMBDA, "--solver", "cp", "--heuristic",
                           "auto", "--tree", str(tmp_path / "t.json"))
    assert code == 2 and "own search" in err
