"""Every registered puzzle fills the contract: its files read and round-trip, its generator
makes instances whose known solution passes its checker, its data sets are there.

The cases come from ``PUZZLES``: a new puzzle module is tested here without a line
added to this file."""

from __future__ import annotations

import inspect
import json
import random
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest

from experiments.generate import COMMAND_OPTIONS
from puzzlelab.errors import ParseError
from puzzles import PUZZLES, PuzzleKind
from puzzles.kind import ROLES, DataSet

KINDS = [PUZZLES.get(name) for name in PUZZLES.names()]
SETS = [(kind, data_set) for kind in KINDS for data_set in kind.data_sets()]


def kind_id(kind: PuzzleKind[Any, Any]) -> str:
    return kind.name


@pytest.mark.parametrize("kind", KINDS, ids=kind_id)
def test_a_puzzle_is_one_module_named_after_it(kind: PuzzleKind[Any, Any]) -> None:
    module = inspect.getmodule(type(kind))
    assert module is not None and module.__name__ == f"puzzles.{kind.name.replace('-', '_')}"
    assert kind.suffixes and all(suffix.startswith(".") for suffix in kind.suffixes)
    assert not inspect.isabstract(type(kind))


@pytest.mark.parametrize("kind", KINDS, ids=kind_id)
def test_the_bundled_data_is_there_with_its_sources(kind: PuzzleKind[Any, Any]) -> None:
    assert (kind.data_folder() / "SOURCES.md").is_file()
    sets = kind.data_sets()
    assert sets and all(data_set.files for data_set in sets)
    assert len({data_set.name for data_set in sets}) == len(sets)


@pytest.mark.parametrize(("kind", "data_set"), SETS,
                         ids=[f"{kind.name}-{data_set.name}" for kind, data_set in SETS])
def test_every_bundled_file_reads_and_its_first_instances_round_trip(
        kind: PuzzleKind[Any, Any], data_set: DataSet, tmp_path: Path) -> None:
    for file in data_set.files:
        instances = kind.read(file)
        names = [kind.instance_name(instance) for instance in instances]
        assert instances and len(set(names)) == len(names), file
        for instance in instances:
            known = kind.known_solution(instance)
            assert known is None or kind.check(instance, known) == [], file
        for instance in instances[:2]:
            assert_round_trip(kind, instance, tmp_path)
    assert kind.load(data_set.files[0], 1) == kind.read(data_set.files[0])[0]


def assert_round_trip(kind: PuzzleKind[Any, Any], instance: object, folder: Path) -> None:
    """read(write(instance)) is the instance, with its name and known solution."""
    text = kind.write(instance, kind.known_solution(instance))
    path = folder / f"{kind.instance_name(instance)}{kind.suffixes[0]}"
    path.write_text(text, encoding="utf-8")
    [again] = kind.read(path)
    assert again == instance
    assert kind.instance_name(again) == kind.instance_name(instance)
    assert kind.known_solution(again) == kind.known_solution(instance)
    assert kind.write(again, kind.known_solution(again)) == text
    assert kind.parse(text, str(path)) == [again]


@pytest.mark.parametrize("kind", KINDS, ids=kind_id)
@pytest.mark.parametrize("seed", [0, 1])
def test_a_generated_instance_is_solved_by_its_known_solution(
        kind: PuzzleKind[Any, Any], seed: int, tmp_path: Path) -> None:
    options = kind.resolve_generator_options({})
    instance = kind.generate(options, random.Random(seed), "made")
    assert instance is not None and kind.instance_name(instance) == "made"
    known = kind.known_solution(instance)
    assert known is not None and kind.check(instance, known) == []
    assert_round_trip(kind, instance, tmp_path)
    again = kind.generate(options, random.Random(seed), "made")
    assert kind.write(again, known) == kind.write(instance, known)  # the seed decides


@pytest.mark.parametrize("kind", KINDS, ids=kind_id)
def test_a_generator_given_a_uniqueness_test_uses_it_or_leaves_it_to_the_caller(
        kind: PuzzleKind[Any, Any]) -> None:
    """An oracle that says "unique" to everything: whatever comes back still has a known
    solution that its checker accepts, and every instance asked about is a real one."""
    asked: list[object] = []

    def always(instance: object) -> bool:
        asked.append(instance)
        return True

    instance = kind.generate(kind.resolve_generator_options({}), random.Random(0), "made",
                             always)
    assert instance is not None
    for candidate in [*asked, instance]:
        known = kind.known_solution(candidate)
        assert known is not None and kind.check(candidate, known) == []


@pytest.mark.parametrize("kind", KINDS, ids=kind_id)
def test_generator_options_are_declared_in_full(kind: PuzzleKind[Any, Any]) -> None:
    assert kind.generator_options, "a puzzle's generator has options (a size at least)"
    for name, option in kind.generator_options.items():
        assert name not in COMMAND_OPTIONS, f"--{name} is an option of the command itself"
        assert option.help and "\n" not in option.help
        if option.default is not None:
            assert option.accept(option.default, name) == option.default
            assert option.accept(str(option.default), name) == option.default
    resolved = kind.resolve_generator_options({})
    assert set(resolved) == set(kind.generator_options)


@pytest.mark.parametrize("kind", KINDS, ids=kind_id)
def test_pictures_and_json(kind: PuzzleKind[Any, Any]) -> None:
    instance = kind.generate(kind.resolve_generator_options({}), random.Random(0), "made")
    known = kind.known_solution(instance)
    assert kind.render_text(instance).strip()
    assert kind.render_text(instance, known) != kind.render_text(instance)
    for picture in (kind.render_svg(instance), kind.render_svg(instance, known)):
        ElementTree.fromstring(picture)
    assert json.loads(json.dumps(kind.solution_to_json(known))) == kind.solution_to_json(known)


@pytest.mark.parametrize("kind", KINDS, ids=kind_id)
def test_instances_and_solutions_draw_themselves_in_a_notebook(
        kind: PuzzleKind[Any, Any]) -> None:
    """Jupyter shows an instance as its puzzle's SVG picture, and a solution as the
    picture of the instance the puzzle makes of it (text where it makes none)."""
    instance = kind.generate(kind.resolve_generator_options({}), random.Random(0), "made")
    known = kind.known_solution(instance)
    assert instance._repr_svg_() == kind.render_svg(instance)
    drawn_on = kind.drawing_instance(known)
    assert known._repr_svg_() == (None if drawn_on is None
                                  else kind.render_svg(drawn_on, known))


@pytest.mark.parametrize(("kind", "data_set"), SETS,
                         ids=[f"{kind.name}-{data_set.name}" for kind, data_set in SETS])
def test_a_solution_reads_back_from_its_json_form(kind: PuzzleKind[Any, Any],
                                                  data_set: DataSet) -> None:
    """The store keeps solutions as JSON and the report draws them back: the round trip
    gives the same solution, which the checker still accepts."""
    known = [(instance, kind.known_solution(instance))
             for instance in kind.read(data_set.files[0])[:3]]
    generated = kind.generate(kind.resolve_generator_options({}), random.Random(1), "made")
    for instance, solution in [*known, (generated, kind.known_solution(generated))]:
        if solution is None:
            continue
        form = json.loads(json.dumps(kind.solution_to_json(solution)))
        again = kind.solution_from_json(form)
        assert again == solution and kind.check(instance, again) == []


@pytest.mark.parametrize("kind", KINDS, ids=kind_id)
@pytest.mark.parametrize("bad", [None, 7, "rows", [], [["1"]], [[True]], [[1, 2], 3]],
                         ids=repr)
def test_a_malformed_json_solution_is_refused_saying_why(kind: PuzzleKind[Any, Any],
                                                         bad: object) -> None:
    if bad == [] and kind.name == "hashi":
        assert kind.solution_from_json(bad) is not None  # no bridge at all: a real answer
        return
    with pytest.raises(ParseError, match=f"(?i){kind.name.split('-')[0]}.* solution"):
        kind.solution_from_json(bad)


@pytest.mark.parametrize("kind", KINDS, ids=kind_id)
def test_each_role_takes_the_contracts_arguments(kind: PuzzleKind[Any, Any]) -> None:
    """A role filled by a module function (not checked by mypy against the contract, as a
    method stated in the class is) takes the arguments the contract passes."""
    for role in ROLES:
        contract = inspect.signature(getattr(PuzzleKind, role))
        wanted = [p.name for p in contract.parameters.values() if p.name != "self"]
        filled = inspect.signature(getattr(kind, role))
        assert len(filled.parameters) >= len(wanted), (role, filled)
        required = [p for p in filled.parameters.values() if p.default is p.empty]
        assert len(required) <= sum(1 for p in contract.parameters.values()
                                    if p.default is p.empty and p.name != "self"), role
