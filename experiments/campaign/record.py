"""The run record: one run of a campaign, typed from the worker to the report.

A :class:`RunRecord` holds a run's identity (:mod:`experiments.campaign.identity`), how
it ended, its verdict (:mod:`experiments.campaign.verdicts`), its solution in the
puzzle's JSON form and its statistics (:mod:`puzzlelab.statistics`). The worker makes
it, the pool and the Dask executor pass it on, the store keeps it
(:mod:`experiments.campaign.store.rows` maps it to a row), the tables, the report and
``--json`` read it. Its JSON form (:meth:`RunRecord.to_json`) uses the fields' own names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from experiments.campaign.identity import RunIdentity, split_options
from experiments.campaign.verdicts import Verdict
from puzzlelab.notebook import display_method, html_table
from solvers.record import PortfolioAnswer, Statistics, Status, SymmetricSearch

RUNNER_STATISTICS = ("wall_s", "cpu_s")
"""The figures the runner measures around a run (the rest are the solve's own)."""
FORMER_JSON_NAMES = {"stats": "statistics", "check": "violations",
                     "matches_known_solution": "matches_known"}
"""Names an older ``--json`` gave fields, read as the fields they were."""


@dataclass(frozen=True, kw_only=True)
class RunRecord:
    """One run: who it is, how it ended, what it found and what it measured.

    ``solution`` is the puzzle's JSON form of the solution found (its
    ``solution_to_json``; :meth:`answer` reads it back), None when none was found.
    ``violations`` is the checker's list (empty: the solution is correct; None: there
    was no solution to check). ``campaign`` is the name of the campaign the record was
    read from, and ``row_id`` its row in that store.
    """

    identity: RunIdentity
    status: Status
    complete: bool = False
    message: str = ""
    verdict: Verdict = Verdict.UNCHECKED
    violations: tuple[str, ...] | None = None
    matches_known: bool | None = None
    solution: Any = None
    statistics: Statistics = field(default_factory=Statistics)
    wall_s: float | None = None
    cpu_s: float | None = None
    worker: str | None = None
    finished_at: str | None = None
    symmetric: SymmetricSearch | None = None
    portfolio: PortfolioAnswer | None = None
    campaign: str = ""
    row_id: int | None = field(default=None, compare=False)

    @display_method
    def _repr_html_(self) -> str:
        """What a notebook shows of a stored run: what was asked, how it ended and was
        judged, its statistics and the runner's figures (its answer: :meth:`answer`)."""
        facts = run_facts(self.identity, self.status, self.verdict, self.violations,
                          self.matches_known, self.message)
        facts += [(name, f"{figure:.3f} s") for name, figure in
                  (("wall", self.wall_s), ("cpu", self.cpu_s)) if figure is not None]
        facts += [("campaign", self.campaign), ("finished at", self.finished_at or "")]
        return facts_and_statistics(facts, self.statistics)

    @property
    def finished(self) -> bool:
        """The run gave an answer that was not judged wrong."""
        return self.status.finished and self.verdict is not Verdict.WRONG

    def figure(self, name: str) -> float | None:
        """The figure of statistic ``name``: the solve's own, or the runner's."""
        if name == "wall_s":
            return self.wall_s
        if name == "cpu_s":
            return self.cpu_s
        value: float | None = getattr(self.statistics, name)
        return value

    def answer(self) -> Any:
        """The solution found, read back into the puzzle's solution type (None: none)."""
        if self.solution is None:
            return None
        from puzzles import PUZZLES

        return PUZZLES.get(self.identity.puzzle).solution_from_json(self.solution)

    def to_json(self) -> dict[str, Any]:
        """The run as one JSON object (``puzzlelab solve --json``): the identity's fields
        and the record's, each under its own name, the statistics as an object."""
        identity = asdict(self.identity)
        identity["options"] = dict(self.identity.options)
        return {**identity, "key": self.identity.key, "status": self.status.value,
                "complete": self.complete, "message": self.message,
                "verdict": self.verdict.value,
                "violations": None if self.violations is None else list(self.violations),
                "matches_known": self.matches_known, "solution": self.solution,
                "statistics": self.statistics.as_dict(),
                **{name: self.figure(name) for name in RUNNER_STATISTICS},
                "worker": self.worker, "finished_at": self.finished_at,
                "symmetric": None if self.symmetric is None else self.symmetric.as_json(),
                "portfolio": None if self.portfolio is None else self.portfolio.as_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RunRecord:
        """The record :meth:`to_json` wrote (or an older ``--json``, whose names
        :data:`FORMER_JSON_NAMES` lists, whose ``viewpoint`` was the viewpoint's name and
        whose ``options`` held the backend's own too)."""
        given = {FORMER_JSON_NAMES.get(name, name): value for name, value in data.items()}
        identity_names = {f.name for f in fields(RunIdentity)}
        identity = {name: value for name, value in given.items() if name in identity_names}
        identity.setdefault("instance_name", identity.get("instance", ""))
        identity.setdefault("viewpoint_name", identity.get("viewpoint", ""))
        if "solver_options" not in identity and identity.get("options"):
            # an older ``--json`` kept the backend's own options with the viewpoint's
            identity["options"], identity["solver_options"] = split_options(
                identity["options"], str(identity["solver"]))
        violations = given.get("violations")
        figures = given.get("statistics") or {}
        return cls(
            identity=RunIdentity(**identity), status=Status(given["status"]),
            complete=bool(given.get("complete")), message=str(given.get("message") or ""),
            verdict=Verdict(given.get("verdict") or Verdict.UNCHECKED.value),
            violations=None if violations is None else tuple(violations),
            matches_known=given.get("matches_known"), solution=given.get("solution"),
            statistics=Statistics(**{n: v for n, v in figures.items()
                                     if n in Statistics.names()}),
            wall_s=given.get("wall_s"), cpu_s=given.get("cpu_s"),
            worker=given.get("worker"), finished_at=given.get("finished_at"),
            symmetric=(None if not given.get("symmetric")
                       else SymmetricSearch.from_json(given["symmetric"])),
            portfolio=(None if not given.get("portfolio")
                       else PortfolioAnswer.from_json(given["portfolio"])))


def run_facts(asked: RunIdentity, status: Status, verdict: Verdict,
              violations: tuple[str, ...] | None, matches_known: bool | None,
              message: str) -> list[tuple[str, str]]:
    """A run's facts as a notebook lists them (a solve's and a stored run's alike): the
    puzzle and instance, the viewpoint, solver and heuristic with their options, how the
    run ended and was judged; a fact that is empty is listed empty."""
    options = {**asked.options, **asked.solver_options}
    return [("puzzle", f"{asked.puzzle} {asked.instance}"), ("viewpoint", asked.viewpoint),
            ("solver", asked.solver), ("heuristic", asked.heuristic),
            ("options", ", ".join(f"{k}={v}" for k, v in options.items())),
            ("status", status.value), ("verdict", verdict.value),
            ("rules broken", "; ".join(violations or ())),
            ("matches the file's solution",
             "" if matches_known is None else "yes" if matches_known else "no"),
            ("message", message)]


def facts_and_statistics(facts: Sequence[tuple[str, str]], statistics: Statistics) -> str:
    """A run's facts (those not empty) as a table, then its statistics: the text a
    notebook shows of a run, beside its picture where it has one."""
    shown = html_table((), [(name, value) for name, value in facts if value])
    return f"{shown}<p><strong>statistics</strong></p>{statistics._repr_html_() or ''}"
