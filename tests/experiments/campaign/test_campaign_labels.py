"""Instance labels are unique within a campaign: files with the same name in different
folders are each their own instance, in the store and in the tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from experiments.analysis.tables import build_tables, format_table
from experiments.campaign.grid import distinct_path_ends, expand
from experiments.campaign.runner import run_campaign
from experiments.campaign.spec import load_spec
from experiments.campaign.store import ResultsStore
from puzzlelab.errors import SpecError
from tests.facts import states
from tests.paths import NONOGRAM_DATA, SUDOKU_DATA

PUZZLES_4X4 = ["....13...24.....", "...1..3.2....4.2", "3.........4..41."]


def spec_text(puzzle: str, files: list[str], name: str = "labels") -> str:
    listed = ", ".join(f'"{file}"' for file in files)
    return (f'name = "{name}"\npuzzle = "{puzzle}"\ninstances = [{listed}]\n'
            f'viewpoints = ["{"classic" if puzzle == "sudoku" else "regular"}"]\n'
            f'solvers = ["cp"]\nheuristics = ["input/min"]\ntime_limit = 10\n')


def labels(spec_path: Path) -> list[str]:
    tasks = expand(load_spec(spec_path)).tasks
    return list(dict.fromkeys(task.identity.instance for task in tasks))


def test_same_named_files_in_different_folders_are_stored_and_tabulated_apart(
        tmp_path: Path) -> None:
    for folder, puzzle in zip("abc", PUZZLES_4X4):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "p.txt").write_text(puzzle + "\n")
    spec = tmp_path / "spec.toml"
    spec.write_text(spec_text("sudoku", ["a/p.txt", "b/p.txt", "c/p.txt"]))
    assert labels(spec) == ["a/p#1", "b/p#1", "c/p#1"]
    # resuming compares the name the file gives, not the label (which other files decide)
    assert {json.loads(task.identity.key)[1] for task in expand(load_spec(spec)).tasks} == {"p#1"}
    run_campaign(load_spec(spec), jobs=1, results_root=tmp_path / "results",
                 show_progress=False)
    with ResultsStore(tmp_path / "results" / "labels" / "runs.sqlite") as store:
        rows = store.runs()
    assert [(r.identity.instance_file, r.identity.instance, r.status) for r in rows] == [
        ("a/p.txt", "a/p#1", "solved"), ("b/p.txt", "b/p#1", "solved"),
        ("c/p.txt", "c/p#1", "solved")]
    cells = dict(build_tables(rows)[0].rows)
    assert [label for label in cells][:3] == ["a/p#1", "b/p#1", "c/p#1"]
    assert cells["solved"] == ("3/3", "")
    assert "| c/p#1 |" in format_table(rows, fmt="markdown")


def test_one_puzzle_files_named_after_themselves_are_labelled_by_their_path(
        tmp_path: Path) -> None:
    plus = "\n".join(line for line in (NONOGRAM_DATA / "small" / "plus_3x3.non").read_text(
    ).splitlines() if not line.startswith("title"))  # neither a name nor a title
    for folder in ("x/a", "y/a", "b", "c"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "p.non").write_text(plus)
    (tmp_path / "b" / "q.non").write_text(plus)
    spec = tmp_path / "spec.toml"
    spec.write_text(spec_text("nonogram", ["x/a/p.non", "y/a/p.non", "b/p.non", "c/p.non",
                                           "b/q.non"]))
    # the shortest end of each path no other file shares; a file alone keeps its name
    assert labels(spec) == ["x/a/p", "y/a/p", "b/p", "c/p", "q"]


def test_names_the_files_give_stay_and_are_prefixed_only_where_two_files_share_one(
        tmp_path: Path) -> None:
    solution = "1234341221434321"
    for folder, names in (("one", ("lambda", "hard")), ("two", ("lambda", "easy"))):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "set.txt").write_text("".join(
            f"{name} set 1 {puzzle} {solution}\n" for name, puzzle in
            zip(names, ("1...............", ".2.............."))))
    spec = tmp_path / "spec.toml"
    spec.write_text(spec_text("sudoku", ["one/set.txt", "two/set.txt", "one/../one/set.txt"]))
    assert labels(spec) == ["one/set:lambda", "hard", "two/set:lambda", "easy"]


def test_a_label_still_given_twice_is_refused_naming_both_instances(tmp_path: Path) -> None:
    def block(name: str) -> str:
        return f"== {name}\nproblem:\n4 4\n1 - - -\n- - - -\n- - - -\n- - - -\n"

    (tmp_path / "a.txt").write_text(block("q"))
    (tmp_path / "b.txt").write_text(block("q"))
    (tmp_path / "c.txt").write_text(block("a:q"))  # what a.txt's q becomes beside b.txt's
    spec = tmp_path / "spec.toml"
    spec.write_text(spec_text("sudoku", ["a.txt", "b.txt", "c.txt"]))
    with pytest.raises(SpecError) as refused:
        expand(load_spec(spec))
    # the item at fault, the label, and both instances: each with its file and item
    assert states(str(refused.value), "key 'instances[2]'", "label 'a:q'",
                  "'q' of a.txt (instances[0])", "'a:q' of c.txt (instances[2])")


def test_bundled_files_are_labelled_by_name_or_title(write_spec) -> None:
    spec = write_spec(spec_text("sudoku", [f"{SUDOKU_DATA.as_posix()}/small_4x4.txt"]))
    assert labels(spec)[:2] == ["small_4x4#1", "small_4x4#2"]
    survey = NONOGRAM_DATA / "webpbn_survey"
    spec = write_spec(spec_text("nonogram", [(survey / "knotty.non").as_posix(),
                                             (survey / "webpbn-00001.non").as_posix()]))
    assert labels(spec) == ["Knotty Puzzle", "Demo Puzzle from Front Page"]  # titles


def test_a_path_end_is_the_shortest_no_other_path_ends_with() -> None:
    assert distinct_path_ends(["a/p.txt", "b/p.txt"]) == ["a/p", "b/p"]
    assert distinct_path_ends(["p.txt", "a/p.txt"]) == ["p", "a/p"]
    assert distinct_path_ends(["../x/p.txt", "../x/p.sdk"]) == ["p.txt", "p.sdk"]


def test_a_title_labels_an_instance_its_file_does_not_name(tmp_path: Path) -> None:
    """Nonogram files name their puzzle only by the file's name; their title labels it,
    and a title two files share is prefixed with the path, like a shared name."""
    plus = (NONOGRAM_DATA / "small" / "plus_3x3.non").read_text()
    for folder, title in (("a", "Plus"), ("b", "Plus"), ("c", "Cross")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "p.non").write_text(
            f'title "{title}"\n' + "\n".join(line for line in plus.splitlines()
                                              if not line.startswith("title")))
    spec = tmp_path / "spec.toml"
    spec.write_text(spec_text("nonogram", ["a/p.non", "b/p.non", "c/p.non"]))
    assert labels(spec) == ["a/p:Plus", "b/p:Plus", "Cross"]
