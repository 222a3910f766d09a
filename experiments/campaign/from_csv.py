"""A results database made again from a campaign's ``runs.csv`` and its spec.

``runs.csv`` holds every column of the store's runs but the solutions, and the spec
says the rest: its settings, its grid and its instances (read again from their files).
So a results folder whose store was lost, or never committed, can be tabled and reported
again: ``python -m experiments.campaign.from_csv RUNS_CSV SPEC [--out DATABASE]``. What
the CSV does not hold stays unknown rather than made up: the machine the runs were made
on (the session says it was rebuilt) and the solutions, until
:mod:`experiments.campaign.answers` finds them again by solving runs again and checking
that each reproduces its stored counts. Runs made under other limits than the spec's now
are refused: the spec would misstate them.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from experiments.campaign.grid import expand
from experiments.campaign.growth import deciding
from experiments.campaign.record import RunRecord
from experiments.campaign.runner import instances_of
from experiments.campaign.spec import ExperimentSpec, load_spec
from experiments.campaign.store import ResultsStore, Session
from experiments.campaign.store.rows import from_row, run_columns
from puzzlelab.errors import PuzzleLabError

REBUILT = "rebuilt from runs.csv"
"""The executor a rebuilt store's session names: its runs were made elsewhere, before."""
MEANING = ("time_limit", "memory_limit_mb", "seed")
"""Run columns that must agree with the spec for its settings to describe the runs."""


def store_from_csv(runs_csv: Path, spec_path: Path, database: Path) -> int:
    """Make ``database`` (which must not hold runs) from ``runs_csv`` and the spec at
    ``spec_path``; returns the number of runs stored."""
    spec = load_spec(spec_path)
    records = list(read_runs_csv(runs_csv, {"puzzle": spec.puzzle,
                                            "max_solutions": spec.max_solutions}))
    _check_made_under(spec, records, runs_csv)
    grid = expand(spec)
    with ResultsStore(database) as store:
        if store.run_count():
            raise PuzzleLabError(f"{database}: already holds runs; rebuild into a new file")
        store.store_instances(instances_of(grid.tasks.first_of_each_instance()))
        store.set_grid(task.identity for task in grid.tasks)
        for record in records:
            store.record_run(record)
        finished = sorted(r.finished_at for r in records if r.finished_at) or [""]
        session = store.start_campaign(Session(
            name=spec.name, spec_path=str(spec.path), spec_text=spec.text,
            settings=json.dumps(deciding(spec.settings), sort_keys=True),
            started_at=finished[0], executor=REBUILT, planned_runs=len(grid.tasks)))
        store.end_campaign(session, finished[-1], "finished")
    return len(records)


def read_runs_csv(path: Path, defaults: Mapping[str, Any] | None = None
                  ) -> Iterator[RunRecord]:
    """The runs of a ``runs.csv``, typed as the store's columns are; ``defaults`` gives
    the campaign's values of the columns an older one lacks (its puzzle, its
    ``max_solutions``)."""
    kinds = run_columns()
    try:
        with path.open(encoding="utf-8", newline="") as lines:
            for number, row in enumerate(csv.DictReader(lines), start=2):
                try:
                    yield from_row({column: _typed(value, kinds.get(column, "TEXT"))
                                    for column, value in row.items()}, defaults=defaults)
                except (KeyError, ValueError, TypeError) as error:
                    raise PuzzleLabError(f"{path}:{number}: not a run of runs.csv "
                                         f"({error})") from None
    except OSError as error:
        raise PuzzleLabError(f"{path}: cannot read ({error.strerror})") from None


def _typed(value: str | None, kind: str) -> Any:
    if value is None or (value == "" and "NOT NULL" not in kind):
        return None
    if kind.startswith("INTEGER"):
        return int(value)
    return float(value) if kind.startswith("REAL") else value


def _check_made_under(spec: ExperimentSpec, records: Sequence[RunRecord], path: Path) -> None:
    """Refuse runs made under other limits or another seed than the spec's."""
    wanted = {"time_limit": spec.time_limit, "memory_limit_mb": spec.memory_limit_mb,
              "seed": spec.seed}
    for record in records:
        for column in MEANING:
            made_with = getattr(record.identity, column)
            if made_with != wanted[column]:
                raise PuzzleLabError(
                    f"{path}: run {record.identity.key} was made with {column} = "
                    f"{made_with}, and {spec.path} now says {wanted[column]}; "
                    f"rebuild it with the spec the runs were made from")


def main(arguments: Sequence[str]) -> None:
    """``RUNS_CSV SPEC [--out DATABASE]`` (default: runs.sqlite beside the CSV)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m experiments.campaign.from_csv",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("runs_csv", type=Path)
    parser.add_argument("spec", type=Path)
    parser.add_argument("--out", type=Path, help="the database to make (default: "
                                                 "runs.sqlite beside the CSV)")
    given = parser.parse_args(arguments)
    database = given.out or given.runs_csv.with_name("runs.sqlite")
    try:
        stored = store_from_csv(given.runs_csv, given.spec, database)
    except PuzzleLabError as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    print(f"wrote {database}: {stored} runs")


if __name__ == "__main__":
    main(sys.argv[1:])
