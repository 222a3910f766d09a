"""A campaign's cells aggregated where its runs are stored, never read as records: what
``puzzlelab table`` shows of a store of any size, in the memory of its cells.

SQLite's rows go to DuckDB as Arrow batches through the ADBC SQLite driver (C code,
no Python object per value), and DuckDB groups them by cell: counts, failures, time
limits, medians and lower medians of the figures shown. That pair was chosen by
measurement on a store of a million runs, against Python's own ``sqlite3`` feeding
DuckDB, polars reading the store, and SQLite's own window functions (one median each):
the fastest, in little memory (``results/scale``).

The rules are :mod:`experiments.analysis.cell_runs`'s, restated over columns: a run is
failed unless its status is an answer and its verdict not ``wrong``; an "unsatisfiable"
for an instance some run (in or out of the grid) solved correctly is wrong
(:func:`experiments.campaign.verdicts.contradicted`); a label that an older store gives
to several files is prefixed with the file.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from experiments.analysis.cell_runs import SEARCH_TIME, CampaignCells, CellRuns, FailedRun
from experiments.campaign.record import RunRecord
from experiments.campaign.store import ResultsStore
from experiments.campaign.store.batches import KEYS_PER_QUERY, batched
from experiments.campaign.store.tables import IN_GRID
from experiments.campaign.verdicts import Verdict, contradiction
from puzzlelab.errors import PuzzleLabError
from solvers.record import Status

COLUMNS_WITH_DEFAULTS = {"instance_file": "''", "instance_position": "0", "position": "0",
                         "verdict": f"'{Verdict.UNCHECKED.value}'", "time_limit": "NULL",
                         "memory_limit_mb": "NULL", "repeat": "0"}
"""Columns an older store may lack, and what a row without them reads as."""
THREADS = 1
"""DuckDB's threads: each holds its own groups' medians, so one keeps the memory of a
million-run store within bounds; the reading from SQLite is what takes the time."""
ANSWERS = tuple(status.value for status in Status if status.finished)
STOPPED = tuple(status.value for status in Status if status.stopped_by_limit)


class CellRow(NamedTuple):
    """One row of :func:`_aggregate_sql`'s answer before its figures, in its order."""

    instance_file: str
    instance: str
    viewpoint: str
    solver: str
    heuristic: str
    runs: int
    failed: int
    wrong: bool | None
    first_failed: str | None
    explaining_id: int
    explaining_contradiction: bool | None
    explaining_time_limit: float | None
    explaining_memory_limit_mb: int | None
    time_limit: float | None
    stopped_with_counts: bool
    first_position: int
    first_id: int
    first_instance_position: int


class StoreCells:
    """A store's cells, aggregated when asked: of its grid's runs when some stored runs
    are outside it (``only_grid``; else every run is the grid's, with no filter to pay)."""

    def __init__(self, database: Path, only_grid: bool) -> None:
        self.database, self.only_grid = database, only_grid
        self._held: list[tuple[frozenset[str], CampaignCells]] = []

    def cells(self, columns: Sequence[str]) -> CampaignCells:
        """The cells, with the medians of ``columns`` (and of the search time); cells
        made before with the medians of more columns serve again (a report asks for its
        plots' and its tables' figures)."""
        wanted = frozenset({*columns, SEARCH_TIME})
        made = next((cells for held, cells in self._held if wanted <= held), None)
        if made is None:
            made = self._aggregated(sorted(wanted))
            self._held.append((wanted, made))
        return made

    def _aggregated(self, shown: Sequence[str]) -> CampaignCells:
        """The cells, with the medians of the ``shown`` figures, from one query."""
        import duckdb

        with ResultsStore.open_existing(self.database) as store:
            present = store.columns()
            solved = store.connection.execute(  # over every stored run, in the grid or not
                "SELECT DISTINCT COALESCE(instance_file, ''), instance FROM runs "
                "WHERE verdict = ?", (Verdict.CORRECT.value,)).fetchall()
        connection = duckdb.connect(config={"threads": THREADS})
        connection.execute("CREATE TEMP TABLE solved (instance_file VARCHAR, instance VARCHAR)")
        if solved:
            connection.executemany("INSERT INTO solved VALUES (?, ?)", solved)
        with self._reader(present, shown) as reader:
            connection.register("stored", reader)  # one pass over the stream of runs
            rows = connection.execute(_aggregate_sql(shown)).fetchall()
        connection.close()
        fixed = len(CellRow._fields)
        return self._made([(CellRow(*row[:fixed]), row[fixed:]) for row in rows], shown)

    @contextmanager
    def _reader(self, present: set[str], shown: Sequence[str]) -> Iterator[Any]:
        """The rows the cells need, as a stream of Arrow batches (read while open)."""
        from adbc_driver_sqlite import dbapi

        def column(name: str) -> str:
            if name in present:
                default = COLUMNS_WITH_DEFAULTS.get(name)
                return f'COALESCE("{name}", {default}) AS "{name}"' if default else f'"{name}"'
            return f'{COLUMNS_WITH_DEFAULTS.get(name, "NULL")} AS "{name}"'

        wanted = ["id", "instance", "viewpoint", "solver", "heuristic", "status",
                  *COLUMNS_WITH_DEFAULTS, *shown]
        in_grid = f" WHERE {IN_GRID}" if self.only_grid else ""
        query = (f"SELECT {', '.join(column(name) for name in dict.fromkeys(wanted))} "
                 f"FROM runs{in_grid}")
        try:
            connection = dbapi.connect(f"file:{self.database}?mode=ro")
        except dbapi.Error as error:
            raise PuzzleLabError(f"{self.database}: cannot read its runs ({error})") from None
        with connection, connection.cursor() as cursor:
            try:
                cursor.execute(query)
            except dbapi.Error as error:
                raise PuzzleLabError(f"{self.database}: cannot read its runs ({error})"
                                     ) from None
            yield cursor.fetch_record_batch()

    def _made(self, rows: list[tuple[CellRow, tuple[float | None, ...]]],
              shown: Sequence[str]) -> CampaignCells:
        """The cells from the aggregated rows (one per file, instance and group, each with
        the median and lower median of every ``shown`` figure), in the order their first
        runs come; a label on several files is prefixed with the file."""
        files: dict[str, set[str]] = {}
        for row, _ in rows:
            files.setdefault(row.instance, set()).add(row.instance_file)
        made = CampaignCells()
        messages = self._messages([row.explaining_id for row, _ in rows if row.failed])
        solved_by = self._first_answers() if any(
            row.explaining_contradiction for row, _ in rows if row.failed) else {}
        for row, figures in sorted(rows, key=lambda r: (r[0].first_position, r[0].first_id)):
            label = (f"{row.instance_file}:{row.instance}"
                     if len(files[row.instance]) > 1 else row.instance)
            group = (row.viewpoint, row.solver, row.heuristic)
            made.groups.setdefault(group)
            made.instances.setdefault(label, row.first_instance_position)
            made.runs += row.runs
            explaining = None
            if row.failed:
                solved = solved_by.get((row.instance_file, row.instance))
                message = (contradiction(solved) if row.explaining_contradiction and solved
                           else messages.get(row.explaining_id, ""))
                explaining = FailedRun(message, row.explaining_time_limit,
                                       row.explaining_memory_limit_mb)
            made.cells[(group, label)] = CellRuns(
                row.runs, row.failed, bool(row.wrong),
                Status(row.first_failed) if row.first_failed else None, explaining,
                row.time_limit, bool(row.stopped_with_counts),
                dict(zip(shown, figures[0::2])), dict(zip(shown, figures[1::2])))
        return made

    def _messages(self, ids: list[int]) -> dict[int, str]:
        """The stored messages of the runs that explain failed cells."""
        found: dict[int, str] = {}
        with ResultsStore.open_existing(self.database) as store:
            for batch in batched(ids, KEYS_PER_QUERY):
                found.update(store.connection.execute(
                    f"SELECT id, message FROM runs WHERE id IN ({', '.join('?' * len(batch))})",
                    batch).fetchall())
        return found

    def _first_answers(self) -> dict[tuple[str, str], RunRecord]:
        """Each solved instance's first correct run: what a contradicted "unsatisfiable"
        is told found a solution (:func:`~experiments.campaign.verdicts.contradicted`)."""
        with ResultsStore.open_existing(self.database) as store:
            return {(run.identity.instance_file, run.identity.instance): run
                    for run in store.first_answers()}


def _aggregate_sql(shown: Sequence[str]) -> str:
    """DuckDB's query, in one pass over the runs: each judged as the tables read it, then
    one row per instance file, instance, viewpoint, solver and heuristic."""
    answers = ", ".join(f"'{s}'" for s in ANSWERS)
    stopped = ", ".join(f"'{s}'" for s in STOPPED)
    figures = ",\n  ".join(
        f'median("{n}") AS "median_{n}", quantile_disc("{n}", 0.5) AS "low_{n}"'
        for n in shown)
    first = "(position, id)"
    explaining = "(NOT wrong_run, position, id)"
    return f"""
WITH judged AS (
  SELECT *, (status = 'unsatisfiable' AND (instance_file, instance) IN (
      SELECT (instance_file, instance) FROM solved)) AS contradicted
  FROM stored),
marked AS (
  SELECT *, CASE WHEN contradicted THEN 'error' ELSE status END AS judged_status,
    (contradicted OR verdict = 'wrong') AS wrong_run
  FROM judged),
failing AS (
  SELECT *, (judged_status NOT IN ({answers}) OR wrong_run) AS failed_run FROM marked)
SELECT instance_file, instance, viewpoint, solver, heuristic,
  count(*) AS count, count(*) FILTER (WHERE failed_run) AS failed,
  bool_or(wrong_run AND failed_run) AS wrong,
  arg_min(judged_status, {first}) FILTER (WHERE failed_run) AS first_failed,
  arg_min(id, {explaining}) FILTER (WHERE failed_run) AS explaining_id,
  arg_min(contradicted, {explaining}) FILTER (WHERE failed_run) AS explaining_contradiction,
  arg_min(time_limit, {explaining}) FILTER (WHERE failed_run) AS explaining_time_limit,
  arg_min(memory_limit_mb, {explaining}) FILTER (WHERE failed_run)
    AS explaining_memory_limit_mb,
  max(time_limit) AS time_limit,
  bool_and(judged_status IN ({stopped}) AND "{SEARCH_TIME}" IS NOT NULL)
    AS stopped_with_counts,
  min(position) AS first_position, arg_min(id, {first}) AS first_id,
  arg_min(instance_position, {first}) AS first_instance_position,
  {figures}
FROM failing
GROUP BY instance_file, instance, viewpoint, solver, heuristic
"""
