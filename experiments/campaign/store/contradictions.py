"""Runs that claim "unsatisfiable" for an instance another run solved, marked wrong in the
store as soon as both are stored, whichever came first.

The rule is :func:`experiments.campaign.verdicts.contradicted`; this module applies it
to the runs table, reading as little as it can: only an answer (a checked solution, or
a claim that there is none) can change a verdict, and claims are rare, so the instances
some run claims unsatisfiable are read once and kept up to date, and the common run
asks the database nothing more.
"""

from __future__ import annotations

import sqlite3

from experiments.campaign.record import RunRecord
from experiments.campaign.store.rows import from_row
from experiments.campaign.verdicts import can_contradict, contradicted
from solvers.record import Status


class Contradictions:
    """The claims of one open store, and the marking of the runs they make wrong."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self._claimed: set[tuple[str, str]] | None = None  # read at the first answer

    def forget(self) -> None:
        """Read the claims again at the next answer (runs were relabelled or deleted)."""
        self._claimed = None

    def after_storing(self, record: RunRecord) -> dict[str, str]:
        """Mark wrong what storing ``record`` contradicts (it included); the keys of the
        runs marked, each with the message saying why."""
        if not self._may_change_a_verdict(record):
            return {}
        return self._mark(record.identity.instance_file, record.identity.instance)

    def _may_change_a_verdict(self, record: RunRecord) -> bool:
        """A claim of no solution, or a solution of an instance claimed unsatisfiable."""
        if not can_contradict(record):
            return False
        instance = (record.identity.instance_file, record.identity.instance)
        if self._claimed is None:
            self._claimed = {(row[0], row[1]) for row in self.connection.execute(
                "SELECT DISTINCT instance_file, instance FROM runs WHERE status = ?",
                (Status.UNSATISFIABLE.value,))}
        if record.status is Status.UNSATISFIABLE:
            self._claimed.add(instance)
            return True
        return instance in self._claimed

    def _mark(self, instance_file: str, instance: str) -> dict[str, str]:
        """Mark wrong the runs of one instance that :func:`contradicted` judges so,
        reading only its answers."""
        claims, answers_found = self.connection.execute(
            "SELECT max(status = ?), max(verdict = 'correct') FROM runs WHERE instance_file = ? "
            "AND instance = ?", (Status.UNSATISFIABLE.value, instance_file, instance)).fetchone()
        if not (claims and answers_found):  # the common case: nothing to contradict
            return {}
        cursor = self.connection.execute(
            "SELECT * FROM runs WHERE instance_file = ? AND instance = ? AND (status = ? OR "
            "verdict = 'correct') ORDER BY id",
            (instance_file, instance, Status.UNSATISFIABLE.value))
        columns = [description[0] for description in cursor.description]
        answers = [from_row(dict(zip(columns, row)), defaults={"puzzle": ""})
                   for row in cursor]
        marked = {answers[index].identity.key: message
                  for index, message in contradicted(answers).items()}
        self.connection.executemany(
            "UPDATE runs SET status = ?, verdict = 'wrong', message = ? WHERE run_key = ?",
            [(Status.ERROR.value, message, key) for key, message in marked.items()])
        return marked
