"""The facts a report states about a campaign: how its runs ended, the limits they
ran under, and its history, session by session.

The limits are those the stored runs carry (what each run was given), not the
spec's settings, which say nothing where the spec left a default. The history lists
every session the store recorded: a rerun that found nothing to do is one line of
it, not the campaign's latest work; machine, Python and versions are those of the
sessions that made runs.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from experiments.campaign.store import Session
from experiments.campaign.stored_campaign import StoredCampaign
from experiments.campaign.verdicts import Verdict
from puzzlelab.wording import counted
from solvers.record import Status

LISTED_SESSIONS = 12
"""Sessions listed one by one; earlier ones are summed up in one line."""


@dataclass(frozen=True)
class RunCounts:
    """How many runs the campaign plans, stores, and how the stored ones ended."""

    planned: int | None
    stored: int
    solved: int
    unsatisfiable: int
    timed_out: int
    memory_out: int
    refused: int
    failed: int
    wrong: int


def run_counts(campaign: StoredCampaign) -> RunCounts:
    """The runs planned and stored, and how the stored ones ended (counted in the store
    for a campaign read without its runs)."""
    if campaign.read_whole:
        counts = Counter(Verdict.WRONG.value if run.verdict is Verdict.WRONG
                         else run.status.value for run in campaign.runs)
    else:
        from experiments.analysis.store_tally import endings

        counts = endings(campaign)
    wrong = counts[Verdict.WRONG.value]

    def ended(status: Status) -> int:
        return counts[status.value]

    return RunCounts(planned=campaign.planned_runs, stored=campaign.stored_runs,
                     solved=ended(Status.SOLVED), unsatisfiable=ended(Status.UNSATISFIABLE),
                     timed_out=ended(Status.TIMEOUT), memory_out=ended(Status.MEMORY_OUT),
                     refused=ended(Status.REFUSED), failed=ended(Status.ERROR), wrong=wrong)


def limits(campaign: StoredCampaign) -> list[tuple[str, str]]:
    """The time and memory limit the runs were given, each value with how many runs had
    it when they differ."""
    def listed(values: Sequence[tuple[str, int]]) -> str:
        seen: dict[str, int] = {}
        for value, count in values:
            seen[value] = seen.get(value, 0) + count
        if len(seen) == 1:
            return next(iter(seen))
        return ", ".join(f"{value} ({counted(count, 'run')})" for value, count in seen.items())

    def shown(limit: float | None) -> str:
        return f"{limit:g} s" if limit is not None else "none"

    def megabytes(limit: int | None) -> str:
        return f"{limit} MB" if limit is not None else "none"

    if campaign.read_whole:
        runs = [run.identity for run in campaign.runs]
        time = [(shown(r.time_limit), 1) for r in runs]
        memory = [(megabytes(r.memory_limit_mb), 1) for r in runs]
    else:
        from experiments.analysis.store_tally import limit_counts

        pairs = limit_counts(campaign)
        time = [(shown(limit), count) for limit, _, count in pairs]
        memory = [(megabytes(limit), count) for _, limit, count in pairs]
    return [("time limit", f"{listed(time)} of search per run"),
            ("memory limit", f"{listed(memory)} per run, above what the worker process holds "
                             f"when the run starts (its address space)")]


def _moment(text: str | None) -> datetime | None:
    """A stored ISO time, as UTC (a time stored without a zone is taken as UTC)."""
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def stored_sessions(campaign: StoredCampaign) -> list[Session]:
    """Every session the campaign's store recorded, oldest first (the latest alone for a
    campaign read without them)."""
    return list(campaign.sessions) or ([campaign.session] if campaign.session else [])


def runs_made(sessions: Sequence[Session], campaign: StoredCampaign) -> list[int | None]:
    """The stored runs each session made: those that finished between its start and the
    next session's (None for every session when the runs carry no finishing time). A run
    a later session replaced (``--fresh``) counts for the later one."""
    starts = [_moment(s.started_at) for s in sessions]
    if not all(starts):
        return [None] * len(sessions)
    if not campaign.read_whole:
        from experiments.analysis.store_tally import runs_made as made_in_store

        counted_made = made_in_store(campaign, [s.started_at for s in sessions])
        return [None] * len(sessions) if counted_made is None else list(counted_made)
    finished = [_moment(r.finished_at) for r in campaign.runs]
    if not any(finished):
        return [None] * len(sessions)
    made: list[int | None] = [0] * len(sessions)
    for moment in finished:
        if moment is None:
            continue
        index = max((i for i, start in enumerate(starts) if start and start <= moment),
                    default=0)
        made[index] = (made[index] or 0) + 1
    return made


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.2g} s" if seconds < 10 else f"{seconds:.0f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes < 60 else f"{minutes // 60} h {minutes % 60} min"


def describe_session(session: Session, made: int | None) -> str:
    """One session: when, how long, how it ended, what it ran."""
    start, end = _moment(session.started_at), _moment(session.ended_at)
    when = start.strftime("%Y-%m-%d %H:%M UTC") if start else session.started_at
    took = f", {_duration((end - start).total_seconds())}" if start and end else ""
    state = session.end_state or "end not recorded"
    planned = None if session.planned_runs is None else f"{session.planned_runs} planned"
    ran = ", ".join(part for part in (
        planned, "runs made not known" if made is None else f"made {counted(made, 'stored run')}")
        if part)
    jobs = "" if session.jobs is None else f", {session.jobs} at a time"
    return f"{when}{took}, {state}: {ran} ({session.executor}{jobs})"


def history(sessions: Sequence[Session], made: Sequence[int | None]
            ) -> list[tuple[str, str]]:
    """Each session as (its name, what it did), oldest first; past :data:`LISTED_SESSIONS`
    the earliest are summed up in one."""
    lines = [(f"session {index}" if len(sessions) > 1 else "session", describe_session(s, m))
             for index, (s, m) in enumerate(zip(sessions, made), start=1)]
    if len(lines) <= LISTED_SESSIONS:
        return lines
    hidden = len(lines) - LISTED_SESSIONS + 1
    earlier = made[:hidden]
    total = "" if None in earlier else \
        f", made {counted(sum(m or 0 for m in earlier), 'stored run')}"
    return [(f"sessions 1-{hidden}", f"{counted(hidden, 'earlier session')}{total}"),
            *lines[hidden:]]


def facts(campaign: StoredCampaign) -> list[tuple[str, str]]:
    """The campaign as a list of (what, value): runs, limits, history, machine, versions."""
    counts = run_counts(campaign)
    planned = "unknown" if counts.planned is None else str(counts.planned)
    listed = [("puzzle", campaign.puzzle or "unknown"),
              ("runs", f"{planned} planned, {counts.stored} stored: {counts.solved} solved, "
                       f"{counts.unsatisfiable} unsatisfiable, {counts.timed_out} timed out, "
                       f"{counts.memory_out} out of memory, {counts.refused} refused, "
                       f"{counts.failed} failed, {counts.wrong} wrong"),
              ("repeats", str(campaign.repeats or 1)), *limits(campaign)]
    sessions = stored_sessions(campaign)
    if not sessions:
        return [*listed, ("sessions", "none recorded")]
    made = runs_made(sessions, campaign)
    working = [s for s, m in zip(sessions, made) if m] \
        or [sessions[-1]]

    def of_all(read: Callable[[Session], str]) -> str:
        return "; ".join(dict.fromkeys(read(s) for s in working))

    return [*listed, *history(sessions, made),
            ("machine", of_all(lambda s: f"{_known(s.cpu_model)}, {_known(s.cores)} cores, "
                                         f"{_known(s.platform)}")),
            ("Python", of_all(lambda s: _known(s.python))),
            ("versions", of_all(lambda s: ", ".join(
                f"{k} {v}" for k, v in json.loads(s.package_versions or "{}").items())
                or "unknown")),
            ("commit", of_all(lambda s: s.git_commit or "unknown"))]


def _known(value: object) -> str:
    return "?" if value is None else str(value)
