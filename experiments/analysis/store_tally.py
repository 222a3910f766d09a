"""What a report states of every run of a campaign read without its runs (a large store,
:func:`~experiments.campaign.stored_campaign.read_header`), asked of the store: how the
runs ended, the limits they ran under, what each session made, the models' sizes, and
the few runs a picture, an explanation or a tree needs.

Each answer is the one the report's own code gives from the runs read as records
(:mod:`report_facts`, :mod:`report_sizes`, :mod:`report_pictures`), restated as a query;
a test holds the two equal on every committed store. As there, the grid's runs are read
(every stored run with ``--all-runs``), and an "unsatisfiable" for an instance some
stored run solved correctly counts as wrong.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from experiments.campaign.record import RunRecord
from experiments.campaign.store import ResultsStore
from experiments.campaign.store.rows import from_row
from experiments.campaign.store.tables import IN_GRID
from experiments.campaign.stored_campaign import StoredCampaign
from experiments.campaign.verdicts import judged_against

SOLVED = ("(COALESCE(instance_file, ''), instance) IN (SELECT COALESCE(instance_file, ''), "
          "instance FROM runs WHERE verdict = 'correct')")
"""Whether a run's instance was solved correctly by some stored run (in the grid or not)."""
SIZE_COLUMNS = ("model_variables", "model_constraints", "posted_variables",
                "posted_constraints")


@contextmanager
def _opened(campaign: StoredCampaign) -> Iterator[tuple[ResultsStore, str, set[str]]]:
    """The store, the condition that keeps the runs the report reads, and the columns the
    runs table has."""
    with ResultsStore.open_existing(campaign.database) as store:
        present = store.columns()
        grid = campaign.outside_grid > 0  # else every stored run is the grid's: no filter
        yield store, IN_GRID if grid else "1", present


def endings(campaign: StoredCampaign) -> Counter[str]:
    """How many runs ended in each status without being judged wrong, and (``wrong``) how
    many were judged wrong."""
    with _opened(campaign) as (store, only, _):
        rows = store.connection.execute(
            f"SELECT CASE WHEN verdict = 'wrong' OR (status = 'unsatisfiable' AND {SOLVED}) "
            f"THEN 'wrong' ELSE status END, count(*) FROM runs WHERE {only} GROUP BY 1")
        return Counter({str(ended): int(count) for ended, count in rows})


def limit_counts(campaign: StoredCampaign) -> list[tuple[Any, Any, int]]:
    """Each time limit and memory limit the runs ran under together, with how many did,
    in the order the runs first have them."""
    with _opened(campaign) as (store, only, present):
        columns = [f'"{c}"' if c in present else "NULL"
                   for c in ("time_limit", "memory_limit_mb")]
        return [(time, memory, int(count)) for time, memory, count, _, _ in
                store.connection.execute(
                    f"SELECT {columns[0]}, {columns[1]}, count(*), min(position), min(id) "
                    f"FROM runs WHERE {only} GROUP BY 1, 2 ORDER BY 4, 5")]


def runs_made(campaign: StoredCampaign, starts: Sequence[str]) -> list[int] | None:
    """How many runs finished in each session's span (from its start to the next's, the
    latest start at or before the run's finish; a run before the first counts for the
    first), or None when no run has a time. SQLite reads the ISO times (a time without a
    zone as UTC), as the report does."""
    with _opened(campaign) as (store, only, present):
        if "finished_at" not in present or not starts:
            return None
        cases = " ".join(f"WHEN moment >= julianday(?) THEN {index}"
                         for index in reversed(range(len(starts))))
        rows = store.connection.execute(
            f"SELECT CASE {cases} ELSE 0 END, count(*) FROM (SELECT julianday(finished_at) "
            f"AS moment FROM runs WHERE {only}) WHERE moment IS NOT NULL GROUP BY 1",
            list(reversed(starts))).fetchall()
    if not rows:
        return None
    made = [0] * len(starts)
    for index, count in rows:
        made[int(index)] += int(count)
    return made


def size_spans(campaign: StoredCampaign) -> list[tuple[str, str, list[tuple[int, int]]]]:
    """Each viewpoint and solver whose runs measured their models' sizes, with the least
    and the largest of each size, in the order the runs first have them."""
    with _opened(campaign) as (store, only, present):
        if not set(SIZE_COLUMNS) <= present:
            return []
        spans = ", ".join(f'min("{c}"), max("{c}")' for c in SIZE_COLUMNS)
        measured = " AND ".join(f'"{c}" IS NOT NULL' for c in SIZE_COLUMNS)
        rows = store.connection.execute(
            f"SELECT viewpoint, solver, {spans}, min(position), min(id) FROM runs WHERE "
            f"{only} AND {measured} GROUP BY viewpoint, solver ORDER BY 11, 12").fetchall()
    return [(row[0], row[1], [(int(row[2 + 2 * i]), int(row[3 + 2 * i]))
                              for i in range(len(SIZE_COLUMNS))]) for row in rows]


def labels(campaign: StoredCampaign) -> list[str]:
    """The instances' labels, in the order their first runs come."""
    with _opened(campaign) as (store, only, _):
        return [row[0] for row in store.connection.execute(
            f"SELECT instance, min(position), min(id) FROM runs WHERE {only} "
            f"GROUP BY instance ORDER BY 2, 3")]


def instance_runs(campaign: StoredCampaign, labels: Sequence[str]
                  ) -> dict[str, tuple[RunRecord | None, RunRecord | None]]:
    """Each instance's first run, and its first run with a solution the checker accepted
    (two passes over the runs, whatever the number of instances asked)."""
    with _opened(campaign) as (store, only, _):
        marks = ", ".join("?" * len(labels))

        def first(condition: str) -> dict[str, RunRecord]:
            ids = [int(row[0].split("-")[1]) for row in store.connection.execute(
                f"SELECT min(printf('%015d-%015d', position, id)) FROM runs WHERE {only} "
                f"AND instance IN ({marks}) {condition} GROUP BY instance", list(labels))]
            rows = store.connection.execute(
                f"SELECT * FROM runs WHERE id IN ({', '.join('?' * len(ids))})", ids)
            defaults = store.campaign_defaults()
            read = [from_row(dict(row), campaign.name, defaults) for row in rows]
            return {run.identity.instance: run for run in read}

        firsts = first("")
        answers = first("AND verdict = 'correct' AND solution IS NOT NULL")
    return {label: (firsts.get(label), answers.get(label)) for label in labels}


def runs_by_key(campaign: StoredCampaign, keys: Sequence[str]) -> dict[str, RunRecord]:
    """The stored runs of these keys (the recorded trees'), judged as the report judges
    every run (a contradicted "unsatisfiable" wrong)."""
    with _opened(campaign) as (store, _, _):
        defaults = store.campaign_defaults()
        rows = [store.connection.execute("SELECT * FROM runs WHERE run_key = ?",
                                         (key,)).fetchone() for key in keys]
        runs = [from_row(dict(row), campaign.name, defaults) for row in rows if row]
        return {run.identity.key: run for run in judged_against(runs, store.first_answers())}
