"""The results store: one SQLite database per experiment, one row per run.

Finished runs are committed together, a quarter of a second's worth at a time (WAL
journal; one commit per run cost more than a millisecond's run), so killing the runner
at any moment loses only the runs in flight and the last uncommitted batch, and
running the spec again resumes with exactly the missing runs. The ``campaign`` table
keeps, for every session that ran the spec, the spec text and what is needed to
reproduce the figures: start and end, package versions, Python, CPU model, core count,
git commit. The
``instances`` table keeps each instance as the puzzle writes it, so that a report
draws the campaign's puzzles and answers from the store alone.

A run that claims "unsatisfiable" where another run of the same instance (any
viewpoint, solver, heuristic) found a solution the checker accepts is marked
wrong as soon as both are stored, whichever came first
(:func:`experiments.campaign.verdicts.contradicted` decides).
"""

from __future__ import annotations

import csv
import functools
import io
import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, NamedTuple

from experiments.campaign.record import RunRecord, from_row, run_columns, to_row
from experiments.campaign.verdicts import can_contradict, contradicted, marked_wrong
from puzzlelab.collector import making_lasting_objects
from puzzlelab.errors import PuzzleLabError
from solvers.record import Status

COMMIT_SECONDS = 0.25
"""The longest a stored run waits in the open transaction before the batch is committed."""

SCHEMA_VERSION = 3
"""1: the runs and campaign tables; 2: the instances table; 3: the grid table (older
stores gain them when a campaign runs again, and read without them)."""


@dataclass(frozen=True)
class Session:
    """One session that ran the spec: what it ran, where, when, and how it ended."""

    name: str
    spec_path: str
    spec_text: str
    settings: str  # the spec's settings that decide its runs, as JSON
    started_at: str
    executor: str
    ended_at: str | None = None
    end_state: str | None = None
    jobs: int | None = None
    planned_runs: int | None = None
    package_versions: str | None = None  # JSON
    python: str | None = None
    platform: str | None = None
    cpu_model: str | None = None
    cores: int | None = None
    git_commit: str | None = None
    host: str | None = None
    id: int | None = None


CAMPAIGN_COLUMNS = {
    "name": "TEXT NOT NULL", "spec_path": "TEXT NOT NULL", "spec_text": "TEXT NOT NULL",
    "settings": "TEXT NOT NULL", "started_at": "TEXT NOT NULL", "ended_at": "TEXT",
    "end_state": "TEXT", "executor": "TEXT NOT NULL", "jobs": "INTEGER",
    "planned_runs": "INTEGER", "package_versions": "TEXT", "python": "TEXT",
    "platform": "TEXT", "cpu_model": "TEXT", "cores": "INTEGER", "git_commit": "TEXT",
    "host": "TEXT",
}
"""The columns of a :class:`Session`."""
INSTANCE_COLUMNS = {"instance_file": "TEXT NOT NULL", "name": "TEXT NOT NULL",
                    "label": "TEXT NOT NULL", "text": "TEXT NOT NULL"}
GRID_COLUMNS = {"run_key": "TEXT NOT NULL UNIQUE"}
"""The runs the latest session planned: what the tables show of a store (a campaign that
grew or shrank keeps the runs of cells it no longer plans)."""


@dataclass(frozen=True)
class StoredInstance:
    """An instance as the campaign ran it: its file as the spec wrote it, the puzzle's
    name for it, its label, and its text as the puzzle stores it (``stored_text``: with
    the known solution, when the file gave one)."""

    instance_file: str
    name: str
    label: str
    text: str


class CampaignPlan(NamedTuple):
    """The runs per grid cell, and in all, that a campaign plans (None: unknown)."""

    repeats: int | None
    runs: int | None


def _read_only_connection(path: Path) -> sqlite3.Connection:
    """A connection that only reads. A store in WAL mode needs its ``-shm`` file beside it
    even to be read; where that cannot be made (a read-only mount), SQLite reads the file
    as immutable, which it is there."""
    uri = path.resolve().as_uri()
    try:
        connection = sqlite3.connect(f"{uri}?mode=ro", uri=True)
    except sqlite3.OperationalError:
        return sqlite3.connect(f"{uri}?immutable=1", uri=True)
    try:
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        connection.close()
        connection = sqlite3.connect(f"{uri}?immutable=1", uri=True)
    return connection


@contextmanager
def _closed_on_error(connection: sqlite3.Connection) -> Iterator[None]:
    try:
        yield
    except BaseException:
        connection.close()
        raise


def _table_sql(name: str, columns: Mapping[str, str], unique: str = "") -> str:
    body = ",\n  ".join(f'"{column}" {kind}' for column, kind in columns.items())
    return (f"CREATE TABLE IF NOT EXISTS {name} (\n  id INTEGER PRIMARY KEY,\n  {body}"
            + (f",\n  UNIQUE ({unique})" if unique else "") + "\n)")


class ResultsStore:
    """An open results database; use as a context manager."""

    def __init__(self, path: Path, read_only: bool = False) -> None:
        self.path = Path(path)
        self._committed_at = time.monotonic()
        self._claimed: set[tuple[str, str]] | None = None  # see _may_be_contradicted
        self.read_only = read_only
        if read_only:
            self.connection = _read_only_connection(self.path)
            self.connection.row_factory = sqlite3.Row
            return
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
            self.connection.execute(_table_sql("instances", INSTANCE_COLUMNS,
                                               "instance_file, name"))
            self.connection.execute(_table_sql("grid", GRID_COLUMNS))
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
        """Open a store that must exist and hold a ``runs`` table, to read it only (for
        ``puzzlelab table`` and ``report``: a store on a read-only mount reads too)."""
        path = Path(path)
        if not path.is_file():
            raise PuzzleLabError(f"{path}: no such results database")
        try:
            store = cls(path, read_only=True)
            with _closed_on_error(store.connection):
                tables = store.tables()
        except sqlite3.OperationalError as error:
            raise PuzzleLabError(f"{path}: cannot read the results database ({error})"
                                 ) from None
        except sqlite3.DatabaseError as error:
            raise PuzzleLabError(f"{path}: not a results database ({error})") from None
        if "runs" not in tables:
            store.close()
            raise PuzzleLabError(f"{path}: not a results database (no runs table)")
        return store

    def tables(self) -> set[str]:
        """The tables the database holds (an older store lacks the newer ones)."""
        return {r[0] for r in self.connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Commit what is left and close the database, leaving it one self-contained file
        (no ``-wal`` journal): what a reader that only reads, or git, expects."""
        self.connection.commit()
        if not self.read_only:
            with suppress(sqlite3.OperationalError):  # another connection reads it: WAL stays
                self.connection.execute("PRAGMA journal_mode=DELETE")
        self.connection.close()

    def commit(self) -> None:
        """Commit the runs stored since the last commit."""
        self.connection.commit()
        self._committed_at = time.monotonic()

    def finished_keys(self) -> set[str]:
        """The keys of the runs already stored: what resuming skips."""
        return {row[0] for row in self.connection.execute("SELECT run_key FROM runs")}

    def record_run(self, record: RunRecord) -> tuple[RunRecord, list[str]]:
        """Store one finished run (committed with its batch, :data:`COMMIT_SECONDS`); then
        mark wrong every stored run of the instance that claims "unsatisfiable" where one
        has a solution the checker accepts (this run, or earlier ones it contradicts).
        Returns the record as stored (marked wrong, if it is one of them) and the keys
        of the other runs marked."""
        row = to_row(record)
        self.connection.execute(_insert_sql(tuple(row)), list(row.values()))
        marked = (self._mark_contradicted(record.instance_file, record.instance)
                  if self._may_be_contradicted(record) else {})
        if time.monotonic() - self._committed_at >= COMMIT_SECONDS:
            self.commit()
        if record.key in marked:
            record = marked_wrong(record, marked[record.key])
        return record, [key for key in marked if key != record.key]

    def _may_be_contradicted(self, record: RunRecord) -> bool:
        """Whether storing ``record`` may change a verdict: a claim of no solution, or a
        solution of an instance claimed unsatisfiable (the claims read once, then kept
        here: the common run then asks the database nothing more)."""
        if not can_contradict(record):
            return False
        instance = (record.instance_file, record.instance)
        if self._claimed is None:
            self._claimed = {(row[0], row[1]) for row in self.connection.execute(
                "SELECT DISTINCT instance_file, instance FROM runs WHERE status = ?",
                (Status.UNSATISFIABLE.value,))}
        if record.status is Status.UNSATISFIABLE:
            self._claimed.add(instance)
            return True
        return instance in self._claimed

    def _mark_contradicted(self, instance_file: str, instance: str) -> dict[str, str]:
        """Mark wrong the runs of one instance that :func:`contradicted` judges so. Only
        answers can contradict or be contradicted, so only they are read: claims are
        rare, and a campaign stores many runs."""
        claims, answers_found = self.connection.execute(
            "SELECT max(status = ?), max(verdict = 'correct') FROM runs WHERE instance_file = ? "
            "AND instance = ?", (Status.UNSATISFIABLE.value, instance_file, instance)).fetchone()
        if not (claims and answers_found):  # the common case: nothing to contradict
            return {}
        answers = [from_row(dict(row)) for row in self.connection.execute(
            "SELECT * FROM runs WHERE instance_file = ? AND instance = ? AND (status = ? OR "
            "verdict = 'correct') ORDER BY id",
            (instance_file, instance, Status.UNSATISFIABLE.value))]
        marked = {answers[index].key: message
                  for index, message in contradicted(answers).items()}
        self.connection.executemany(
            "UPDATE runs SET status = ?, verdict = 'wrong', message = ? WHERE run_key = ?",
            [(Status.ERROR.value, message, key) for key, message in marked.items()])
        return marked

    def store_instances(self, instances: Iterable[StoredInstance]) -> None:
        """Keep the campaign's instances (each once: a later text of one replaces it)."""
        with self.connection:
            self.connection.executemany(
                "INSERT OR REPLACE INTO instances (instance_file, name, label, text) "
                "VALUES (?, ?, ?, ?)",
                [(i.instance_file, i.name, i.label, i.text) for i in instances])

    def instances(self) -> dict[tuple[str, str], StoredInstance]:
        """The stored instances by file (as the spec wrote it) and name (empty for a store
        made before instances were kept)."""
        if "instances" not in self.tables():
            return {}
        return {(row["instance_file"], row["name"]): StoredInstance(
                    row["instance_file"], row["name"], row["label"], row["text"])
                for row in self.connection.execute("SELECT * FROM instances")}

    def set_grid(self, cells: Iterable[tuple[str, int, str, int]]) -> None:
        """The runs the spec plans now, each ``(key, position, instance label, instance
        position)``. Tables show the stored runs among them, in the spec's order: a stored
        run keeps its figures, and takes its place and label in a grid that has grown."""
        cells = list(cells)
        self._claimed = None  # runs take new labels: read the claims again
        with self.connection:
            self.connection.execute("DELETE FROM grid")
            self.connection.executemany("INSERT INTO grid (run_key) VALUES (?)",
                                        [(cell[0],) for cell in cells])
            self.connection.executemany(
                "UPDATE runs SET position = ?, instance = ?, instance_position = ? "
                "WHERE run_key = ?",
                [(position, label, at, key) for key, position, label, at in cells])

    def grid_keys(self) -> set[str] | None:
        """The keys of the runs the latest session planned (None in a store made before
        they were kept: all its runs are the grid's)."""
        if "grid" not in self.tables():
            return None
        return {row[0] for row in self.connection.execute("SELECT run_key FROM grid")} or None

    def viewpoint_meanings(self) -> dict[str, tuple[str, str]]:
        """Each viewpoint label of the stored runs, with the viewpoint and options (JSON)
        it stood for."""
        return {row[0]: (row[1], row[2]) for row in self.connection.execute(
            "SELECT DISTINCT viewpoint, viewpoint_name, options FROM runs")}

    def start_campaign(self, session: Session) -> int:
        """Record the start of a session; returns its id for :meth:`end_campaign`."""
        row = {column: getattr(session, column) for column in CAMPAIGN_COLUMNS}
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

    def sessions(self) -> list[Session]:
        """Every recorded session, oldest first."""
        known = {f.name for f in fields(Session)}
        return [Session(**{k: v for k, v in dict(row).items() if k in known})
                for row in self.connection.execute("SELECT * FROM campaign ORDER BY id")]

    def plan(self) -> CampaignPlan:
        """What the latest session set out to run (unknown without a session)."""
        sessions = self.sessions()
        if not sessions:
            return CampaignPlan(None, None)
        latest = sessions[-1]
        return CampaignPlan(int(json.loads(latest.settings).get("repeats", 1)),
                            latest.planned_runs)

    def runs(self, campaign: str = "", puzzle: str = "") -> list[RunRecord]:
        """Every stored run in grid order (the order the spec lists them), as records
        carrying ``campaign`` and ``puzzle``."""
        cursor = self.connection.cursor()
        cursor.row_factory = None  # plain tuples, zipped with the columns: half the time
        cursor.execute("SELECT * FROM runs ORDER BY position")
        columns = [description[0] for description in cursor.description]
        with making_lasting_objects():
            return [from_row(dict(zip(columns, row)), campaign, puzzle) for row in cursor]

    def clear(self) -> None:
        """Forget every run, session and instance (``--fresh``)."""
        self._claimed = None
        with self.connection:
            for table in ("runs", "campaign", "instances"):
                self.connection.execute(f"DELETE FROM {table}")


@functools.lru_cache(maxsize=8)
def _insert_sql(columns: tuple[str, ...]) -> str:
    """The statement storing a run's row, made once per set of columns."""
    quoted = ", ".join(f'"{column}"' for column in columns)
    return f"INSERT OR REPLACE INTO runs ({quoted}) VALUES ({', '.join('?' * len(columns))})"


CSV_LEFT_OUT = ("solution",)


def runs_as_csv(records: Iterable[RunRecord]) -> str:
    """Every run, one line each, for spreadsheets and pandas (solutions stay in the database)."""
    buffer = io.StringIO()
    fieldnames = ["id", *(c for c in run_columns() if c not in CSV_LEFT_OUT)]
    writer = csv.DictWriter(buffer, fieldnames=fieldnames, lineterminator="\n",
                            extrasaction="ignore")
    writer.writeheader()
    for record in records:
        row: dict[str, Any] = {"id": record.row_id, **to_row(record)}
        row["complete"] = int(row["complete"])
        if row["matches_known"] is not None:
            row["matches_known"] = int(row["matches_known"])
        writer.writerow(row)
    return buffer.getvalue()
