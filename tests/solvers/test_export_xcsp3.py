"""Export to XCSP3: readable names, XCSP3's own constraints, the decision annotation,
clear refusals, and (where java and pycsp3's ACE are installed) solutions that ACE
finds in the exported file, read back, decoded and accepted by the checker, and
solution counts that agree with the ``cp`` backend's."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest

from experiments.campaign.solving import solve as solve_puzzle
from puzzlelab.errors import SolverError, UnsupportedCombination
from puzzles import PUZZLES
from solvers import (
    Model,
    Rectangle,
    all_different,
    at_most_one,
    clause,
    count,
    element,
    equivalent_to_equality,
    exactly_one,
    global_cardinality,
    inverse,
    linear,
    no_overlap_2d,
    regular,
    solve,
    table,
)
from solvers.constraints import (
    AllDifferent,
    AtMostOne,
    Clause,
    Constraint,
    Count,
    Element,
    ExactlyOne,
    GlobalCardinality,
    Inverse,
    Linear,
    NoOverlap2D,
    Regular,
    ReifiedEquality,
    Table,
)
from solvers.export import FORMATS, export
from solvers.export.ace import AceRun, missing, parse_output, run_ace
from solvers.export.lowering import lower_for
from solvers.export.xcsp3 import NATIVE, read_solution, write
from solvers.variables import Assignment
from tests.solvers.test_export_minizinc import SMALL, Odd, built, option_cases, small_instance
from tests.solvers.tiny_models import TINY_MODELS, brute_force_count
from viewpoints import DEFAULTS, VIEWPOINTS, get_viewpoint, load_viewpoints

load_viewpoints()

#: the XCSP3 element each constraint type becomes
ELEMENTS: dict[type[Constraint], str] = {
    AllDifferent: "allDifferent", Inverse: "channel", Linear: "sum", Element: "element",
    Count: "count", GlobalCardinality: "cardinality", Table: "extension",
    Regular: "regular", ReifiedEquality: "intension", Clause: "intension",
    ExactlyOne: "sum", AtMostOne: "sum", NoOverlap2D: "noOverlap",
}
needs_ace = pytest.mark.skipif(bool(missing()), reason=f"ACE cannot run: {missing()}")
DATA = Path(__file__).parents[2] / "puzzles" / "data"


def parsed(text: str) -> ElementTree.Element:
    return ElementTree.fromstring(text)


def declared(root: ElementTree.Element) -> dict[str, str]:
    """Each declared variable's id and domain."""
    return {var.get("id", ""): (var.text or "").strip() for var in root.iter("var")}


def header(text: str) -> str:
    return text[text.index("<!--"):text.index("-->")]


@pytest.mark.parametrize("puzzle", sorted(SMALL))
def test_default_viewpoint_exports_with_readable_names(puzzle: str) -> None:
    defaults = DEFAULTS.get(puzzle)
    model = get_viewpoint(puzzle, defaults.viewpoint).build(small_instance(puzzle),
                                                            defaults.options).model
    root = parsed(export(model, "xcsp3"))
    assert root.tag == "instance" and root.get("format") == "XCSP3"
    assert root.get("type") == "CSP"
    ids = declared(root)
    for variable in model.variables:
        assert variable.name in ids, variable
        assert re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", variable.name)


@pytest.mark.parametrize("key", sorted(VIEWPOINTS))
def test_each_constraint_is_its_xcsp3_element(key: str) -> None:
    model = built(key).model
    root = parsed(write(model))
    constraints = root.find("constraints")
    assert constraints is not None
    tags = {child.tag for child in constraints}
    for kind in {type(c) for c in model.constraints} & set(ELEMENTS):
        # a tiny allDifferent ACE would turn into a table is written as that table
        assert ELEMENTS[kind] in tags or (kind is AllDifferent and "extension" in tags), kind


def test_sums_carry_coefficients_and_the_comparison() -> None:
    model = Model("sums")
    x, y = model.int_var(0, 3, "x"), model.int_var(0, 3, "y")
    model.add(Linear(((2, x), (-1, y)), "!=", 1))
    model.add(ExactlyOne((model.bool_var("a"), model.bool_var("b"))))
    first, second = parsed(write(model)).iter("sum")
    assert (first.findtext("list") or "").split() == ["x", "y"]
    assert (first.findtext("coeffs") or "").split() == ["2", "-1"]
    assert (first.findtext("condition") or "").strip() == "(ne,1)"
    assert second.find("coeffs") is None
    assert (second.findtext("condition") or "").strip() == "(eq,1)"


def test_channel_is_zero_based_and_element_too() -> None:
    model = Model("zero-based")
    forward = [model.int_var(0, 1, f"f{i}") for i in range(2)]
    backward = [model.int_var(0, 1, f"b{i}") for i in range(2)]
    model.add(inverse(forward, backward))
    model.add(element([5, 6], model.int_var(0, 1, "i"), model.int_var(5, 6, "v")))
    root = parsed(write(model))
    for found in (root.find("constraints/channel"), root.find("constraints/element")):
        assert found is not None
        assert {lst.get("startIndex") for lst in found.iter("list")} == {"0"}


def test_ace_forms_add_only_helpers_fixed_by_the_model() -> None:
    """Constants among variables, mixed counts, a narrowed index and a copy for a
    repeated variable: the forms ACE 2.6 reads, said at the top of the file."""
    model = TINY_MODELS["element"]()
    model.add(global_cardinality(model.variables[:2], {0: 1, 3: model.int_var(0, 2, "n")}))
    text = write(model)
    root = parsed(text)
    assert len(list(root.iter("cardinality"))) == 2
    ids = declared(root)
    assert ids["index"] == "-1..3" and any(name.startswith("copy_index") for name in ids)
    assert "helper variables" in header(text)


def test_a_table_that_allows_nothing_cannot_hold() -> None:
    model = Model("empty")
    model.add(table([model.int_var(0, 2, "x"), model.int_var(0, 2, "y")], []))
    root = parsed(write(model))
    assert root.find("constraints/extension") is None
    assert (root.findtext("constraints/sum/condition") or "").strip() == "(lt,0)"


@pytest.mark.parametrize(("heuristic", "options"), [
    ("first-fail/min", "-varh=Dom -valh=First"), ("input/max", "-varh=Lexico -valh=Last"),
    ("dom-wdeg", "-varh=WdegOnDom -valh=First"), ("dom-deg", "-varh=DdegOnDom")])
def test_the_heuristic_is_the_decision_annotation(heuristic: str, options: str) -> None:
    model = built("sudoku/classic").model
    text = write(model, heuristic)
    decision = (parsed(text).findtext("annotations/decision") or "").split()
    assert set(decision) == {v.name for v in model.search_variables()}
    assert heuristic.split("/")[0] in header(text) and options in header(text)


def test_auto_writes_no_annotation() -> None:
    assert parsed(write(built("sudoku/classic").model, "auto")).find("annotations") is None


@pytest.mark.parametrize(("heuristic", "said"), [
    ("first-fail+probe", "probing"), ("first-fail+dway", "two ways"),
    ("first-fail+symmetric", "+symmetric")])
def test_a_search_xcsp3_cannot_state_is_refused(heuristic: str, said: str) -> None:
    with pytest.raises(UnsupportedCombination, match=re.escape(said)):
        write(built("sudoku/classic").model, heuristic)


def test_a_constraint_with_no_form_is_refused_by_name() -> None:
    model = Model("odd")
    model.add(Odd(model.int_var(0, 3, "x")))
    with pytest.raises(UnsupportedCombination, match="no odd constraint"):
        write(model)


def test_connected_is_exported_as_its_flow_and_said_so() -> None:
    text = write(built("hashi/bridges", {"connect": "lazy"}).model)
    assert "lazy" in header(text) and "connected" in header(text) and "flow" in header(text)


def test_formats_are_named() -> None:
    assert FORMATS["xcsp3"] == "solvers.export.xcsp3"


def test_solutions_are_read_back_compact_or_not() -> None:
    model = Model("read")
    x, y, z = (model.int_var(0, 3, name) for name in "xyz")
    out = ("\x1b[92mv\x1b[0m  <instantiation id='sol1' type='solution'> <list> z x aux_3 y "
           "</list> <values> 2x2 1 3 </values> </instantiation>\n")
    assert read_solution(out, model) == {x: 2, y: 3, z: 2}
    with pytest.raises(SolverError, match="lacks y"):
        read_solution("v <instantiation> <list> x z </list> <values> 1 2 </values> "
                      "</instantiation>", model)


def test_ace_output_is_parsed() -> None:
    out = ("v  <instantiation id='sol1' type='solution'> <list> x </list> <values> 1 "
           "</values> </instantiation>\n\ns SATISFIABLE\n\nd FOUND SOLUTIONS  1,584\n\n"
           "d COMPLETE EXPLORATION\n")
    assert parse_output(out) == AceRun("SATISFIABLE", (out.split("\n")[0][3:],), 1584, True)
    with pytest.raises(SolverError, match="no answer"):
        parse_output("Problem when parsing the instance. Fix the problem.")


# ----- ACE solves the exported files ------------------------------------------------


def solved_by_ace(model: Model, folder: Path, max_solutions: int | None = 1,
                  heuristic: str = "first-fail/min", options: tuple[str, ...] = ()) -> AceRun:
    path = folder / "model.xml"
    path.write_text(write(model, heuristic), encoding="utf-8")
    return run_ace(path, max_solutions, options, time_limit=60)


def assert_solved_by_ace(key: str, options: dict[str, str], folder: Path) -> None:
    viewpoint = VIEWPOINTS.get(key)
    instance = small_instance(viewpoint.puzzle)
    model_built = viewpoint.build(instance, options)
    run = solved_by_ace(model_built.model, folder)
    assert run.status == "SATISFIABLE", run
    assignment = run.assignments(model_built.model)[0]
    assert model_built.model.satisfied_by(assignment)
    solution = model_built.decode(assignment)
    assert PUZZLES.get(viewpoint.puzzle).check(instance, solution) == []


@needs_ace
@pytest.mark.parametrize("key", sorted(VIEWPOINTS))
def test_ace_solves_every_viewpoint(key: str, tmp_path: Path) -> None:
    assert_solved_by_ace(key, {}, tmp_path)


def distinct(assignments: list[Assignment], model: Model) -> int:
    return len({tuple(a[v] for v in model.variables) for a in assignments})


def kitchen_sink() -> Model:
    """One of each constraint, with the forms ACE needs helped: a constant among
    element's variables and an index reaching outside, a channel over a narrowed
    domain, constant and variable counts, mixed rectangle lengths, an allDifferent ACE
    would make a table; a few hundred solutions."""
    model = TINY_MODELS["element"]()  # element([3, free, 1, 4], index in -1..3, value)
    _, value, free = model.variables
    model.add(linear([(2, value), (-1, free)], ">=", 4))
    forward = [model.int_var(1, 2, "f0"), model.int_var(0, 2, "f1"), model.int_var(0, 2, "f2")]
    model.add(inverse(forward, [model.int_var(0, 2, f"b{i}") for i in range(3)]))
    model.add(global_cardinality(forward, {0: 1, 2: model.int_var(0, 1, "twos")}))
    model.add(count(forward, 1, model.int_var(0, 3, "ones")))
    cells = [model.int_var(0, 2, "c0"), model.int_var(1, 1, "c1"), model.int_var(0, 2, "c2")]
    model.add(all_different(cells))
    x0, x1, width = model.int_var(0, 1, "x0"), model.int_var(0, 2, "x1"), model.int_var(1, 2, "w")
    model.add(no_overlap_2d([Rectangle(x0, 0, 2, 1), Rectangle(x1, 0, width, 1)]))
    model.add(table([cells[0], x0], [(0, 0), (2, 1), (0, 1)]))
    flags = [model.bool_var(f"flag{i}") for i in range(4)]
    model.add(equivalent_to_equality(flags[0], free, 2))
    model.add(clause([flags[1], flags[2]], [flags[0]]))
    model.add(exactly_one(flags[1:3]))
    model.add(at_most_one([flags[0], flags[3]]))
    model.add(regular(flags, [(0, 0, 0), (0, 1, 1), (1, 0, 1), (1, 1, 2)], 0, [1]))
    return model


@needs_ace
def test_ace_counts_what_cp_counts_on_one_of_each(tmp_path: Path) -> None:
    model = kitchen_sink()
    run = solved_by_ace(model, tmp_path, max_solutions=0)
    expected = solve(model, "cp", max_solutions=0)
    assert run.complete and expected.complete
    assignments = run.assignments(model)
    assert all(model.satisfied_by(a) for a in assignments)
    assert run.found == distinct(assignments, model) == expected.statistics.solutions > 1


@needs_ace
def test_ace_says_unsatisfiable(tmp_path: Path) -> None:
    model = Model("empty-table")
    model.add(table([model.int_var(0, 2, "x"), model.int_var(0, 2, "y")], []))
    run = solved_by_ace(model, tmp_path, max_solutions=0)
    assert (run.status, run.found, run.complete) == ("UNSATISFIABLE", 0, True)


#: a small instance with several solutions of each puzzle (file under data, instance;
#: shikaku's is given as text: two dominoes in a 2x2 grid, side by side or stacked)
SEVERAL = {"sudoku": ("sudoku/multi_4x4.txt", 2),
           "nonogram": ("nonogram/small/six_solutions_3x3.non", 1),
           "hashi": ("hashi/small/several.txt", 1),
           "shikaku": ("== two\n2 2\n2 -\n- 2\n", 1)}


def several(puzzle: str) -> Any:
    kind = PUZZLES.get(puzzle)
    file, number = SEVERAL[puzzle]
    instances = kind.parse(file) if "\n" in file else kind.read(DATA / file)
    return instances[number - 1]


#: the most solutions of a file read where the export added variables (a flow for
#: connected): one layout may have very many flows, each a solution of the file
FLOW_LIMIT = 5000


def count_both(key: str, folder: Path, heuristic: str = "first-fail/min",
               options: tuple[str, ...] = ()) -> None:
    """ACE's count equals cp's: ACE's own count where the export added no variables,
    else the distinct assignments of the model's variables among up to
    :data:`FLOW_LIMIT` solutions of the file (skipped when there are more)."""
    puzzle, viewpoint = key.split("/")
    instance = several(puzzle)
    model = get_viewpoint(puzzle, viewpoint).build(instance, {}).model
    added = len(lower_for(model, NATIVE, "XCSP3").lowered.variables) > len(model.variables)
    run = solved_by_ace(model, folder, FLOW_LIMIT if added else None, heuristic, options)
    if not run.complete:
        pytest.skip(f"the exported file of {key} has more than {FLOW_LIMIT} solutions "
                    f"(flows of the connected decomposition) to project")
    expected = solve_puzzle(instance, viewpoint=viewpoint, solver="cp", heuristic=heuristic,
                     max_solutions=0)
    assert expected.result.complete
    count = expected.result.statistics.solutions
    assert distinct(run.assignments(model), model) == count > 1
    if not added:
        assert run.found == count


@needs_ace
@pytest.mark.parametrize("key", ["sudoku/classic", "nonogram/regular"])
def test_ace_counts_what_cp_counts(key: str, tmp_path: Path) -> None:
    count_both(key, tmp_path)


@needs_ace
def test_ace_counts_the_same_with_the_options_the_file_names(tmp_path: Path) -> None:
    """The ACE options the header names for first-fail/min run and change no count."""
    model = get_viewpoint("shikaku", "cell-room").build(several("shikaku"), {}).model
    named = re.search(r"nearest ACE options: ([^\n(]*)", write(model))
    assert named is not None and "-varh=Dom" in named.group(1)
    count_both("shikaku/cell-room", tmp_path, options=tuple(named.group(1).split()))


@needs_ace
@pytest.mark.slow
@pytest.mark.parametrize(("key", "options"), option_cases(),
                         ids=[f"{k}-{'-'.join(f'{n}={v}' for n, v in o.items())}"
                              for k, o in option_cases()])
def test_ace_solves_every_option(key: str, options: dict[str, str], tmp_path: Path) -> None:
    assert_solved_by_ace(key, options, tmp_path)


@needs_ace
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(TINY_MODELS))
def test_ace_counts_each_tiny_model_by_brute_force(name: str, tmp_path: Path) -> None:
    model = TINY_MODELS[name]()
    run = solved_by_ace(model, tmp_path, max_solutions=0)
    assignments = run.assignments(model)
    assert run.complete and all(model.satisfied_by(a) for a in assignments)
    assert distinct(assignments, model) == brute_force_count(model)


@needs_ace
@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(VIEWPOINTS))
def test_ace_counts_what_cp_counts_for_every_viewpoint(key: str, tmp_path: Path) -> None:
    count_both(key, tmp_path)
