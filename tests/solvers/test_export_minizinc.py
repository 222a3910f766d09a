"""Export to MiniZinc: readable names, MiniZinc's globals, the heuristic as the search,
clear refusals, and (where ``minizinc`` is installed) solutions that MiniZinc with
Gecode finds in the exported file, read back, decoded and accepted by the checker."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from puzzlelab.errors import UnsupportedCombination
from puzzles import PUZZLES
from solvers import Model
from solvers.backends.minizinc import GECODE_CONFIGURATION as GECODE
from solvers.constraints import (
    AllDifferent,
    Constraint,
    Count,
    GlobalCardinality,
    Inverse,
    NoOverlap2D,
    Regular,
    Table,
)
from solvers.export import FORMATS, export
from solvers.export.minizinc import identifiers, read_solution, write
from solvers.variables import Assignment, IntVar
from viewpoints import DEFAULTS, VIEWPOINTS, BuiltModel, get_viewpoint, load_viewpoints

load_viewpoints()

#: a small shipped instance of each puzzle: (file, instance)
SMALL = {"sudoku": ("sudoku/small_4x4.txt", "1"), "hashi": ("hashi/small/small.txt", "2"),
         "shikaku": ("shikaku/small/small.txt", "1"),
         "nonogram": ("nonogram/small/nonogram-4x4-d0.5-s3-1.non", None)}
#: the MiniZinc global each constraint type becomes
GLOBALS: dict[type[Constraint], str] = {
    AllDifferent: "alldifferent(", Inverse: "inverse(", Table: "table(",
    Regular: "regular(", GlobalCardinality: "global_cardinality(", Count: "count_eq(",
    NoOverlap2D: "diffn(",
}
needs_minizinc = pytest.mark.skipif(shutil.which("minizinc") is None or
                                    shutil.which("fzn-gecode") is None,
                                    reason="MiniZinc and Gecode are not installed (Debian: "
                                           "apt-get install minizinc flatzinc)")


def small_instance(puzzle: str) -> Any:
    kind = PUZZLES.get(puzzle)
    file, number = SMALL[puzzle]
    instances = kind.read(kind.data_folder().parent / file)
    return instances[int(number) - 1 if number else 0]


def built(key: str, options: dict[str, str] | None = None) -> BuiltModel[Any]:
    viewpoint = VIEWPOINTS.get(key)
    return viewpoint.build(small_instance(viewpoint.puzzle), options or {})


@pytest.mark.parametrize("puzzle", sorted(SMALL))
def test_default_viewpoint_exports_with_readable_names(puzzle: str) -> None:
    defaults = DEFAULTS.get(puzzle)
    model = get_viewpoint(puzzle, defaults.viewpoint).build(small_instance(puzzle),
                                                            defaults.options).model
    text = export(model, "minizinc")
    for variable in model.variables:
        assert re.search(rf"^var [^:]+: {variable.name};$", text, re.MULTILINE), variable
        assert f'\\"{variable.name}\\": \\({variable.name})' in text  # printed by name


@pytest.mark.parametrize("key", sorted(VIEWPOINTS))
def test_each_global_is_minizincs_own(key: str) -> None:
    model = built(key).model
    text = write(model)
    for kind in {type(c) for c in model.constraints} & set(GLOBALS):
        assert GLOBALS[kind] in text, kind.__name__


@pytest.mark.parametrize(("heuristic", "annotation"), [
    ("first-fail/min", "first_fail, indomain_min)"), ("input/max", "input_order, indomain_max)"),
    ("dom-wdeg", "dom_w_deg, indomain_min)"), ("dom-deg", "first_fail, indomain_min)")])
def test_the_heuristic_is_the_search_annotation(heuristic: str, annotation: str) -> None:
    text = write(built("sudoku/classic").model, heuristic)
    assert re.search(r"^solve :: int_search\(\[cell_\d_\d, .*\], " + re.escape(annotation)
                     + " satisfy;$", text, re.MULTILINE)


def test_auto_leaves_the_search_to_the_solver() -> None:
    assert "\nsolve satisfy;\n" in write(built("sudoku/classic").model, "auto")


def test_variables_not_branched_on_are_labelled_after() -> None:
    text = write(built("sudoku/channeled", {"search": "cells"}).model, "first-fail")
    assert "seq_search([" in text and "input_order, indomain_min)" in text


@pytest.mark.parametrize(("heuristic", "said"), [
    ("first-fail/random", "ranking"), ("first-fail+probe", "probing"),
    ("first-fail+dway", "two ways"), ("first-fail+symmetric", "+symmetric")])
def test_a_search_minizinc_cannot_state_is_refused(heuristic: str, said: str) -> None:
    with pytest.raises(UnsupportedCombination, match=re.escape(said)):
        write(built("sudoku/classic").model, heuristic)


def test_connected_is_exported_as_its_flow_and_said_so() -> None:
    model = built("hashi/bridges", {"connect": "lazy"}).model
    header = write(model).split("\n\n")[0]
    assert "lazy" in header and "connected" in header and "flow" in header


@dataclass(frozen=True, eq=False)
class Odd(Constraint):
    """A constraint no format knows and nothing decomposes."""

    item: IntVar

    def variables(self) -> tuple[IntVar, ...]:
        return (self.item,)

    def holds(self, assignment: Assignment) -> bool:
        return assignment[self.item] % 2 == 1


def test_a_constraint_with_no_form_is_refused_by_name() -> None:
    model = Model("odd")
    model.add(Odd(model.int_var(0, 3, "x")))
    with pytest.raises(UnsupportedCombination, match="no odd constraint"):
        write(model)


def test_identifiers_are_valid_distinct_and_close_to_the_names() -> None:
    model = Model("names")
    for name in ("cell_3_4", "x-1", "1st", "var", "x_1"):
        model.int_var(0, 1, name)
    names = identifiers(model.variables)
    assert names[:4] == ["cell_3_4", "x_1", "v_1st", "var_"]
    assert len(set(names)) == 5
    assert all(re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name) for name in names)


def test_formats_are_named() -> None:
    assert "minizinc" in FORMATS


def solve_with_gecode(text: str, folder: Path) -> str:
    """The first solution line MiniZinc with Gecode prints for the exported ``text``."""
    path = folder / "model.mzn"
    path.write_text(text, encoding="utf-8")
    finished = subprocess.run(["minizinc", "--solver", str(GECODE), str(path)],
                              capture_output=True, text=True, timeout=60, check=False)
    assert finished.returncode == 0, finished.stderr[-2000:]
    return next(line for line in finished.stdout.splitlines() if line.startswith("{"))


def assert_solved_by_minizinc(key: str, options: dict[str, str], heuristic: str,
                              folder: Path) -> None:
    viewpoint = VIEWPOINTS.get(key)
    instance = small_instance(viewpoint.puzzle)
    model_built = viewpoint.build(instance, options)
    assignment = read_solution(solve_with_gecode(write(model_built.model, heuristic), folder),
                               model_built.model)
    assert model_built.model.satisfied_by(assignment)
    solution = model_built.decode(assignment)
    assert PUZZLES.get(viewpoint.puzzle).check(instance, solution) == []


@needs_minizinc
@pytest.mark.parametrize("key", sorted(VIEWPOINTS))
def test_minizinc_solves_every_viewpoint(key: str, tmp_path: Path) -> None:
    assert_solved_by_minizinc(key, {}, "first-fail/min", tmp_path)


@needs_minizinc
@pytest.mark.parametrize("puzzle", sorted(SMALL))
def test_minizinc_solves_the_defaults(puzzle: str, tmp_path: Path) -> None:
    """The default viewpoint and options; the default heuristic, except Hashi's, which is
    CP-SAT's own search, where Gecode needs a heuristic (docs/export.md says so)."""
    defaults = DEFAULTS.get(puzzle)
    heuristic = "islands-first/max" if puzzle == "hashi" else defaults.heuristic
    assert_solved_by_minizinc(f"{puzzle}/{defaults.viewpoint}", dict(defaults.options),
                              heuristic, tmp_path)


def option_cases() -> list[tuple[str, dict[str, str]]]:
    """Every viewpoint with each value of each of its options (the others default)."""
    cases = []
    for key in sorted(VIEWPOINTS):
        for name, option in VIEWPOINTS.get(key).options.items():
            cases += [(key, {name: str(value)}) for value in option.choices or ()
                      if value != option.default]
    return cases


@needs_minizinc
@pytest.mark.slow
@pytest.mark.parametrize(("key", "options"), option_cases(),
                         ids=[f"{k}-{'-'.join(f'{n}={v}' for n, v in o.items())}"
                              for k, o in option_cases()])
def test_minizinc_solves_every_option(key: str, options: dict[str, str],
                                      tmp_path: Path) -> None:
    assert_solved_by_minizinc(key, options, "first-fail/min", tmp_path)
