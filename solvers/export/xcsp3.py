"""The model language as an XCSP3 instance: one ``.xml`` file that ACE reads.

Each variable keeps its model name (:func:`solvers.export.names.identifiers`), each
constraint becomes the XCSP3 constraint that means the same (``allDifferent``,
``sum``, ``extension``, ``regular``, ``cardinality``, ``count``, ``element``,
``channel``, ``noOverlap``, ``intension`` for reified equalities and clauses; the
forms in :mod:`solvers.export.xcsp3_constraints`), and ``connected`` its flow
decomposition (:mod:`solvers.export.lowering`). The heuristic's decision variables are
the ``<decision>`` annotation (:mod:`solvers.export.xcsp3_search`). ACE prints each
solution as an ``<instantiation>`` of ids and values, which :func:`read_solution`
reads back.

>>> from solvers import Model, all_different
>>> model = Model("pair")
>>> x, y = model.int_var(1, 2, "x"), model.int_var(1, 2, "y")
>>> _ = model.add(all_different([x, y]))
>>> text = write(model, "input/max")
>>> print(text[text.index("<variables>"):text.index("</constraints>")].strip())
<variables>
    <var id="x"> 1..2 </var>
    <var id="y"> 1..2 </var>
  </variables>
  <constraints>
    <allDifferent> x y </allDifferent>
>>> line = "v <instantiation> <list> x y </list> <values> 2 1 </values> </instantiation>"
>>> read_solution(line, model) == {x: 2, y: 1}
True
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence

from puzzlelab.errors import SolverError, UnsupportedCombination
from solvers.backend_contract import LoweredModel
from solvers.constraints import AllDifferent, Constraint
from solvers.export.lowering import lower_for
from solvers.export.names import identifiers
from solvers.export.xcsp3_constraints import POSTERS, Context, domain_text
from solvers.export.xcsp3_search import described, refusal
from solvers.heuristics import Heuristic, SearchPlan, plan_search
from solvers.model import Model
from solvers.variables import Assignment

SUFFIX = ".xml"

#: the constraints an XCSP3 file states directly; the rest are decomposed
NATIVE: frozenset[type[Constraint]] = frozenset(POSTERS)

_INSTANTIATION = re.compile(r"<instantiation\b.*?</instantiation>", re.DOTALL)
_COLOURS = re.compile(r"\x1b\[[0-9;]*m")


def write(model: Model, heuristic: str = "first-fail/min", seed: int = 0) -> str:
    """``model``, searched as ``heuristic``, as the text of one XCSP3 file."""
    parsed = Heuristic.parse(heuristic)
    refused = refusal(parsed)
    if refused:
        raise UnsupportedCombination(f"cannot export heuristic {parsed} to XCSP3: {refused}")
    lowering = lower_for(model, NATIVE, "XCSP3")
    plan = plan_search(model, parsed, seed)
    covers_all = set(plan.variables) == set(lowering.lowered.variables)
    return write_lowered(model, lowering.lowered, plan,
                         [*lowering.notes, described(parsed, plan, seed, covers_all)])


def write_lowered(model: Model, lowered: LoweredModel, plan: SearchPlan,
                  notes: Sequence[str] = ()) -> str:
    """The XCSP3 file of ``lowered`` (every constraint in :data:`NATIVE`), with ``plan``'s
    decision variables; ``notes`` head the file as a comment."""
    context = Context(identifiers(lowered.variables))
    notes = list(notes)
    if any(isinstance(c, AllDifferent) and c.strength != "weak" for c in lowered.constraints):
        notes.append("all_different strengths have no XCSP3 form: ACE chooses its own "
                     "propagation of allDifferent")
    posted = [text for c in lowered.constraints if (text := POSTERS[type(c)](c, context))]
    if context.helpers:
        notes.append(f"{len(context.helpers)} helper variables (const_*, copy_*), each "
                     f"fixed by the model's own, where ACE reads only variables")
    lines = ['<instance format="XCSP3" type="CSP">',
             f"  <!-- {_comment(model.name)}: exported by PuzzleLab",
             *(f"       - {_comment(note)}" for note in notes), "  -->",
             "  <variables>"]
    lines += [f'    <var id="{context.name(v)}"> {domain_text(v)} </var>'
              for v in lowered.variables]
    lines += [*context.helpers, "  </variables>", "  <constraints>",
              *posted, *context.helper_constraints, "  </constraints>"]
    if not plan.auto and plan.variables:
        decision = " ".join(context.name(v) for v in plan.variables)
        lines += ["  <annotations>", f"    <decision> {decision} </decision>",
                  "  </annotations>"]
    lines.append("</instance>")
    return "\n".join(lines) + "\n"


def read_solution(text: str, model: Model) -> Assignment:
    """The assignment one printed solution (ACE's ``v <instantiation ...>`` line, the
    values perhaps compact, ``0x3`` for ``0 0 0``) gives the model's variables."""
    found = _INSTANTIATION.search(_COLOURS.sub("", text))
    if found is None:
        raise SolverError(f"ACE printed no <instantiation>: {text[:80]!r}")
    try:
        element = ElementTree.fromstring(found.group())
    except ElementTree.ParseError as error:
        raise SolverError(f"ACE printed an instantiation that is not XML: "
                          f"{found.group()[:80]!r} ({error})") from None
    ids = (element.findtext("list") or "").split()
    values: list[int] = []
    for token in (element.findtext("values") or "").split():
        value, times = token.split("x") if "x" in token else (token, "1")
        values += [int(value)] * int(times)
    if len(ids) != len(values):
        raise SolverError(f"ACE printed {len(ids)} ids and {len(values)} values")
    by_id = dict(zip(ids, values))
    names = identifiers(model.variables)
    missing = [name for name in names if name not in by_id]
    if missing:
        raise SolverError(f"ACE's solution lacks {', '.join(missing[:5])}")
    return {variable: by_id[name] for variable, name in zip(model.variables, names)}


def _comment(text: str) -> str:
    """``text`` safe inside an XML comment (no ``--``)."""
    return re.sub(r"-(?=-)", "- ", text)
