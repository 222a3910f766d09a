"""The records the executors make: of a solve that answered, and of a run that gave no
answer (it crashed, was killed, or was refused)."""

from __future__ import annotations

from experiments.campaign.identity import RunIdentity
from experiments.campaign.record import RunRecord
from experiments.campaign.solving import PuzzleRun
from puzzles import PUZZLES
from solvers.record import Status


def record_of_run(run: PuzzleRun) -> RunRecord:
    """The record of a judged solve, its solution in the puzzle's JSON form."""
    result = run.result
    solution = (None if run.solution is None
                else PUZZLES.get(run.identity.puzzle).solution_to_json(run.solution))
    return RunRecord(identity=run.identity, status=run.status, complete=result.complete,
                     message=run.message, verdict=run.verdict, violations=run.violations,
                     matches_known=run.matches_known, solution=solution,
                     statistics=result.statistics, symmetric=result.symmetric,
                     portfolio=result.portfolio)


def unanswered(identity: RunIdentity, status: Status, message: str = "") -> RunRecord:
    """The record of a run that ended without an answer: a crash, a kill or a refusal."""
    return RunRecord(identity=identity, status=status, message=message)
