"""The results store: one SQLite database per experiment, one row per run.

Every run is committed as soon as it ends (WAL journal), so killing the runner
at any moment loses only the runs in flight, and running the spec again resumes
with exactly the missing runs. The ``campaign`` table keeps, for every session
that ran the spec, the spec text and what is needed to reproduce the figures:
start and end, package versions, Python, CPU model, core count, git commit.

A run that claims "unsatisfiable" where another run of the same instance (any
viewpoint, solver, heuristic) found a solution the checker accepts is marked
wrong as soon as both are stored, whichever came first.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

from experiments.analysis.tables import CampaignRuns, contradiction
from experiments.campaign.grid import RunTask, distinct_path_ends
from puzzlelab.errors import PuzzleLabError
from puzzlelab.statistics import STATISTICS
from solvers.record import Status

SCHEMA_VERSION = 1

IDENTITY_COLUMNS = {
    "run_key": "TEXT NOT NULL UNIQUE", "position": "INTEGER NOT NULL",
    "instance_file": "TEXT NOT NULL",
    "instance": "TEXT NOT NULL", "instance_position": "INTEGER NOT NULL",
    "viewpoint": "TEXT NOT NULL", "viewpoint_name": "TEXT NOT NULL",
    "options": "TEXT NOT NULL", "solver": "TEXT NOT NULL", "heuristic": "TEXT NOT NULL",
    "repeat": "INTEGER NOT NULL", "seed": "INTEGER NOT NULL", "time_limit": "REAL NOT NULL",
    "memory_limit_mb": "INTEGER NOT NULL",
}
OUTCOME_COLUMNS = {
    "status": "TEXT NOT NULL", "complete": "INTEGER NOT NULL", "message": "TEXT NOT NULL",
    "verdict": "TEXT NOT NULL", "violations": "TEXT", "matches_known": "INTEGER",
    "solution": "TEXT",
}
RUNNER_COLUMNS = {"worker": "TEXT", "finished_at": "TEXT", "extra": "TEXT"}


def statistic_columns() -> dict[str, str]:
    """A column per declared statistic (:mod:`puzzlelab.statistics`), runner's included."""
    return {s.name: "INTEGER" if s.integer else "REAL"
            for s in (STATISTICS.get(name) for name in STATISTICS)}


def outcome_columns() -> dict[str, str]:
    """The columns a finished run fills: its verdict, its statistics, where it ran."""
    return {**OUTCOME_COLUMNS, **statistic_columns(), **RUNNER_COLUMNS}


def run_columns() -> dict[str, str]:
    """Every column of the runs table."""
    return {**IDENTITY_COLUMNS, **outcome_columns()}


CAMPAIGN_COLUMNS = {
    "name": "TEXT NOT NULL", "spec_path": "TEXT NOT NULL", "spec_text": "TEXT NOT NULL",
    "settings": "TEXT NOT NULL", "started_at": "TEXT NOT NULL", "ended_at": "TEXT",
    "end_state": "TEXT", "executor": "TEXT NOT NULL", "jobs": "INTEGER",
    "planned_runs": "INTEGER", "package_versions": "TEXT", "python": "TEXT",
    "platform": "TEXT", "cpu_model": "TEXT", "cores": "INTEGER", "git_commit": "TEXT",
    "host": "TEXT",
}


def _table_sql(name: str, columns: Mapping[str, str]) -> str:
    body = ",\n  ".join(f'"{column}" {kind}' for column, kind in columns.items())
    return f"CREATE TABLE IF NOT EXISTS {name} (\n  id INTEGER PRIMARY KEY,\n  {body}\n)"


class ResultsStore:
    """An open results database; use as a context manager."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.connection = sqlite3.connect(self.path, timeout=30)
            self.connection.execute("PRAGMA journal_mode=WAL")
        except (OSError, sqlite3.Error) as error:
            reason = error.strerror if isinstance(error, OSError) else str(error)
            raise PuzzleLabError(f"{self.path}: cannot open the results database ({reason})"
                                 ) from None
        self.connection.row_factory = sqlite3.Row
        self.connection.execute("PRAGMA synchronous=NORMAL")
        with self.connection:
            self.connection.execute(_table_sql("runs", run_columns()))
            self.connection.execute(_table_sql("campaign", CAMPAIGN_COLUMNS))
            self._add_missing_columns("runs", run_columns())
            self.connection.execute("CREATE INDEX IF NOT EXISTS runs_by_instance ON runs "
                                    "(instance_file, instance)")
            self.connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _add_missing_columns(self, table: str, columns: Mapping[str, str]) -> None:
        """Bring a database made by an older PuzzleLab up to date (new statistics)."""
        present = {row[1] for row in self.connection.execute(f"PRAGMA table_info({table})")}
        for column, kind in columns.items():
            if column not in present:
                nullable = kind.replace(" NOT NULL", "").replace(" UNIQUE", "")
                self.connection.execute(f'ALTER TABLE {table} ADD COLUMN "{column}" {nullable}')

    @classmethod
    def open_existing(cls, path: str | Path) -> ResultsStore:
        """Open a store that must exist and hold a ``runs`` table (for ``puzzlelab table``)."""
        path = Path(path)
        if not path.is_file():
            raise PuzzleLabError(f"{path}: no such results database")
        try:
            # closing(): a connection's own with-block only commits, and a connection left
            # open at exit leaves the -wal and -shm files behind
            with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as probe:
                tables = {r[0] for r in probe.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as error:
            raise PuzzleLabError(f"{path}: not a results database ({error})") from None
        if "runs" not in tables:
            raise PuzzleLabError(f"{path}: not a results database (no runs table)")
        return cls(path)

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the database (every run is committed already)."""
        self.connection.close()

    def finished_keys(self) -> set[str]:
        """The keys of the runs already stored: what resuming skips."""
        return {row[0] for row in self.connection.execute("SELECT run_key FROM runs")}

    def record_run(self, task: RunTask, outcome: MutableMapping[str, Any]) -> list[str]:
        """Store one finished run and commit at once; then mark wrong every stored run of
        the instance that claims "unsatisfiable" where one has a solution the checker
        accepts (this run, or earlier ones this run contradicts).

        Returns the run keys marked. When this run is one of them, ``outcome`` is changed
        to match what is stored (``error``, verdict ``wrong``), so that what the caller
        counts from it after storing agrees with the store.
        """
        identity = {"run_key": task.key, "position": task.position,
                    "instance_file": task.instance_file,
                    "instance": task.instance, "instance_position": task.instance_position,
                    "viewpoint": task.viewpoint, "viewpoint_name": task.viewpoint_name,
                    "options": json.dumps(dict(task.options), sort_keys=True),
                    "solver": task.solver, "heuristic": task.heuristic,
                    "repeat": task.repeat, "seed": task.seed, "time_limit": task.time_limit,
                    "memory_limit_mb": task.memory_limit_mb}
        row = {**identity, **{c: outcome.get(c) for c in outcome_columns()}}
        columns = ", ".join(f'"{c}"' for c in row)
        marks = ", ".join("?" for _ in row)
        with self.connection:
            self.connection.execute(f"INSERT OR REPLACE INTO runs ({columns}) VALUES ({marks})",
                                    list(row.values()))
            # only an answer (a checked solution, or "unsatisfiable") can contradict another
            answered = (outcome.get("verdict") == "correct"
                        or outcome.get("status") == Status.UNSATISFIABLE.value)
            marked = (self._mark_contradicted(task.instance_file, task.instance) if answered
                      else {})
        if task.key in marked:
            outcome.update(status=Status.ERROR.value, verdict="wrong",
                           message=marked[task.key])
        return list(marked)

    def _mark_contradicted(self, instance_file: str, instance: str) -> dict[str, str]:
        """Mark wrong the runs of one instance that claim "unsatisfiable" where another has
        a checked solution (the rule of
        :func:`~experiments.analysis.tables.contradicted_unsatisfiable`, in two small queries:
        claims are rare, and a campaign stores many runs)."""
        where = "instance_file = ? AND instance = ?"
        claims = self.connection.execute(
            f"SELECT id, run_key FROM runs WHERE {where} AND status = ?",
            (instance_file, instance, Status.UNSATISFIABLE.value)).fetchall()
        solved = self.connection.execute(
            f"SELECT * FROM runs WHERE {where} AND verdict = 'correct' ORDER BY id LIMIT 1",
            (instance_file, instance)).fetchone() if claims else None
        if solved is None:
            return {}
        message = contradiction(dict(solved))
        self.connection.executemany(
            "UPDATE runs SET status = ?, verdict = 'wrong', message = ? WHERE id = ?",
            [(Status.ERROR.value, message, claim["id"]) for claim in claims])
        return {claim["run_key"]: message for claim in claims}

    def start_campaign(self, values: Mapping[str, Any]) -> int:
        """Record the start of a session; returns its id for :meth:`end_campaign`."""
        row = {c: values.get(c) for c in CAMPAIGN_COLUMNS}
        columns = ", ".join(f'"{c}"' for c in row)
        with self.connection:
            cursor = self.connection.execute(
                f"INSERT INTO campaign ({columns}) VALUES ({', '.join('?' for _ in row)})",
                list(row.values()))
        return int(cursor.lastrowid or 0)

    def end_campaign(self, campaign_id: int, ended_at: str, end_state: str) -> None:
        """Record how and when a session ended (``finished`` or ``interrupted``)."""
        with self.connection:
            self.connection.execute("UPDATE campaign SET ended_at = ?, end_state = ? "
                                    "WHERE id = ?", (ended_at, end_state, campaign_id))

    def campaigns(self) -> list[dict[str, Any]]:
        """Every recorded session, oldest first."""
        return [dict(r) for r in self.connection.execute("SELECT * FROM campaign ORDER BY id")]

    def plan(self) -> CampaignPlan:
        """What the latest session set out to run (unknown without a session)."""
        sessions = self.campaigns()
        if not sessions:
            return CampaignPlan(None, None)
        latest = sessions[-1]
        return CampaignPlan(int(json.loads(latest["settings"]).get("repeats", 1)),
                            latest["planned_runs"])

    def runs(self) -> list[dict[str, Any]]:
        """Every stored run in grid order (the order the spec lists them)."""
        query = "SELECT * FROM runs ORDER BY position"
        return [dict(r) for r in self.connection.execute(query)]

    def clear(self) -> None:
        """Forget every run and session (``--fresh``)."""
        with self.connection:
            self.connection.execute("DELETE FROM runs")
            self.connection.execute("DELETE FROM campaign")


CSV_LEFT_OUT = ("solution",)


class CampaignPlan(NamedTuple):
    """The runs per grid cell, and in all, that a campaign plans (None: unknown)."""

    repeats: int | None
    runs: int | None


def runs_as_csv(rows: Iterable[Mapping[str, Any]]) -> str:
    """Every run, one line each, for spreadsheets and pandas (solutions stay in the database)."""
    buffer = io.StringIO()
    fields = ["id", *(c for c in run_columns() if c not in CSV_LEFT_OUT)]
    writer = csv.DictWriter(buffer, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: row.get(k) for k in writer.fieldnames})
    return buffer.getvalue()


def read_campaigns(paths: Sequence[str | Path]) -> list[CampaignRuns]:
    """The runs of several stores, for tables side by side, each under its campaign's
    name, or where two share one, under the shortest end of its folder's path that
    tells them apart."""
    resolved = [Path(path).resolve() for path in paths]
    for index, whole in enumerate(resolved):
        if whole in resolved[:index]:
            raise PuzzleLabError(f"{paths[index]}: the same results database is given twice")
    read = []
    for given in paths:
        with ResultsStore.open_existing(given) as store:
            sessions = store.campaigns()
            name = sessions[-1]["name"] if sessions else Path(given).parent.name
            plan = store.plan()
            read.append(CampaignRuns(str(name), store.runs(), plan.repeats, plan.runs))
    names = [campaign.name for campaign in read]
    if len(set(names)) < len(names):
        folders = distinct_path_ends([str(path.parent) for path in resolved])
        read = [replace(campaign, name=folder) for campaign, folder in zip(read, folders)]
    return read
