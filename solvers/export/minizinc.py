"""The model language as a MiniZinc model, written as a person writes one.

The model's named arrays are declared as arrays (``array[1..9, 1..9] of var 1..9:
cell``), 1-based and in the puzzle's own values (:mod:`solvers.export.minizinc_terms`);
values the puzzle fixes are equalities under a comment of their own; each group of
constraints the viewpoint names gets a comment line, and a run of constraints that
differ by one counter is folded into a ``forall``. Each constraint is the MiniZinc
global that means the same (``alldifferent``, ``inverse``, ``table``, ``regular``,
``global_cardinality``, ``count_eq``, ``diffn``), each global's own library file
included, or a plain expression (:mod:`solvers.export.minizinc_constraints`);
``connected`` is its flow decomposition (:mod:`solvers.export.lowering`). The heuristic
is the search annotation (:mod:`solvers.export.minizinc_search`). The output item prints
each array as a grid; ``minizinc --output-mode json`` prints the variables as JSON,
which :func:`read_solution` reads back.

>>> from solvers import Model, all_different
>>> model = Model("pair")
>>> x, y = model.int_var(1, 2, "x"), model.int_var(1, 2, "y")
>>> _ = model.add(all_different([x, y], strength="strong"))
>>> text = write(model, "input/max")
>>> print(text[text.index("var "):text.index("output")].strip())
var 1..2: x;
var 1..2: y;
<BLANKLINE>
constraint alldifferent([x, y]) :: domain_propagation;
<BLANKLINE>
solve :: int_search([x, y], input_order, indomain_max) satisfy;
>>> read_solution('{"x": 2, "y": 1}', model) == {x: 2, y: 1}
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from puzzlelab.errors import SolverError, UnsupportedCombination
from solvers.backend_contract import LoweredModel
from solvers.constraints import Constraint
from solvers.export.lowering import lower_for
from solvers.export.minizinc_constraints import POSTERS
from solvers.export.minizinc_search import annotation, described, others, refusal
from solvers.export.minizinc_terms import Terms
from solvers.heuristics import Heuristic, SearchPlan, plan_search
from solvers.model import Model
from solvers.structure import VarArray
from solvers.variables import Assignment, IntVar

SUFFIX = ".mzn"
FIXED = "what the puzzle gives: fixed values, and the values left to some variables"


def write(model: Model, heuristic: str = "first-fail/min", seed: int = 0) -> str:
    """``model``, searched as ``heuristic``, as the text of one MiniZinc file."""
    parsed = Heuristic.parse(heuristic)
    refused = refusal(parsed)
    if refused:
        raise UnsupportedCombination(f"cannot export heuristic {parsed} to MiniZinc: "
                                     f"{refused}")
    lowering = lower_for(model, NATIVE, "MiniZinc")
    plan = plan_search(model, parsed, seed)
    rest = len(others(plan, lowering.lowered.variables))
    return write_lowered(model, lowering.lowered, plan,
                         [*lowering.notes, described(parsed, plan, seed, rest)],
                         lowering.sources)


def write_lowered(model: Model, lowered: LoweredModel, plan: SearchPlan,
                  notes: Sequence[str] = (), sources: Sequence[int | None] = ()) -> str:
    """The MiniZinc file of ``lowered`` (every constraint in :data:`NATIVE`), searched as
    ``plan``, printing ``model``'s variables; ``notes`` head the file as comments, and
    ``sources`` give, for each lowered constraint, the model constraint it comes from
    (for its group's comment)."""
    terms = Terms(model, lowered.variables)
    notes = list(notes)
    if any(getattr(c, "strength", None) == "hall" for c in lowered.constraints):
        notes.append("all_different of strength hall (ic_global's) asks for "
                     "bounds_propagation, the nearest MiniZinc annotation")
    body = _constraints(model, lowered.constraints, sources, terms)
    used = sorted({POSTERS[type(c)][1] or "" for c in lowered.constraints} - {""})
    lines = [f"% {model.name}: exported by PuzzleLab",
             *(f"% - {note}" for note in notes), "",
             *(f'include "{name}.mzn";' for name in used), *([""] if used else []),
             *_declarations(lowered.variables, model.variables, terms), "", *body]
    search = annotation(plan, lowered.variables, lambda vs: terms.items(vs).flat())
    lines.append(f"solve{f' :: {search}' if search else ''} satisfy;")
    lines += ["", *_output(model, terms)]
    return "\n".join(lines) + "\n"


def _declarations(variables: Sequence[IntVar], model_variables: Sequence[IntVar],
                  terms: Terms) -> list[str]:
    """Each named array at its range of puzzle values, then the scalars; those the
    rewriting added (a flow's, a chain's states) are not printed, so that a count of all
    solutions counts the model's own solutions once each."""
    lines = []
    for array in terms.arrays:
        low, high = array.domain()
        shape = ", ".join(f"1..{size}" for size in array.shape)
        lines.append(f"array[{shape}] of var {low}..{high}: {array.name};")
    own = set(model_variables)
    lines += [f"var {_domain(v)}: {terms.name(v)}{'' if v in own else ' :: no_output'};"
              for v in variables if terms.array_of(v) is None]
    return lines


def _fixed(terms: Terms) -> list[str]:
    """What an array's variables may hold beyond its declared range, in puzzle values:
    a given value, or the values left."""
    lines = []
    for array in terms.arrays:
        low, high = array.domain()
        for variable in array.variables:
            values = [value + array.offset for value in variable.domain]
            if values == list(range(low, high + 1)):
                continue
            if len(values) == 1:
                lines.append(f"constraint {terms.ref(variable)} = {values[0]};")
            elif values == list(range(values[0], values[-1] + 1)):
                lines.append(f"constraint {terms.ref(variable)} in {values[0]}..{values[-1]};")
            else:
                listed = ", ".join(map(str, values))
                lines.append(f"constraint {terms.ref(variable)} in {{{listed}}};")
    return lines


def _constraints(model: Model, constraints: Sequence[Constraint],
                 sources: Sequence[int | None], terms: Terms) -> list[str]:
    """The constraint items: the fixed values first, then each group the viewpoint names
    under its comment, in the order its first constraint was posted (the file's order
    changes no meaning), then those of no group."""
    fixed = _fixed(terms)
    lines = [f"% {FIXED}", *_folded(fixed), ""] if fixed else []
    groups: dict[str | None, list[str]] = {}
    for number, constraint in enumerate(constraints):
        source = sources[number] if number < len(sources) else None
        group = model.groups.get(source) if source is not None else None
        text = f"constraint {POSTERS[type(constraint)][0](constraint, terms)};"
        groups.setdefault(group, []).append(text)
    for group, texts in sorted(groups.items(), key=lambda item: item[0] is None):
        described = model.group_descriptions.get(group or "")
        heading = [] if group is None else [f"% {group}: {described}" if described
                                            else f"% {group}"]
        lines += [*heading, *_folded(texts), ""]
    return lines


NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")


def _folded(texts: list[str]) -> list[str]:
    """Runs of lines alike but for one counter (1, 2, 3... wherever it appears) as one
    ``forall``: nine rows' ``alldifferent`` as ``forall(i in 1..9)(...)``."""
    folded: list[str] = []
    start = 0
    while start < len(texts):
        stop = start + 1
        while stop < len(texts) and _counted(texts[start:stop + 1]) is not None:
            stop += 1
        found = _counted(texts[start:stop]) if stop - start >= 3 else None
        if found is None:
            folded += texts[start:stop]
        else:
            template, place = found
            first = int(NUMBER.findall(texts[start])[place])
            body = template.removeprefix("constraint ").removesuffix(";")
            folded.append(f"constraint forall(i in {first}..{first + stop - start - 1})"
                          f"({body});")
        start = stop
    return folded


def _counted(texts: list[str]) -> tuple[str, int] | None:
    """The template of lines that differ only in numbers counting up by one together
    (the same in every place they appear in a line), with the index of one such place;
    None for lines not so alike."""
    skeletons = {NUMBER.sub("#", text) for text in texts}
    if len(skeletons) != 1 or len(texts) < 2:
        return None
    numbers = [[int(n) for n in NUMBER.findall(text)] for text in texts]
    varying = [k for k in range(len(numbers[0])) if len({row[k] for row in numbers}) > 1]
    if not varying or any(row[k] - numbers[0][k] != step for step, row in enumerate(numbers)
                          for k in varying):
        return None
    if any(len({row[k] for k in varying}) != 1 for row in numbers):
        return None
    places = iter(range(len(numbers[0])))
    template = NUMBER.sub(lambda m: "i" if next(places) in varying else m.group(0), texts[0])
    return template, varying[0]


def read_solution(text: str, model: Model) -> Assignment:
    """The assignment one solution printed as JSON (``--output-mode json``) gives the
    model's variables: each array a nest of lists in puzzle values, each scalar by
    its identifier."""
    try:
        values = json.loads(text)
    except json.JSONDecodeError as error:
        raise SolverError(f"MiniZinc printed a solution that is not JSON: {text[:80]!r} "
                          f"({error.msg})") from None
    terms = Terms(model, model.variables)
    assignment: dict[IntVar, int] = {}
    for array in terms.arrays:
        flat = _flat(values.get(array.name), array)
        assignment.update((v, value - array.offset) for v, value in zip(array.variables, flat))
    missing = []
    for variable in model.variables:
        if terms.array_of(variable) is None:
            name = terms.name(variable)
            if name in values:
                assignment[variable] = int(values[name])
            else:
                missing.append(name)
    if missing:
        raise SolverError(f"MiniZinc's solution lacks {', '.join(missing[:5])}")
    return assignment


def _flat(nested: object, array: VarArray) -> list[int]:
    """The values of a printed array, row-major; refuses a missing or misshapen one."""
    values: list[object] = [nested]
    for _ in array.shape:
        if not all(isinstance(v, list) for v in values):
            raise SolverError(f"MiniZinc's solution lacks the array {array.name}")
        values = [item for v in values for item in v]  # type: ignore[attr-defined]
    if len(values) != len(array.variables):
        raise SolverError(f"MiniZinc's solution has {len(values)} values for the array "
                          f"{array.name} of {len(array.variables)}")
    return [int(v) for v in values]  # type: ignore[call-overload]


def _domain(variable: IntVar) -> str:
    if variable.is_contiguous:
        return f"{variable.lb}..{variable.ub}"
    return "{" + ", ".join(map(str, variable.domain)) + "}"


def _output(model: Model, terms: Terms) -> list[str]:
    """Each array of two dimensions as a grid, a row a line; the rest as ``name = ...``."""
    lines = []
    for array in terms.arrays:
        if len(array.shape) == 2:
            rows, columns = array.shape
            lines.append(f'  "{array.name}:\\n",')
            lines.append(f'  concat([show({array.name}[r, c]) ++ if c = {columns} then '
                         f'"\\n" else " " endif | r in 1..{rows}, c in 1..{columns}]),')
        else:
            lines.append(f'  "{array.name} = ", show({array.name}), "\\n",')
    lines += [f'  "{terms.name(v)} = ", show({terms.name(v)}), "\\n",'
              for v in model.variables if terms.array_of(v) is None]
    if lines:
        lines[-1] = lines[-1].removesuffix(",")
    return ["output [", *lines, "];"]


#: the constraints a MiniZinc file states directly; the rest are decomposed
NATIVE: frozenset[type[Constraint]] = frozenset(POSTERS)
