"""The store's tables beside the runs: the sessions that ran the spec, the instances as
the campaign ran them, and the grid the latest session planned."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import NoneType, UnionType
from typing import Any, NamedTuple, get_args, get_origin, get_type_hints

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


GRID_COLUMNS = {"run_key": "TEXT NOT NULL UNIQUE"}
"""The runs the latest session planned: what the tables show of a store (a campaign that
grew or shrank keeps the runs of cells it no longer plans)."""
IN_GRID = "run_key IN (SELECT run_key FROM grid)"
"""The SQL condition that keeps a stored run the grid plans."""


@dataclass(frozen=True)
class StoredInstance:
    """An instance as the campaign ran it: its file as the spec wrote it, the puzzle's
    name for it, its label, and its text as the puzzle stores it (``stored_text``: with
    the known solution, when the file gave one)."""

    instance_file: str
    name: str
    label: str
    text: str


SQL_TYPES = {str: "TEXT", int: "INTEGER", float: "REAL", bool: "INTEGER"}
"""The column type of each field type; any other (a mapping) is kept as JSON text."""


def column_type(annotation: Any) -> str:
    """The column type of a field's annotation: only an optional field may be NULL.

    >>> column_type(int), column_type(float | None), column_type(dict[str, int])
    ('INTEGER NOT NULL', 'REAL', 'TEXT NOT NULL')
    """
    optional = isinstance(annotation, UnionType) and NoneType in get_args(annotation)
    kinds = ([kind for kind in get_args(annotation) if kind is not NoneType] if optional
             else [annotation])
    column = SQL_TYPES.get(get_origin(kinds[0]) or kinds[0], "TEXT")
    return column if optional else f"{column} NOT NULL"


def columns_of(cls: type, leave_out: tuple[str, ...] = ()) -> dict[str, str]:
    """A column per field of the dataclass ``cls``, typed from its annotation."""
    hints = get_type_hints(cls)
    return {f.name: column_type(hints[f.name]) for f in fields(cls) if f.name not in leave_out}


CAMPAIGN_COLUMNS = columns_of(Session, leave_out=("id",))
"""The columns of a :class:`Session` (its ``id`` is the row's)."""
INSTANCE_COLUMNS = columns_of(StoredInstance)


class CampaignPlan(NamedTuple):
    """The runs per grid cell, and in all, that a campaign plans (None: unknown)."""

    repeats: int | None
    runs: int | None


def table_sql(name: str, columns: Mapping[str, str], unique: str = "") -> str:
    """``CREATE TABLE IF NOT EXISTS`` for ``columns`` after an ``id`` key."""
    body = ",\n  ".join(f'"{column}" {kind}' for column, kind in columns.items())
    return (f"CREATE TABLE IF NOT EXISTS {name} (\n  id INTEGER PRIMARY KEY,\n  {body}"
            + (f",\n  UNIQUE ({unique})" if unique else "") + "\n)")
