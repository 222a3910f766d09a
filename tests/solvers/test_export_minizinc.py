"""Export to MiniZinc: a model as a person writes one (named arrays in the puzzle's values,
a comment per group of constraints, each global's own include, the grid printed),
MiniZinc's globals, the heuristic as the search, clear refusals, and (where ``minizinc``
is installed) every viewpoint's file run by plain ``minizinc``: its solutions read back,
decoded and accepted by the checker, as many as ``cp`` finds."""

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
from solvers.export.minizinc import read_solution, write
from solvers.export.names import identifiers
from solvers.solving import solve
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
def test_default_viewpoint_exports_every_variable_by_a_readable_name(puzzle: str) -> None:
    """Each variable is declared once: in a named array, or as a scalar of its own name;
    each array and each scalar is printed by the output item."""
    defaults = DEFAULTS.get(puzzle)
    model = get_viewpoint(puzzle, defaults.viewpoint).build(small_instance(puzzle),
                                                            defaults.options).model
    text = export(model, "minizinc")
    in_arrays = {v for array in model.arrays.values() for v in array.variables}
    for array in model.arrays.values():
        shape = ", ".join(f"1..{size}" for size in array.shape)
        assert re.search(rf"^array\[{re.escape(shape)}\] of var -?\d+..-?\d+: "
                         rf"{array.name};$", text, re.MULTILINE), array.name
    output = text[text.index("output ["):]
    for variable in model.variables:
        if variable not in in_arrays:
            assert re.search(rf"^var [^:]+: {variable.name};$", text, re.MULTILINE), variable
            assert f"show({variable.name})" in output
    assert all(array.name in output for array in model.arrays.values())


def test_a_sudoku_reads_as_a_student_writes_it() -> None:
    """Lambda's classic viewpoint: one 9x9 array of digits 1..9, the clues as equalities,
    one comment per group, rows and columns each one forall, the grid printed."""
    kind = PUZZLES.get("sudoku")
    lambda_ = next(i for i in kind.read(kind.data_folder() / "kul_named_9x9.txt")
                   if i.name == "lambda")
    text = write(get_viewpoint("sudoku", "classic").build(lambda_, {}).model)
    assert "array[1..9, 1..9] of var 1..9: cell;" in text
    assert re.findall(r"^var ", text, re.MULTILINE) == []  # no scalar left
    givens = [(r, c, v) for r, row in enumerate(lambda_.givens) for c, v in enumerate(row) if v]
    for r, c, v in givens:
        assert f"constraint cell[{r + 1}, {c + 1}] = {v};" in text
    comments = re.findall(r"^% (\w+):", text, re.MULTILINE)
    assert comments[-3:] == ["rows", "columns", "boxes"]
    assert "constraint forall(i in 1..9)(alldifferent(cell[i, ..])" in text
    assert "constraint forall(i in 1..9)(alldifferent(cell[.., i])" in text
    assert "alldifferent(cell[4..6, 7..9])" in text
    assert 'include "alldifferent.mzn";' in text and "globals.mzn" not in text
    assert "show(cell[r, c])" in text[text.index("output ["):]


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
    assert re.search(r"^solve :: int_search\((array1d\(cell\)|\[cell\[\d, \d\], .*\]), "
                     + re.escape(annotation) + " satisfy;$", text, re.MULTILINE)


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


def minizinc_solutions(text: str, folder: Path, every: bool) -> list[str]:
    """The solutions plain ``minizinc`` (its default solver) prints for ``text``, each
    the JSON object ``--output-mode json`` gives: the first, or ``every`` one."""
    path = folder / "model.mzn"
    path.write_text(text, encoding="utf-8")
    command = ["minizinc", "--output-mode", "json", *(["--all-solutions"] if every else []),
               str(path)]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=120,
                              check=False)
    assert finished.returncode == 0, finished.stderr[-2000:]
    return ["{" + block.split("}", 1)[0] + "}"
            for block in finished.stdout.split("{")[1:] if "}" in block]


def with_flows(model: Model) -> bool:
    """Whether the export states connectivity as a flow: several flows may carry one
    layout, so a solver enumerating every solution goes through each (docs/export.md)."""
    return any(c.kind in ("connected", "connected-by-flow")
               for c in [*model.constraints, *model.after_search, *model.lazy])


def assert_solved_by_minizinc(key: str, options: dict[str, str], heuristic: str,
                              folder: Path, count: bool = False) -> None:
    """Plain ``minizinc`` on the export finds solutions the model and the checker accept;
    with ``count``, as many as ``cp`` counts (where a flow states connectivity, the one
    solution ``cp`` finds, which must then be unique)."""
    viewpoint = VIEWPOINTS.get(key)
    instance = small_instance(viewpoint.puzzle)
    model_built = viewpoint.build(instance, options)
    model = model_built.model
    flows = with_flows(model)
    found = minizinc_solutions(write(model, heuristic), folder, every=count and not flows)
    assert found, "MiniZinc found no solution"
    for printed in found:
        assignment = read_solution(printed, model)
        assert model.satisfied_by(assignment)
        solution = model_built.decode(assignment)
        assert PUZZLES.get(viewpoint.puzzle).check(instance, solution) == []
    if count:
        rebuilt = viewpoint.build(instance, options)
        counted = solve(rebuilt.model, "cp", heuristic, max_solutions=0)
        if flows:
            assert counted.statistics.solutions == 1
            assert model_built.decode(read_solution(found[0], model)) == \
                rebuilt.decode(counted.assignment)
        else:
            assert len(found) == counted.statistics.solutions


@needs_minizinc
@pytest.mark.parametrize("key", sorted(VIEWPOINTS))
def test_plain_minizinc_counts_every_viewpoints_solutions_as_cp_does(key: str,
                                                                     tmp_path: Path) -> None:
    assert_solved_by_minizinc(key, {}, "first-fail/min", tmp_path, count=True)


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
