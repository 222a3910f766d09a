"""A run record as a row of the runs table, and back: the store's one row mapping.

The identity's columns are its dataclass fields (:class:`RunIdentity`), typed from
their annotations, after ``run_key``; then how the run ended, a column per declared
statistic (:mod:`puzzlelab.statistics`), and where it ran. ``runs.csv`` is these rows
but the solutions. A row of an older store reads too: a column it lacks reads as the
campaign's value (``puzzle``, ``max_solutions``), as what its key says
(``instance_name``), or as None.
"""

from __future__ import annotations

import csv
import functools
import io
import json
from collections.abc import Iterable, Mapping
from dataclasses import fields
from typing import IO, Any, get_origin, get_type_hints

from experiments.campaign.identity import RunIdentity, key_instance
from experiments.campaign.record import RUNNER_STATISTICS, RunRecord
from experiments.campaign.store.tables import columns_of
from experiments.campaign.verdicts import Verdict
from puzzlelab.statistics import STATISTICS
from solvers.record import PortfolioAnswer, Statistics, Status, SymmetricSearch

KEY_COLUMN = "run_key"
"""The column of :attr:`RunIdentity.key`: unique, what resuming compares."""
OUTCOME_COLUMNS = {
    "status": "TEXT NOT NULL", "complete": "INTEGER NOT NULL", "message": "TEXT NOT NULL",
    "verdict": "TEXT NOT NULL", "violations": "TEXT", "matches_known": "INTEGER",
    "solution": "TEXT",
}
RUNNER_COLUMNS = {"worker": "TEXT", "finished_at": "TEXT", "extra": "TEXT"}
"""Where and when the run ended; ``extra``: its symmetric search and portfolio accounts,
as JSON (the column kept its name from when it held a free dictionary)."""
CSV_LEFT_OUT = ("solution",)
"""Columns ``runs.csv`` leaves in the database."""
IDENTITY_COLUMNS = {KEY_COLUMN: "TEXT NOT NULL UNIQUE", **columns_of(RunIdentity)}
"""The identity's columns: its key, then a column per field."""
_JSON_FIELDS = tuple(name for name, hint in get_type_hints(RunIdentity).items()
                     if get_origin(hint) in (Mapping, dict))
"""Identity fields kept as JSON text (the options)."""
CAMPAIGN_DEFAULTED = ("puzzle", "max_solutions")
"""Identity columns an older store lacks and its campaign's settings give."""


def statistic_columns() -> dict[str, str]:
    """A column per declared statistic (:mod:`puzzlelab.statistics`), runner's included."""
    return {s.name: "INTEGER" if s.integer else "REAL"
            for s in (STATISTICS.get(name) for name in STATISTICS)}


def outcome_columns() -> dict[str, str]:
    """The columns a finished run fills: its verdict, its statistics, where it ran."""
    return {**OUTCOME_COLUMNS, **statistic_columns(), **RUNNER_COLUMNS}


def run_columns() -> dict[str, str]:
    """Every column of the runs table."""
    return dict(_run_columns(STATISTICS.version))


@functools.lru_cache(maxsize=8)
def _run_columns(version: int) -> tuple[tuple[str, str], ...]:
    """:func:`run_columns`, made once for each ``version`` of the declared statistics
    (its cache key): every stored run asks for them."""
    return tuple({**IDENTITY_COLUMNS, **outcome_columns()}.items())


_sorted_json = json.JSONEncoder(sort_keys=True).encode
"""``json.dumps(..., sort_keys=True)`` without making an encoder at every call: every
stored run encodes its options."""


def to_row(record: RunRecord) -> dict[str, Any]:
    """The record as a row of the runs table (every column but the row id)."""
    details = {}
    if record.symmetric is not None:
        details["symmetric"] = record.symmetric.as_json()
    if record.portfolio is not None:
        details["portfolio"] = record.portfolio.as_json()
    identity = record.identity
    row = {KEY_COLUMN: identity.key, **vars(identity)}
    for name in _JSON_FIELDS:
        row[name] = _sorted_json(dict(row[name]))
    row.update(record.statistics.as_dict())
    row.update({name: record.figure(name) for name in RUNNER_STATISTICS})
    row.update(status=record.status.value, complete=record.complete, message=record.message,
               verdict=record.verdict.value,
               violations=("null" if record.violations is None
                           else json.dumps(list(record.violations))),
               matches_known=record.matches_known,
               solution=None if record.solution is None else json.dumps(record.solution),
               worker=record.worker, finished_at=record.finished_at,
               extra=json.dumps(details) if details else "{}")
    return {column: row.get(column) for column, _ in _run_columns(STATISTICS.version)}


def from_row(row: Mapping[str, Any], campaign: str = "",
             defaults: Mapping[str, Any] | None = None) -> RunRecord:
    """The record a row of the runs table holds; ``defaults`` gives the campaign's
    values of the columns an older store lacks (:data:`CAMPAIGN_DEFAULTED`)."""
    details = json.loads(row.get("extra") or "{}")
    violations = json.loads(row["violations"]) if row.get("violations") else None
    matches = row.get("matches_known")
    return RunRecord(
        identity=identity_of(row, defaults or {}), status=Status(row["status"]),
        complete=bool(row.get("complete")), message=str(row.get("message") or ""),
        verdict=Verdict(row.get("verdict") or Verdict.UNCHECKED.value),
        violations=None if violations is None else tuple(violations),
        matches_known=None if matches is None else bool(matches),
        solution=None if row.get("solution") is None else json.loads(row["solution"]),
        statistics=Statistics(**{name: row[name] for name in Statistics.names() if name in row}),
        wall_s=row.get("wall_s"), cpu_s=row.get("cpu_s"), worker=row.get("worker"),
        finished_at=row.get("finished_at"),
        symmetric=(SymmetricSearch.from_json(details["symmetric"])
                   if details.get("symmetric") else None),
        portfolio=(PortfolioAnswer.from_json(details["portfolio"])
                   if details.get("portfolio") else None),
        campaign=campaign, row_id=row.get("id"))


def identity_of(row: Mapping[str, Any], defaults: Mapping[str, Any]) -> RunIdentity:
    """The identity a row's columns hold; a column an older row lacks reads as the
    campaign's value in ``defaults``, as what the row's other columns say, or as the
    field's default."""
    values = {}
    for name in _IDENTITY_FIELDS:
        value = row.get(name)
        if value is None:
            if name in defaults:
                value = defaults[name]
            elif name in _FORMERLY_IMPLIED:
                value = _FORMERLY_IMPLIED[name](row)
            else:
                continue
        elif name in _JSON_FIELDS:
            value = json.loads(value)
        values[name] = value
    return RunIdentity(**values)


_IDENTITY_FIELDS = tuple(f.name for f in fields(RunIdentity))
_FORMERLY_IMPLIED = {"instance_name": lambda row: key_instance(str(row[KEY_COLUMN])),
                     "viewpoint_name": lambda row: row["viewpoint"],
                     "puzzle": lambda row: ""}
"""Identity columns an older store lacks, and how its other columns give them (the
puzzle: unknown, unless the campaign's settings are given)."""


def runs_as_csv(records: Iterable[RunRecord]) -> str:
    """Every run, one line each, for spreadsheets and pandas (solutions stay in the database)."""
    buffer = io.StringIO()
    write_runs_csv(records, buffer)
    return buffer.getvalue()


def write_runs_csv(records: Iterable[RunRecord], out: IO[str]) -> None:
    """:func:`runs_as_csv` written to ``out`` as the records come (a store of any size
    in the memory of one run)."""
    fieldnames = ["id", *(c for c in run_columns() if c not in CSV_LEFT_OUT)]
    writer = csv.DictWriter(out, fieldnames=fieldnames, lineterminator="\n",
                            extrasaction="ignore")
    writer.writeheader()
    for record in records:
        row = {"id": record.row_id, **to_row(record)}
        row["complete"] = int(row["complete"])
        if row["matches_known"] is not None:
            row["matches_known"] = int(row["matches_known"])
        writer.writerow(row)
