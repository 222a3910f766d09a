"""``puzzlelab explain``: each instance of a file explained step by step
(:mod:`experiments.reasoning.explaining`), or a hint on a partly filled grid
(:mod:`experiments.reasoning.hints`)."""

from __future__ import annotations

from argparse import ArgumentParser, Namespace
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from experiments.cli.app import (
    command,
    note,
    parse_options,
    positive_time_limit,
    say,
    styled,
    writable,
)
from experiments.cli.spinner import working
from puzzlelab.errors import OptionError, PuzzleLabError, SolverError, UnsupportedCombination

if TYPE_CHECKING:
    from experiments.reasoning.hints import Hint
    from experiments.reasoning.steps import Explanation, Step

#: seconds the explanation of one instance may take, unless --time-limit says
DEFAULT_TIME_LIMIT = 60.0


def _explain_arguments(parser: ArgumentParser) -> None:
    from puzzles import PUZZLES  # names only: no puzzle module is imported

    parser.add_argument("puzzle", metavar="PUZZLE",
                        help="puzzle of the file: " + ", ".join(PUZZLES.names()))
    parser.add_argument("file", metavar="FILE", type=Path, help="instance file")
    parser.add_argument("--instance", metavar="NAME", action="append", default=[],
                        help="explain only this instance (name or 1-based number), "
                             "repeatable; by default every instance of the file")
    parser.add_argument("--viewpoint", help="viewpoint whose constraints are the reasons "
                                            "(default: the puzzle's default one)")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                        help="viewpoint option NAME=VALUE, repeatable")
    parser.add_argument("--json", action="store_true", dest="as_json",
                        help="print a JSON list, one explanation per instance (with "
                             "--from: one hint)")
    parser.add_argument("--difficulty-only", action="store_true",
                        help="print a JSON list of summaries only: instance, difficulty "
                             "(the hardest step's cost), total cost, steps, ending")
    parser.add_argument("--html", type=Path, metavar="FILE",
                        help="also write a page that steps through the explanations")
    parser.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT,
                        metavar="SECONDS",
                        help=f"seconds the explanation of one instance may take (default "
                             f"{DEFAULT_TIME_LIMIT:g})")
    parser.add_argument("--from", type=Path, dest="partial", metavar="PARTIAL",
                        help="a hint: PARTIAL is the instance partly filled in, in the "
                             "puzzle's format (its clues plus a person's entries); wrong "
                             "entries are named with why, else the next steps are given")
    parser.add_argument("--steps", type=int, metavar="N",
                        help="give at most N steps (with --from, 1 is the next step)")


@command("explain", _explain_arguments)
def explain(given: Namespace) -> int | None:
    """Explain each instance of a file step by step: each step a fact derived from a few
    of the viewpoint's constraints and earlier facts, the cheapest first, with its cost,
    and the explanation's difficulty (its hardest step's cost). With --from, a hint on a
    partly filled grid (see docs/explanations.md)."""
    import json

    from experiments.cli.grading import picked_instances

    _check(given)
    writable("--html", given.html)
    page = None if given.html is None else _page_maker()
    options = parse_options(given.option)
    instances = picked_instances(given.puzzle, given.file, given.instance)
    if given.partial is not None:
        return _hint(given, instances, options)
    explanations = []
    try:
        for number, instance in enumerate(instances, 1):
            with working(f"explaining {number} of {len(instances)}"):
                explanations.append(_explained(given, instance, options))
    except SolverError as failed:
        note(f"error: {failed}")
        return 1
    if given.difficulty_only:
        say(json.dumps([explained.summary_json() for explained in explanations]))
    elif given.as_json:
        say(json.dumps([explained.to_json() for explained in explanations]))
    else:
        for explained in explanations:
            _print_explanation(explained)
    if page is not None:
        try:
            given.html.write_text(page(explanations, instances), encoding="utf-8")
        except OSError as error:
            raise PuzzleLabError(f"--html {given.html}: {error.strerror or error}") from None
        note(f"wrote {given.html}")
    return None


def _check(given: Namespace) -> None:
    """The options' values, before anything is read or built."""
    positive_time_limit(given.time_limit)
    if given.steps is not None and given.steps < 1:
        raise OptionError(f"--steps must be at least 1, not {given.steps}")
    if given.partial is not None and (given.difficulty_only or given.html is not None):
        raise OptionError("--from gives a hint, which has no --difficulty-only or --html "
                          "form: leave them out")


def _explained(given: Namespace, instance: Any, options: dict[str, str]) -> Explanation:
    from experiments.reasoning.explaining import explain as explain_instance

    return explain_instance(instance, viewpoint=given.viewpoint, options=options,
                            time_limit=given.time_limit, steps=given.steps)


def _hint(given: Namespace, instances: list[Any], options: dict[str, str]) -> int | None:
    """``--from PARTIAL``: the hint on the one instance asked."""
    import json

    from experiments.reasoning.hints import hint
    from puzzles import PUZZLES

    if len(instances) != 1:
        raise OptionError(f"--from gives a hint on one instance; {given.file} has "
                          f"{len(instances)}: pick one with --instance")
    partials = PUZZLES.get(given.puzzle).read(given.partial)
    if len(partials) != 1:
        raise OptionError(f"--from {given.partial}: give a file of one partly filled grid, "
                          f"not {len(partials)}")
    try:
        with working("finding a hint"):
            found = hint(instances[0], partials[0], viewpoint=given.viewpoint,
                         options=options, time_limit=given.time_limit, steps=given.steps)
    except SolverError as failed:
        note(f"error: {failed}")
        return 1
    if given.as_json:
        name = PUZZLES.get(given.puzzle).instance_name(instances[0])
        say(json.dumps([{"instance": name, **found.to_json()}]))
    else:
        _print_hint(found)
    return None


def _print_hint(found: Hint) -> None:
    """The entries, then each wrong one with why, or the next steps."""
    say(styled("entries: ", "bold") + (", ".join(fact.text for fact in found.entries)
                                       or "none"))
    for wrong in found.wrong:
        say(styled(f"{wrong.entry.text} is wrong", "red"))
        if wrong.step is None:
            say("  (the time limit came before a step showing why)")
        else:
            _print_reasons(wrong.step)
    if found.explanation is not None:
        for number, step in enumerate(found.explanation.steps, 1):
            _print_step(number, step)
        say(f"{found.explanation.ending}: {found.explanation.note}")


def _print_explanation(explained: Explanation) -> None:
    """The instance, its steps, how they ended, the difficulty and total cost."""
    say(styled(f"{explained.instance}", "bold") + f"  ({explained.viewpoint})")
    for number, step in enumerate(explained.steps, 1):
        _print_step(number, step)
    say(f"{explained.ending}: {explained.note}")
    say(f"difficulty {explained.difficulty}, total cost {explained.total_cost}")
    say("")


def _print_step(number: int, step: Step) -> None:
    say(f"{number:>3}. " + styled(f"[cost {step.cost}]", "cyan") + f" {step.text}")
    _print_reasons(step)


def _print_reasons(step: Step) -> None:
    """What a step uses and derives, one kind a line."""
    constraints = "; ".join(f"{reason.text} ({reason.description or reason.group})"
                            for reason in step.constraints)
    say(f"       constraints: {constraints}")
    if step.premises:
        say(f"       premises: {', '.join(fact.text for fact in step.premises)}")
    derived = "no solution" if step.contradiction else "; ".join(
        fact.text for fact in step.facts)
    say(f"       {'shows' if step.contradiction else 'facts'}: {derived}")


def _page_maker() -> Callable[[list[Explanation], list[Any]], str]:
    """The page that steps through explanations (:mod:`.explain_page`), or the refusal
    of ``--html`` before any work when this version has none."""
    try:
        from experiments.reasoning.explain_page import explanation_page
    except ImportError:
        raise UnsupportedCombination("--html: this version has no explanation page") from None
    return explanation_page


def weight_rows() -> list[dict[str, str]]:
    """What each part of a step costs, read off :mod:`~experiments.reasoning.explain_units`
    (a reference table, as :mod:`experiments.cli.reference` makes them): an open premise
    by the values it rules out."""
    from experiments.reasoning.explain_units import (
        FIXED_PREMISE_WEIGHT,
        GROUP_WEIGHTS,
        RULED_OUT_WEIGHT,
        UNIT_WEIGHT,
    )
    from viewpoints import load_viewpoints
    from viewpoints.terms import RULED_OUT_WEIGHTS

    load_viewpoints()  # each puzzle declares its own weight beside its terms

    return [{"a step uses": "one constraint (a label's constraints) of any other group",
             "cost": str(UNIT_WEIGHT)},
            *({"a step uses": f"one constraint of the group `{group}`", "cost": str(weight)}
              for group, weight in GROUP_WEIGHTS.items()),
            {"a step uses": "one premise that fixes a variable (a clue, an entry, `r3c1 = 5`)",
             "cost": str(FIXED_PREMISE_WEIGHT)},
            {"a step uses": "one premise that leaves several values, for each value it "
                            "rules out (`r3c1 is not 5` one, `r3c1 is not 5 or 6` two)",
             "cost": str(RULED_OUT_WEIGHT)},
            *({"a step uses": f"the same, on a {puzzle} puzzle", "cost": str(weight)}
              for puzzle, weight in RULED_OUT_WEIGHTS.items())]
