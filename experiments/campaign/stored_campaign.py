"""A stored campaign read back: its runs as records, its latest session, its instances.

What the tables and the report show comes from here alone: the runs (every
contradicted "unsatisfiable" judged wrong on the way, so a store made before the rule
was kept shows the same), the spec the campaign ran (its ``table`` settings decide how
tables group and measure), and the instances as the campaign ran them. In a notebook
a stored campaign shows what it is, how its runs ended, and its first runs.
"""

from __future__ import annotations

import json
import sqlite3
import tomllib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from pathlib import Path

from experiments.campaign.path_ends import distinct_path_ends
from experiments.campaign.record import RunRecord
from experiments.campaign.spec import GROUPINGS, TableSettings, table_settings
from experiments.campaign.store import ResultsStore, Session, StoredInstance
from experiments.campaign.verdicts import Verdict, judged_against, with_contradictions
from puzzlelab.errors import PuzzleLabError
from puzzlelab.notebook import display_method, escaped, figure_text, html_table
from puzzlelab.statistics import Statistic, metric_statistics
from puzzlelab.wording import counted

RUNS_SHOWN = 10
"""The runs a notebook lists of a campaign, in grid order (its tables show them all)."""


@dataclass(frozen=True)
class StoredCampaign:
    """One results database, read once for tables and reports."""

    name: str
    database: Path
    runs: Sequence[RunRecord]
    session: Session | None = None
    """The latest session that ran the spec (None when none was recorded)."""
    repeats: int | None = None
    planned_runs: int | None = None
    instances: Mapping[tuple[str, str], StoredInstance] = field(default_factory=dict)
    outside_grid: int = 0
    """Stored runs left out of ``runs``: their cells are no longer in the spec's grid."""
    sessions: Sequence[Session] = ()
    """Every session the store recorded, oldest first (``session`` is the last)."""
    stored_runs: int = 0
    """The stored runs ``runs`` holds, or would hold when read without them."""
    all_runs: bool = False
    """Read with every stored run, not only the grid's."""

    @property
    def read_whole(self) -> bool:
        """Whether ``runs`` holds every run the campaign's tables read (else it was read
        without them, and what it says of them is asked of its store)."""
        return len(self.runs) == self.stored_runs

    def hidden_note(self) -> str | None:
        """What a table or report of the campaign leaves out, and how to show it."""
        if not self.outside_grid:
            return None
        return (f"{self.name}: {counted(self.outside_grid, 'stored run')} of cells the spec "
                f"no longer plans not shown (--all-runs shows them)")

    @property
    def settings(self) -> dict[str, object]:
        """The spec's settings that decide the runs."""
        return dict(json.loads(self.session.settings)) if self.session else {}

    @property
    def puzzle(self) -> str | None:
        """The campaign's puzzle, as the spec names it."""
        puzzle = self.settings.get("puzzle")
        return str(puzzle) if puzzle else None

    @property
    def description(self) -> str:
        """The spec's ``description``, or its leading comment lines when it has none."""
        text = self.session.spec_text if self.session else ""
        try:
            described = tomllib.loads(text).get("description")
        except tomllib.TOMLDecodeError:
            described = None
        if described:
            return str(described).strip()
        comments = []
        for line in text.splitlines():
            if not line.startswith("#"):
                break
            comments.append(line.lstrip("#").strip())
        return " ".join(c for c in comments if c)

    def table_settings(self) -> TableSettings:
        """The stored spec's ``table`` settings: how its tables and report group and
        measure unless told otherwise."""
        if self.session is None:
            return table_settings("", Path("spec.toml"))
        return table_settings(self.session.spec_text, Path(self.session.spec_path))

    def spec_shown(self) -> str:
        """The spec's path as a reader should see it: relative to the current folder when
        inside it (a committed report names no one's home folder), else as stored."""
        path = Path(self.session.spec_path if self.session else "?")
        try:
            return path.relative_to(Path.cwd()).as_posix() if path.is_absolute() else str(path)
        except ValueError:
            return str(path)

    def spec_base(self) -> Path | None:
        """The folder the spec's instance paths are relative to."""
        return Path(self.session.spec_path).parent if self.session else None

    @display_method
    def _repr_html_(self) -> str:
        """What a notebook shows of the campaign: its name, puzzle and description; its
        runs stored, planned and how they ended; the first runs with the figures its
        tables measure."""
        ended = Counter(run.status.value for run in self.runs)
        wrong = sum(run.verdict is Verdict.WRONG for run in self.runs)
        planned = "" if self.planned_runs is None else f" of {self.planned_runs} planned"
        first = self.runs[:RUNS_SHOWN] if self.read_whole else self._first_runs()
        facts = [("puzzle", self.puzzle or ""),
                 ("spec", self.spec_shown() if self.session else ""),
                 ("runs", f"{self.stored_runs} stored{planned}"),
                 ("how they ended", ", ".join(f"{count} {status}"
                                              for status, count in ended.most_common())
                  if self.read_whole else "read without its runs: its tables count them"),
                 ("wrong", str(wrong) if wrong else ""),
                 ("latest session", self.session.started_at if self.session else ""),
                 ("not shown", self.hidden_note() or "")]
        statistics = [statistic for name in self.table_settings().metrics
                      for statistic in metric_statistics(name)]
        labels = ("instance", *GROUPINGS, "repeat")
        rows = [(*(str(getattr(run.identity, label)) for label in labels), run.status.value,
                 run.verdict.value, *(_figure(run, statistic) for statistic in statistics))
                for run in first]
        headers = (*labels, "status", "verdict", *(s.name for s in statistics))
        more = (f"<p>The first {RUNS_SHOWN} of {self.stored_runs} runs; "
                f"<code>experiments.api.result_tables</code> gives the campaign's tables.</p>"
                if self.stored_runs > RUNS_SHOWN else "")
        return (f"<p><strong>{escaped(self.name)}</strong> {escaped(self.description)}</p>\n"
                + html_table((), [fact for fact in facts if fact[1]]) + "\n"
                + html_table(headers, rows, right=range(len(labels) + 2, len(headers)))
                + more)

    def _first_runs(self) -> list[RunRecord]:
        """The first runs in grid order, read from the store (a campaign read without its
        runs), judged as the tables judge them."""
        with ResultsStore.open_existing(self.database) as store:
            first = list(islice(store.iter_runs(grid_only=not self.all_runs), RUNS_SHOWN))
            return list(judged_against(first, store.first_answers()))


def _figure(run: RunRecord, statistic: Statistic) -> str:
    """The run's figure of ``statistic`` as a notebook shows it ("" where it has none)."""
    value = run.figure(statistic.name)
    return "" if value is None else figure_text(value, statistic.unit)


def read_campaign(path: str | Path, require_runs: bool = False,
                  all_runs: bool = False) -> StoredCampaign:
    """Read one results database (it must exist; with ``require_runs``, hold runs): the
    runs of the grid its spec plans now, or with ``all_runs`` every stored run (those of
    cells the spec no longer plans included)."""
    return _with_runs(read_header(path, all_runs), require_runs)


def _with_runs(header: StoredCampaign, require_runs: bool) -> StoredCampaign:
    """The campaign of ``header`` with its runs read as records."""
    with ResultsStore.open_existing(header.database) as store:
        # judged over every stored run: a run outside the grid still shows a solution exists
        stored = with_contradictions(store.runs(header.name))
        grid = None if header.all_runs else store.grid_keys()
    runs = stored if grid is None else [run for run in stored if run.identity.key in grid]
    if require_runs and not runs:
        raise PuzzleLabError(f"{header.database}: the results database holds no runs yet; "
                             f"run the campaign first (puzzlelab run SPEC)")
    return replace(header, runs=runs, outside_grid=len(stored) - len(runs),
                   stored_runs=len(runs))


def read_header(path: str | Path, all_runs: bool = False) -> StoredCampaign:
    """A store's campaign without its runs (``runs`` left empty): its name, sessions,
    plan and instances, and how many stored runs its tables leave out, read with a
    few queries whatever the number of runs (their cells are aggregated in the store:
    :mod:`experiments.analysis.store_cells`)."""
    path = Path(path)
    with ResultsStore.open_existing(path) as store:
        sessions = store.sessions()
        session = sessions[-1] if sessions else None
        name = session.name if session else path.resolve().parent.name
        outside = 0 if all_runs else store.runs_outside_grid()
        plan = store.plan()
        instances = store.instances()
        stored = store.run_count() - outside
    return StoredCampaign(name, path, (), session, plan.repeats, plan.runs, instances,
                          outside_grid=outside, sessions=tuple(sessions),
                          stored_runs=stored, all_runs=all_runs)


def read_campaigns(paths: Sequence[str | Path], require_runs: bool = False,
                   all_runs: bool = False, whole_below: int | None = None
                   ) -> list[StoredCampaign]:
    """Several stores, each under its campaign's name, or where two share one, under the
    shortest end of its folder's path that tells them apart; the same store twice is
    refused. With ``whole_below``, a store of that many runs or more is read without its
    runs (:func:`read_header`: what is said of them is then asked of the store)."""
    resolved = [Path(path).resolve() for path in paths]
    for index, whole in enumerate(resolved):
        if whole in resolved[:index]:
            raise PuzzleLabError(f"{paths[index]}: the same results database is given twice")
    read = [_read(path, require_runs, all_runs, whole_below) for path in paths]
    names = [campaign.name for campaign in read]
    if len(set(names)) < len(names):
        folders = distinct_path_ends([str(path.parent) for path in resolved])
        read = [replace(campaign, name=folder) for campaign, folder in zip(read, folders)]
    return read


def _read(path: str | Path, require_runs: bool, all_runs: bool,
          whole_below: int | None) -> StoredCampaign:
    """One store, whole or (from ``whole_below`` runs) without its runs."""
    header = read_header(path, all_runs)
    if whole_below is None or header.stored_runs < whole_below:
        return _with_runs(header, require_runs)
    return header


def left_unfinished(path: str | Path) -> bool:
    """Whether the store at ``path`` holds a campaign left to resume: its latest session
    did not end as finished (interrupted, failed, or killed before it could say), or it
    planned runs it has not stored. A finished store is a result, not work to resume; a
    file that is no store is none of a campaign's business (False)."""
    try:
        with ResultsStore.open_existing(path) as store:
            sessions = store.sessions()
            if not sessions:
                return False
            stored = store.run_count()
            missing = store.grid_runs_missing()
            planned = sessions[-1].planned_runs
    except (PuzzleLabError, sqlite3.Error):
        return False
    if sessions[-1].end_state != "finished":
        return True
    if missing is not None:
        return missing > 0
    return planned is not None and planned > stored
