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

import functools
import json
import sqlite3
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import fields
from pathlib import Path

from experiments.campaign.identity import RunIdentity
from experiments.campaign.record import RunRecord
from experiments.campaign.store.batches import KEYS_PER_QUERY, batched
from experiments.campaign.store.contradictions import Contradictions
from experiments.campaign.store.rows import from_row, run_columns, to_row
from experiments.campaign.store.tables import (
    CAMPAIGN_COLUMNS,
    GRID_COLUMNS,
    IN_GRID,
    INSTANCE_COLUMNS,
    SCHEMA_VERSION,
    CampaignPlan,
    Session,
    StoredInstance,
    table_sql,
)
from experiments.campaign.store.trees import StoredTree, insert_tree, read_trees, tree_keys
from experiments.campaign.verdicts import marked_wrong
from puzzlelab.collector import making_lasting_objects
from puzzlelab.errors import PuzzleLabError

COMMIT_SECONDS = 0.25
"""The longest a stored run waits in the open transaction before the batch is committed."""


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


class ResultsStore:
    """An open results database; use as a context manager."""

    def __init__(self, path: Path, read_only: bool = False) -> None:
        self.path = Path(path)
        self._committed_at = time.monotonic()
        self.read_only = read_only
        if read_only:
            self.connection = _read_only_connection(self.path)
            self.connection.row_factory = sqlite3.Row
            self.contradictions = Contradictions(self.connection)
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
        self.contradictions = Contradictions(self.connection)
        self.connection.execute("PRAGMA synchronous=NORMAL")
        with self.connection:
            self.connection.execute(table_sql("runs", run_columns()))
            self.connection.execute(table_sql("campaign", CAMPAIGN_COLUMNS))
            self.connection.execute(table_sql("instances", INSTANCE_COLUMNS,
                                               "instance_file, name"))
            self.connection.execute(table_sql("grid", GRID_COLUMNS))
            self._add_missing_columns("runs", run_columns())
            self.connection.execute("CREATE INDEX IF NOT EXISTS runs_by_instance ON runs "
                                    "(instance_file, instance)")
            self.connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def columns(self, table: str = "runs") -> set[str]:
        """The columns ``table`` has (a store made by an older PuzzleLab lacks some)."""
        return {row[1] for row in self.connection.execute(f"PRAGMA table_info({table})")}

    def _add_missing_columns(self, table: str, columns: Mapping[str, str]) -> None:
        """Bring a database made by an older PuzzleLab up to date (new statistics)."""
        present = self.columns(table)
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

    def run_count(self) -> int:
        """How many runs are stored."""
        return int(self.connection.execute("SELECT COUNT(*) FROM runs").fetchone()[0])

    def stored_among(self, keys: Sequence[str]) -> set[str]:
        """Which of ``keys`` are stored: what resuming skips, asked a batch at a time so
        that a campaign of any size holds no more than a batch of keys."""
        found: set[str] = set()
        for batch in batched(keys, KEYS_PER_QUERY):
            found.update(row[0] for row in self.connection.execute(
                f"SELECT run_key FROM runs WHERE run_key IN ({', '.join('?' * len(batch))})",
                batch))
        return found

    def grid_runs_stored(self) -> int:
        """How many of the runs the grid plans (:meth:`set_grid`) are stored."""
        return int(self.connection.execute(
            f"SELECT COUNT(*) FROM runs WHERE {IN_GRID}").fetchone()[0])

    def grid_runs_stored_by_group(self) -> Counter[tuple[str, str, str]]:
        """How many of the grid's runs are stored, by viewpoint, solver and heuristic."""
        return Counter({(row[0], row[1], row[2]): int(row[3]) for row in self.connection.execute(
            f"SELECT viewpoint, solver, heuristic, COUNT(*) FROM runs WHERE {IN_GRID} "
            f"GROUP BY viewpoint, solver, heuristic")})

    def runs_outside_grid(self) -> int:
        """How many stored runs the grid does not plan (0 in a store that keeps no grid:
        all its runs are the grid's). When none is, what reads the grid's runs reads every
        run, with no filter to pay for."""
        if "grid" not in self.tables() or not self.connection.execute(
                "SELECT 1 FROM grid LIMIT 1").fetchone():
            return 0
        return self.run_count() - self.grid_runs_stored()

    def grid_runs_missing(self) -> int | None:
        """How many runs the grid plans that are not stored (None in a store that keeps
        no grid: one made before grids were kept, or whose grid is empty)."""
        if "grid" not in self.tables() or not self.connection.execute(
                "SELECT 1 FROM grid LIMIT 1").fetchone():
            return None
        return int(self.connection.execute(
            "SELECT COUNT(*) FROM grid WHERE run_key NOT IN (SELECT run_key FROM runs)"
        ).fetchone()[0])

    def wall_seconds_by_group(self) -> dict[tuple[str, str, str], tuple[float, int]]:
        """The stored runs' total wall time and how many have one, by viewpoint, solver
        and heuristic (a column group): what the time left is estimated from."""
        return {(row[0], row[1], row[2]): (float(row[3]), int(row[4])) for row in
                self.connection.execute(
                    "SELECT viewpoint, solver, heuristic, SUM(wall_s), COUNT(wall_s) FROM runs "
                    "WHERE wall_s IS NOT NULL GROUP BY viewpoint, solver, heuristic")}

    def record_run(self, record: RunRecord) -> tuple[RunRecord, list[str]]:
        """Store one finished run (committed with its batch, :data:`COMMIT_SECONDS`); then
        mark wrong every stored run of the instance that claims "unsatisfiable" where one
        has a solution the checker accepts (this run, or earlier ones it contradicts:
        :mod:`~experiments.campaign.store.contradictions`). Returns the record as stored
        (marked wrong, if it is one of them) and the keys of the other runs marked."""
        row = to_row(record)
        self.connection.execute(_insert_sql(tuple(row)), list(row.values()))
        marked = self.contradictions.after_storing(record)
        if time.monotonic() - self._committed_at >= COMMIT_SECONDS:
            self.commit()
        key = record.identity.key
        if key in marked:
            record = marked_wrong(record, marked[key])
        return record, [other for other in marked if other != key]

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

    def set_grid(self, identities: Iterable[RunIdentity]) -> None:
        """The runs the spec plans now. Tables show the stored runs among them, in the
        spec's order: a stored run keeps its figures, and takes its place and labels in
        a grid that has grown. The identities are read once, as they come."""
        self.contradictions.forget()  # runs take new labels: read the claims again
        relabel = self.run_count() > 0  # a store with no runs has nothing to move
        with self.connection:
            self.connection.execute("DELETE FROM grid")
            for batch in batched(identities, KEYS_PER_QUERY):
                self.connection.executemany("INSERT INTO grid (run_key) VALUES (?)",
                                            [(cell.key,) for cell in batch])
                if relabel:
                    self.connection.executemany(
                        "UPDATE runs SET position = ?, instance = ?, instance_position = ? "
                        "WHERE run_key = ?",
                        [(cell.position, cell.instance, cell.instance_position, cell.key)
                         for cell in batch])

    def grid_keys(self) -> set[str] | None:
        """The keys of the runs the latest session planned (None in a store made before
        they were kept: all its runs are the grid's)."""
        if "grid" not in self.tables():
            return None
        return {row[0] for row in self.connection.execute("SELECT run_key FROM grid")} or None

    def label_meanings(self, field: str) -> dict[str, tuple[str, str]]:
        """Each label of the stored runs' ``field`` (``viewpoint`` or ``solver``), with the
        name and options (JSON) it stood for (its own name and none, in an older row)."""
        name, options = f"{field}_name", {"viewpoint": "options"}.get(field, f"{field}_options")
        return {row[0]: (row[1], row[2]) for row in self.connection.execute(
            f'SELECT DISTINCT "{field}", COALESCE("{name}", "{field}"), '
            f"""COALESCE("{options}", '{{}}') FROM runs""")}

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

    def iter_runs(self, grid_only: bool = False) -> Iterator[RunRecord]:
        """The stored runs (the grid's alone with ``grid_only``, when the store keeps a
        grid) in grid order, read a batch at a time: for what goes through every run
        once, in the memory of a batch (``runs.csv``)."""
        defaults = self.campaign_defaults()
        cursor = self.connection.cursor()
        cursor.row_factory = None
        only = grid_only and self.runs_outside_grid() > 0
        cursor.execute("SELECT * FROM runs" + (f" WHERE {IN_GRID}" if only else "")
                       + " ORDER BY position")
        columns = [description[0] for description in cursor.description]
        while batch := cursor.fetchmany(KEYS_PER_QUERY):
            yield from (from_row(dict(zip(columns, row)), "", defaults) for row in batch)

    def first_answers(self) -> list[RunRecord]:
        """Each instance's first run (in grid order, in the grid or not) whose solution
        the checker accepted: what a claim of no solution is contradicted by."""
        defaults = self.campaign_defaults()
        cursor = self.connection.execute(
            "SELECT * FROM runs WHERE id IN (SELECT (SELECT id FROM runs AS r WHERE "
            "r.instance_file IS s.instance_file AND r.instance = s.instance AND "
            "r.verdict = 'correct' ORDER BY position, id LIMIT 1) FROM (SELECT DISTINCT "
            "instance_file, instance FROM runs WHERE verdict = 'correct') AS s)")
        return [from_row(dict(row), "", defaults) for row in cursor]

    def runs(self, campaign: str = "") -> list[RunRecord]:
        """Every stored run in grid order (the order the spec lists them), as records
        carrying ``campaign``; a column an older store lacks reads as the latest
        session's setting."""
        defaults = self.campaign_defaults()
        cursor = self.connection.cursor()
        cursor.row_factory = None  # plain tuples, zipped with the columns: half the time
        cursor.execute("SELECT * FROM runs ORDER BY position")
        columns = [description[0] for description in cursor.description]
        with making_lasting_objects():
            return [from_row(dict(zip(columns, row)), campaign, defaults) for row in cursor]

    def campaign_defaults(self) -> dict[str, str | int]:
        """The latest session's settings that every run of it shares (its puzzle, the
        solutions it asked for): what an older store's rows leave out."""
        sessions = self.sessions()
        settings = json.loads(sessions[-1].settings) if sessions else {}
        return {"puzzle": str(settings.get("puzzle") or ""),
                "max_solutions": int(settings.get("max_solutions", 1))}

    def tree_keys(self) -> set[str]:
        """The keys of the runs whose search trees are stored."""
        return tree_keys(self.connection)

    def store_tree(self, tree: StoredTree) -> None:
        """Keep the search tree of one run (committed at once)."""
        insert_tree(self.connection, tree)

    def trees(self) -> list[StoredTree]:
        """The search trees the store holds (none in a store made before trees were
        kept, or without them)."""
        if "trees" not in self.tables():
            return []
        try:
            return read_trees(self.connection)
        except sqlite3.DatabaseError as error:
            raise PuzzleLabError(f"{self.path}: cannot read its search trees ({error})"
                                 ) from None

    def clear(self) -> None:
        """Forget every run, session and instance (``--fresh``)."""
        self.contradictions.forget()
        with self.connection:
            for table in ("runs", "campaign", "instances"):
                self.connection.execute(f"DELETE FROM {table}")


@functools.lru_cache(maxsize=8)
def _insert_sql(columns: tuple[str, ...]) -> str:
    """The statement storing a run's row, made once per set of columns."""
    quoted = ", ".join(f'"{column}"' for column in columns)
    return f"INSERT OR REPLACE INTO runs ({quoted}) VALUES ({', '.join('?' * len(columns))})"
