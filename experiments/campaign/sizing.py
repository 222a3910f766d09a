"""A campaign planned in proportion to the machine and to its work.

A typo in ``repeats`` or ``--jobs`` is a number with a few digits too many, and the
system's answer to it was a kill without a word: the grid's tasks filled the memory,
or thousands of worker processes started. So a grid too large to plan is refused with
its size before anything starts, and a campaign starts no more worker processes than it
has runs to make, nor more than a few per core.

Planning costs memory and time before the first run: each planned run holds its identity
in memory (about 0.7 KB, with its key) and its key in the store's grid (about 0.25 KB on
disk). A grid of a million runs takes some 0.7 GB and 20 s to plan; a hundred million, and
the system kills the process. Runs of a millisecond at a million a campaign are also a
quarter of an hour of work, and the course campaign is 1,512 runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from puzzlelab.wording import counted

MAX_RUNS = 1_000_000
"""The most runs a campaign's grid may plan (instances x viewpoints x solvers x
heuristics x repeats): past it the spec is refused, with the count."""
JOBS_PER_CORE = 4
"""Worker processes per core at most: more only share the cores thinner."""
MAX_JOBS = 1024
"""The largest ``--jobs`` taken at all: a larger one is a typo on any machine."""


def too_many_runs(runs: int, factors: str) -> str | None:
    """Why a grid of ``runs`` runs (``factors`` says what multiplies to it) is refused,
    or None when it may be planned."""
    if runs <= MAX_RUNS:
        return None
    return (f"the grid would plan {runs:,} runs ({factors}), more than the {MAX_RUNS:,} a "
            f"campaign may plan (each run planned takes memory before any runs); plan fewer "
            f"repeats or cells, or split the experiment into several")


def jobs_refusal(jobs: int, cores: int) -> str | None:
    """Why ``--jobs jobs`` is refused (no number of processes a machine could run), or
    None."""
    if jobs < 1:
        return f"--jobs must be at least 1, not {jobs}"
    if jobs > MAX_JOBS:
        return (f"--jobs {jobs}: more than {MAX_JOBS:,} worker processes at a time, on any "
                f"machine; this one runs at most {JOBS_PER_CORE * cores} ({JOBS_PER_CORE} "
                f"per core), and one per core without --jobs")
    return None


@dataclass(frozen=True)
class WorkerPlan:
    """How many worker processes a campaign starts, and what decided it."""

    workers: int
    """Processes to start: 0 when no run is left to make."""
    asked: int | None
    """``--jobs`` as given (None: one per core)."""
    cores: int
    pending: int
    local: bool = True
    """The workers run on this machine (not on a Dask scheduler's cluster)."""

    def note(self) -> str | None:
        """What to tell the user, in one line: fewer workers than ``--jobs`` asked, and
        why; more workers than cores (their times will not compare with runs made
        alone). None when there is nothing to say."""
        if not self.local or self.asked is None or not self.workers:
            return None
        fewer = ""
        if self.workers < self.asked:
            fewer = (f"capped at {self.workers} worker processes ({JOBS_PER_CORE} per core)"
                     if self.workers < self.pending else
                     f"{counted(self.workers, 'worker process', 'worker processes')}, one "
                     f"per run to make")
        if self.workers > self.cores:
            return (f"warning: --jobs {self.asked}: {fewer + ', ' if fewer else ''}more than "
                    f"the {counted(self.cores, 'core')} here; runs will compete for them, "
                    f"and their times will not compare with runs made alone")
        return f"note: --jobs {self.asked}: {fewer}" if fewer else None


def plan_workers(jobs: int | None, cores: int, pending: int, local: bool = True
                 ) -> WorkerPlan:
    """The worker processes for ``pending`` runs: ``jobs`` (one per core when None), but
    no more than the runs to make, nor, on this machine, than :data:`JOBS_PER_CORE` per
    core.

    >>> plan_workers(64, cores=2, pending=0).workers
    0
    >>> plan_workers(64, cores=2, pending=1000).workers
    8
    >>> plan_workers(None, cores=2, pending=1).workers
    1
    """
    wanted = cores if jobs is None else jobs
    workers = min(wanted, pending, JOBS_PER_CORE * cores if local else wanted)
    return WorkerPlan(max(0, workers), jobs, cores, pending, local)
