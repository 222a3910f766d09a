"""Whether a run is correct: decided here and nowhere else.

A run's verdict is one of three (benchexec's result categories, cut to what a puzzle
run can be):

- ``correct``: a solution the puzzle's independent checker accepts;
- ``wrong``: a solution the checker rejects, or "unsatisfiable" for an instance that
  has a solution: the one its file gives, or one another run of the same instance
  found and the checker accepted;
- ``unchecked``: nothing to judge (a timeout, a refusal, a crash, or "unsatisfiable"
  where no solution is known).

A wrong run is stored and shown as an ``error`` whatever it claimed, with a message
saying why. :func:`judge` decides as a run ends, from its own answer and the file;
:func:`contradicted` applies the rule across runs, which the store calls as runs
arrive (in either order) and the tables and the report call on what they read.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from experiments.campaign.identity import RunIdentity
from solvers.record import Status


class Verdict(enum.StrEnum):
    """What the checker made of a run's answer (its value is the name stores use)."""

    CORRECT = "correct"
    WRONG = "wrong"
    UNCHECKED = "unchecked"


class Answer(Protocol):
    """What the rules across runs read of a run (a stored record is one)."""

    @property
    def identity(self) -> RunIdentity: ...

    @property
    def status(self) -> Status: ...

    @property
    def verdict(self) -> Verdict: ...


AnswerT = TypeVar("AnswerT", bound=Answer)


@dataclass(frozen=True)
class Judgement:
    """A run's status, verdict and message once its answer is judged."""

    status: Status
    verdict: Verdict
    message: str


REJECTED = "the puzzle checker rejected the solution: "
FALSE_UNSATISFIABLE = "the solver claims there is no solution, but the instance file gives one"


def judge(status: Status, message: str, violations: Sequence[str] | None,
          known_solution: bool) -> Judgement:
    """The judgement of one run from its own answer: ``violations`` is the checker's list
    for the solution found (None: no solution), ``known_solution`` whether the instance's
    file gives one.

    >>> judge(Status.SOLVED, "", ["row 1 holds 2 twice"], False).verdict
    <Verdict.WRONG: 'wrong'>
    >>> judge(Status.UNSATISFIABLE, "", None, True).status
    <Status.ERROR: 'error'>
    >>> judge(Status.TIMEOUT, "", None, True).verdict
    <Verdict.UNCHECKED: 'unchecked'>
    """
    if violations:
        return Judgement(Status.ERROR, Verdict.WRONG, REJECTED + "; ".join(violations))
    if violations is not None:
        return Judgement(status, Verdict.CORRECT, message)
    if status is Status.UNSATISFIABLE and known_solution:
        return Judgement(Status.ERROR, Verdict.WRONG, FALSE_UNSATISFIABLE)
    return Judgement(status, Verdict.UNCHECKED, message)


def can_contradict(run: Answer) -> bool:
    """Whether storing ``run`` may change another run's verdict or its own: only an
    answer (a checked solution, or a claim that there is none) can."""
    return run.verdict is Verdict.CORRECT or run.status is Status.UNSATISFIABLE


def contradicted(runs: Sequence[Answer]) -> dict[int, str]:
    """The runs (by index in ``runs``) that claim "unsatisfiable" for an instance another
    run found a solution of that the checker accepts, each with the message saying so.

    Runs are of the same instance when they have the same label and file, whatever
    their viewpoint, solver and heuristic.
    """
    found: dict[tuple[str, str], Answer] = {}
    for run in runs:
        if run.verdict is Verdict.CORRECT:
            found.setdefault((run.identity.instance_file, run.identity.instance), run)
    marked = {}
    for index, run in enumerate(runs):
        solved = found.get((run.identity.instance_file, run.identity.instance))
        if run.status is Status.UNSATISFIABLE and solved is not None:
            marked[index] = contradiction(solved)
    return marked


def contradiction(solved: Answer) -> str:
    """What a run claiming "unsatisfiable" is told when run ``solved`` found a solution."""
    found = solved.identity
    return (f"claims there is no solution, but {found.viewpoint} on {found.solver} with "
            f"{found.heuristic} (repeat {found.repeat}) found one the checker accepts")


def marked_wrong(run: AnswerT, message: str) -> AnswerT:
    """``run`` judged wrong, as the store keeps such a run: an ``error`` saying why."""
    changed: AnswerT = dataclasses.replace(  # type: ignore[type-var]  # records are dataclasses
        run, status=Status.ERROR, verdict=Verdict.WRONG, message=message)
    return changed


def judged_against(runs: Iterable[AnswerT], first_answers: Sequence[Answer]
                   ) -> Iterator[AnswerT]:
    """:func:`with_contradictions` as the runs come: ``first_answers`` holds each
    instance's first run with a solution the checker accepted (read beforehand)."""
    found = {(run.identity.instance_file, run.identity.instance): run
             for run in first_answers}
    for run in runs:
        solved = found.get((run.identity.instance_file, run.identity.instance))
        if run.status is Status.UNSATISFIABLE and solved is not None:
            yield marked_wrong(run, contradiction(solved))
        else:
            yield run


def with_contradictions(runs: Sequence[AnswerT]) -> list[AnswerT]:
    """``runs`` with every contradicted "unsatisfiable" judged wrong (:func:`contradicted`)."""
    judged = list(runs)
    for index, message in contradicted(judged).items():
        judged[index] = marked_wrong(judged[index], message)
    return judged


def summary_status(run: Answer) -> str:
    """How a run is counted in a summary: its status, or ``wrong`` when its answer was
    judged wrong (the store keeps it as an ``error`` with verdict ``wrong``)."""
    return Verdict.WRONG.value if run.verdict is Verdict.WRONG else run.status.value
