"""A store's runs as Arrow data, for the tools analysts use: a Parquet file with typed
columns (``puzzlelab table DB --format parquet --output FILE``), a pandas DataFrame
(:func:`experiments.api.runs_frame`), anything that reads Arrow (polars, DuckDB).

The rows go from SQLite to Arrow a batch at a time, never as run records: a store of a
million runs becomes a Parquet file in the memory of one batch. Each column takes the
type the runs table declares it with (INTEGER, REAL, TEXT), so a count stays an integer
where some runs have none (a null, not a float). Like the tables, it gives the runs of
the grid the spec plans now (every stored run with ``all_runs``); a column an older store
lacks reads as its campaign's setting, or null.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from experiments.campaign.store.database import ResultsStore
from experiments.campaign.store.rows import run_columns
from experiments.campaign.store.tables import IN_GRID
from puzzlelab.errors import PuzzleLabError

BATCH_ROWS = 50_000
"""Runs read from SQLite and turned into Arrow at a time."""
KEY_COLUMN_TYPES = {"id": "INTEGER"}
"""Columns of the runs table that are not a run's fields: its row id."""


def run_schema(store: ResultsStore) -> Any:
    """The Arrow schema of the runs: every column of this version's runs table, typed as
    it is declared."""
    import pyarrow as pa

    kinds = {"INTEGER": pa.int64(), "REAL": pa.float64(), "TEXT": pa.string()}
    declared = {**KEY_COLUMN_TYPES, **run_columns()}
    return pa.schema([(name, kinds[kind.split()[0]]) for name, kind in declared.items()])


def run_batches(store: ResultsStore, all_runs: bool = False,
                rows: int = BATCH_ROWS) -> Iterator[Any]:
    """The store's runs in grid order as Arrow record batches of ``rows`` runs."""
    import pyarrow as pa

    schema = run_schema(store)
    present = store.columns()
    defaults = store.campaign_defaults()
    selected = ", ".join(f'"{name}"' if name in present else "NULL" for name in schema.names)
    only_grid = not all_runs and store.runs_outside_grid() > 0
    where = f" WHERE {IN_GRID}" if only_grid else ""
    cursor = store.connection.cursor()
    cursor.row_factory = None
    try:
        cursor.execute(f"SELECT {selected} FROM runs{where} ORDER BY position, id")
    except sqlite3.Error as error:
        raise PuzzleLabError(f"{store.path}: cannot read its runs ({error})") from None
    while chunk := cursor.fetchmany(rows):
        columns = list(zip(*chunk))
        arrays = []
        for index, field in enumerate(schema):
            values = columns[index]
            if field.name not in present and field.name in defaults:
                values = (defaults[field.name],) * len(chunk)
            arrays.append(pa.array(values, type=field.type))
        yield pa.RecordBatch.from_arrays(arrays, schema=schema)


def runs_table(database: str | Path, all_runs: bool = False) -> Any:
    """Every run of ``database`` (the grid's, or all with ``all_runs``) as one Arrow
    table."""
    import pyarrow as pa

    with ResultsStore.open_existing(database) as store:
        return pa.Table.from_batches(list(run_batches(store, all_runs)),
                                     schema=run_schema(store))


def write_parquet(database: str | Path, output: str | Path, all_runs: bool = False) -> int:
    """Write the runs of ``database`` to the Parquet file ``output``, a batch at a time;
    returns how many runs it holds."""
    import pyarrow.parquet as parquet

    written = 0
    output = Path(output)
    with ResultsStore.open_existing(database) as store:
        partial = output.with_name(output.name + ".partial")
        try:
            with parquet.ParquetWriter(partial, run_schema(store)) as writer:
                for batch in run_batches(store, all_runs):
                    writer.write_batch(batch)
                    written += batch.num_rows
        except OSError as error:
            partial.unlink(missing_ok=True)
            raise PuzzleLabError(f"{output}: cannot write the Parquet file "
                                 f"({error.strerror or error})") from None
        partial.replace(output)  # a file that is there is whole
    return written
