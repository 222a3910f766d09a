"""Benchmarks that solve in this process, through the campaign's own path: a run is a
:class:`~experiments.campaign.identity.RunIdentity` solved and judged as a campaign's
worker does it (:func:`experiments.campaign.executors.worker.execute`), and what it gives
is the campaign's :class:`~experiments.campaign.record.RunRecord`, kept in a ``runs.csv``
of the campaign's columns. A study tabulates from these records alone.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from experiments.campaign.from_csv import read_runs_csv
from experiments.campaign.identity import RunIdentity
from experiments.campaign.record import RunRecord
from experiments.campaign.store.rows import runs_as_csv
from experiments.campaign.verdicts import Verdict
from experiments.studies.kit.processes import ROOT
from experiments.studies.kit.study import Rows, every_problem
from puzzlelab.errors import OptionError, UnknownName
from puzzles import PUZZLES, puzzle_of
from solvers import Status

FORM = "SOLVER:VIEWPOINT[,OPTION=VALUE...]:HEURISTIC"


@dataclass(frozen=True)
class Choice:
    """One way of solving: a solver, a viewpoint with options, a heuristic."""

    solver: str
    viewpoint: str
    heuristic: str
    options: tuple[tuple[str, str], ...] = ()

    @property
    def name(self) -> str:
        """The choice as the tables and the command lines write it.

        >>> Choice("cp", "classic", "first-fail/min", (("alldiff", "strong"),)).name
        'cp:classic,alldiff=strong:first-fail/min'
        """
        return f"{self.solver}:{self.viewpoint_label}:{self.heuristic}"

    @property
    def viewpoint_label(self) -> str:
        """The viewpoint with its options, as a table labels it (``classic,alldiff=weak``)."""
        return self.viewpoint + "".join(f",{option}={value}" for option, value in self.options)

    @classmethod
    def parse(cls, text: str) -> Choice:
        """Read a choice's name; one that is not of the form raises ``OptionError``.

        >>> Choice.parse("cpsat:value-position,alldiff=weak:auto").options
        (('alldiff', 'weak'),)
        """
        parts = text.split(":")
        if len(parts) != 3 or not all(part.strip() for part in parts):
            raise OptionError(f"combination {text!r} is not of the form {FORM}")
        solver, viewpoint_part, heuristic = (part.strip() for part in parts)
        viewpoint, *pairs = (item.strip() for item in viewpoint_part.split(","))
        options = []
        for pair in pairs:
            option, equals, value = (item.strip() for item in pair.partition("="))
            if not equals or not option or not value:
                raise OptionError(f"combination {text!r}: viewpoint option {pair!r} must be "
                                  "written OPTION=VALUE")
            options.append((option, value))
        return cls(solver, viewpoint, heuristic, tuple(options))

    @classmethod
    def of(cls, identity: RunIdentity) -> Choice:
        """The choice a run was made with."""
        return cls(identity.solver, identity.viewpoint_name, identity.heuristic,
                   tuple((k, str(v)) for k, v in identity.options.items()))

    def check_names(self, puzzle: str) -> None:
        """Raise ``UnknownName`` or ``OptionError`` for a backend, viewpoint, option or
        heuristic that does not exist, before anything is timed."""
        from solvers import BACKENDS, Heuristic, load_backends
        from viewpoints import get_viewpoint

        load_backends()
        if self.solver not in BACKENDS:
            raise UnknownName("solver", self.solver, BACKENDS.names())
        get_viewpoint(puzzle, self.viewpoint).resolve_options(dict(self.options))
        Heuristic.parse(self.heuristic)

    def identity(self, instance: Any, *, time_limit: float | None, instance_file: str = "",
                 instance_position: int = 0, position: int = 0) -> RunIdentity:
        """The identity of a run of ``instance`` under this choice; the viewpoint's label
        holds its options, as a campaign that runs a viewpoint under several labels it."""
        kind = puzzle_of(instance)
        name = kind.instance_name(instance)
        return RunIdentity(puzzle=kind.name, instance_file=instance_file, instance_name=name,
                           instance=name, viewpoint_name=self.viewpoint,
                           viewpoint=self.viewpoint_label, options=dict(self.options),
                           solver=self.solver, heuristic=self.heuristic,
                           time_limit=time_limit, position=position,
                           instance_position=instance_position)


def run(identity: RunIdentity, instance: Any) -> RunRecord:
    """Solve, check and judge one run as a campaign's worker does, timed the same way."""
    from experiments.campaign.executors.worker import execute
    from experiments.campaign.grid import RunTask

    return execute(RunTask(identity, payload=instance))


def data_set(puzzle: str, set_name: str, first: int | None = None) -> list[tuple[str, Any]]:
    """The instances of one shipped data set of ``puzzle`` (the first ``first`` if given),
    each with its file as a path from the checkout's root."""
    kind = PUZZLES.get(puzzle)
    found = {data.name: data.files for data in kind.data_sets()}
    if set_name not in found:
        raise OptionError(f"no {puzzle} data set {set_name!r}; shipped: {sorted(found)}")
    instances = [(_from_root(Path(path)), instance)
                 for path in found[set_name] for instance in kind.read(path)]
    return instances[:first]


def set_named(puzzle: str, instance_file: str) -> str:
    """The shipped data set of ``puzzle`` that holds ``instance_file`` (a path from the
    checkout's root, as :func:`data_set` gives it)."""
    for data in PUZZLES.get(puzzle).data_sets():
        if instance_file in {_from_root(Path(path)) for path in data.files}:
            return data.name
    raise OptionError(f"{instance_file} is in no shipped {puzzle} data set")


def _from_root(path: Path) -> str:
    """``path`` from the checkout's root, where it lies below it."""
    path = path.resolve()
    return (path.relative_to(ROOT) if path.is_relative_to(ROOT) else path).as_posix()


def stored_instance(record: RunRecord) -> Any:
    """The instance a run solved, read again from its file (None: it was in no file)."""
    if not record.identity.instance_file:
        return None
    return _instances_in(record.identity.puzzle, record.identity.instance_file)[
        record.identity.instance_name]


@functools.cache
def _instances_in(puzzle: str, instance_file: str) -> dict[str, Any]:
    kind = PUZZLES.get(puzzle)
    return {kind.instance_name(i): i for i in kind.read(ROOT / instance_file)}


def write_records(records: Sequence[RunRecord], path: Path) -> None:
    """The records as the campaign's ``runs.csv``."""
    path.write_text(runs_as_csv(records), encoding="utf-8")


def read_records(path: Path) -> list[RunRecord]:
    """The records of a ``runs.csv``, typed as the campaign reads them."""
    return list(read_runs_csv(path))


RECORDS: Rows[RunRecord] = Rows(write_records, read_records)
"""Run records, kept in the campaign's ``runs.csv``."""


def choice_name(record: RunRecord) -> str:
    """The name of the choice a record was run with."""
    return Choice.of(record.identity).name


def by_choice(records: Iterable[RunRecord]) -> dict[str, list[RunRecord]]:
    """The records by choice name, the choices in the order they first ran."""
    grouped: dict[str, list[RunRecord]] = {}
    for record in records:
        grouped.setdefault(choice_name(record), []).append(record)
    return grouped


def checked(record: RunRecord) -> bool:
    """Solved, and the checker accepted the solution."""
    return record.status is Status.SOLVED and record.verdict is Verdict.CORRECT


def solve_s(record: RunRecord) -> float:
    """The search's seconds (a timeout's run to its limit)."""
    return record.statistics.solve_s or 0.0


def wrong_run(record: RunRecord) -> str | None:
    """``instance (choice): status`` of a run that failed or whose answer was judged
    wrong; None for any other."""
    if record.status is Status.ERROR or record.verdict is Verdict.WRONG:
        return f"{record.identity.instance} ({choice_name(record)}): {record.status.value}"
    return None


def wrong_runs(records: Sequence[RunRecord]) -> list[str]:
    """What :func:`wrong_run` says of every run that went wrong."""
    return every_problem(records, wrong_run)
