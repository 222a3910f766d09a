"""What a results store keeps of an instance reads back as the same instance, under the
same name, for every puzzle and every bundled file, whatever the file's format.

A store keeps ``stored_text`` (stores made before it kept ``write``, the main format) and
the instance's name; a report reads the text back with ``stored_instance`` when the
instance file is gone. The file a campaign read is not named after the instance (a
``kul_aplai_2019.txt`` of six), so a format that names its instance after its file must
not decide the name read back. The cases come from ``PUZZLES``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from puzzles import PUZZLES, PuzzleKind
from puzzles.kind import DataSet
from puzzles.text_input import read_text

KINDS = [PUZZLES.get(name) for name in PUZZLES.names()]
SETS = [(kind, data_set) for kind in KINDS for data_set in kind.data_sets()]

Writer = Callable[[PuzzleKind[Any, Any], Any], str]
WRITERS: dict[str, Writer] = {
    "stored": lambda kind, instance: kind.stored_text(instance),
    # what stores made before stored_text kept: the main format, with the known solution
    "main-format": lambda kind, instance: kind.write(instance, kind.known_solution(instance)),
}


def some(instances: list[Any]) -> list[Any]:
    """The first instance, the second, one from the middle and the last (each once)."""
    picked = (0, 1, len(instances) // 2, len(instances) - 1)
    return [instances[index] for index in sorted({i for i in picked if i < len(instances)})]


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize(("kind", "data_set"), SETS,
                         ids=[f"{kind.name}-{data_set.name}" for kind, data_set in SETS])
def test_a_stored_instance_reads_back_the_same_under_its_name(
        kind: PuzzleKind[Any, Any], data_set: DataSet, writer: str) -> None:
    for file in data_set.files:
        for instance in some(kind.read(file)):
            name = kind.instance_name(instance)
            again = kind.stored_instance(WRITERS[writer](kind, instance), name, str(file))
            assert again == instance, (file, name)
            assert kind.instance_name(again) == name, file
            assert kind.known_solution(again) == kind.known_solution(instance), (file, name)


def first_file_of_several(kind: PuzzleKind[Any, Any]) -> Path:
    """The first bundled file holding several instances (skipped where none does)."""
    files = [file for data_set in kind.data_sets() for file in data_set.files]
    several = next((file for file in files if len(kind.read(file)) > 1), None)
    if several is None:
        pytest.skip(f"no bundled {kind.name} file holds several instances")
    return several


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_a_puzzle_whose_files_name_their_instances_stores_the_name(
        kind: PuzzleKind[Any, Any]) -> None:
    """A puzzle whose files hold several instances tells them apart by names its format
    carries: its stored text carries the name too, read from wherever it is kept."""
    several = first_file_of_several(kind)
    for instance in some(kind.read(several)):
        name = kind.instance_name(instance)
        parsed = kind.parse(kind.stored_text(instance), f"elsewhere/other{kind.suffixes[0]}")
        assert [kind.instance_name(again) for again in parsed] == [name]


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_a_text_of_several_instances_gives_the_one_named(kind: PuzzleKind[Any, Any]) -> None:
    """A text of several instances is picked from by name, never renamed: none of the name
    asked for is None (the report then looks for the instance file)."""
    several = first_file_of_several(kind)
    text = read_text(several)
    instances = kind.parse(text, str(several))
    second = kind.instance_name(instances[1])
    found = kind.stored_instance(text, second, str(several))
    assert found is not None and kind.instance_name(found) == second
    assert found == instances[1]
    assert kind.stored_instance(text, "no such instance", str(several)) is None


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_the_only_instance_of_a_text_takes_the_stored_name(kind: PuzzleKind[Any, Any],
                                                          tmp_path: Path) -> None:
    """A text of one instance named otherwise (a format named after its file, as older
    stores kept) reads back under the name the store gives it."""
    [data_set, *_] = kind.data_sets()
    instance = kind.read(data_set.files[0])[0]
    renamed = kind.renamed(instance, "stored name")
    assert kind.instance_name(renamed) == "stored name" and renamed != instance
    text = kind.write(instance, kind.known_solution(instance))
    again = kind.stored_instance(text, "stored name", str(tmp_path / "other.txt"))
    assert again == renamed and kind.known_solution(again) == kind.known_solution(instance)
