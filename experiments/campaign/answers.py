"""Answers found again for a store that holds none: one rebuilt from ``runs.csv``.

``runs.csv`` leaves the solutions out, so a store rebuilt from it
(:mod:`experiments.campaign.from_csv`) knows how each run ended but not what it found,
and its report would draw its puzzles unsolved. Every search here is deterministic
given its identity (the viewpoint with its options, the backend with its own, the
heuristic and the seed), so an instance's answer is recovered by solving one of its
correct runs again under its recorded settings, and kept only when the new solve
reproduces that run: correct again, and every count it stored (backtracks, branches,
solutions, model sizes, ...) the same (a count declared after the run was made is not
in its row, and not compared). A run that does not reproduce (another solver
version, a search cut by its time limit) is said, with the count that differs, and the
instance's next correct run is tried. Times are not compared: they are measured.

``python -m experiments.campaign.answers DATABASE [--instances NAME ...]`` recovers an
answer for each instance that has correct runs and no stored answer.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from experiments.campaign.executors.records import record_of_run
from experiments.campaign.record import RunRecord
from experiments.campaign.solving import solve_run
from experiments.campaign.store import ResultsStore
from experiments.campaign.store.rows import to_row
from experiments.campaign.stored_campaign import StoredCampaign, read_campaign
from experiments.campaign.verdicts import Verdict
from puzzlelab.errors import PuzzleLabError
from puzzlelab.statistics import STATISTICS
from puzzles import PUZZLES

TRIES = 3
"""Correct runs of one instance solved again, at most, before it is left without."""


@dataclass(frozen=True)
class Recovered:
    """What became of one instance: the run whose answer the store now holds (or held
    already), or None; and why each run tried before did not reproduce."""

    instance: str
    run: RunRecord | None
    already: bool = False
    why: tuple[str, ...] = ()

    def said(self) -> str:
        """One line for the command's output."""
        tried = "; ".join(self.why)
        if self.run is None:
            return f"{self.instance}: no answer recovered ({tried})"
        asked = self.run.identity
        how = "stored already" if self.already else "found again, every count as stored"
        return (f"{self.instance}: the answer of {asked.viewpoint} on {asked.solver} with "
                f"{asked.heuristic} ({how}){f'; before it, {tried}' if tried else ''}")


def recover_answers(database: str | Path, instances: Sequence[str] = (),
                    on_instance: Callable[[Recovered], None] | None = None
                    ) -> list[Recovered]:
    """An answer for each instance of the store at ``database`` (those named, or all)
    that has correct runs, as the module says; each instance as it is done."""
    campaign = read_campaign(database, require_runs=True)
    runs = _runs_by_instance(campaign)
    unknown = [name for name in instances if name not in runs]
    if unknown:
        raise PuzzleLabError(f"{database}: no instance {unknown[0]!r}; its instances: "
                             f"{', '.join(list(runs)[:20])}")
    recovered = []
    with ResultsStore(campaign.database) as store:
        for label in instances or [label for label, mine in runs.items() if _correct(mine)]:
            outcome = _recover(campaign, label, runs[label])
            recovered.append(outcome)
            if outcome.run is not None and not outcome.already:
                with store.connection:  # each answer kept as it comes
                    store.connection.execute(
                        "UPDATE runs SET solution = ? WHERE run_key = ?",
                        (to_row(outcome.run)["solution"], outcome.run.identity.key))
            if on_instance is not None:
                on_instance(outcome)
    return recovered


def _runs_by_instance(campaign: StoredCampaign) -> dict[str, list[RunRecord]]:
    """Each instance's runs in grid order, the instances in grid order too."""
    found: dict[str, list[RunRecord]] = {}
    for run in sorted(campaign.runs, key=lambda run: run.identity.position):
        found.setdefault(run.identity.instance, []).append(run)
    return found


def _correct(runs: Sequence[RunRecord]) -> list[RunRecord]:
    return [run for run in runs if run.verdict is Verdict.CORRECT]


def _recover(campaign: StoredCampaign, label: str, runs: Sequence[RunRecord]) -> Recovered:
    """The first of the instance's correct runs that its solve again reproduces."""
    correct = _correct(runs)
    kept = next((run for run in correct if run.solution is not None), None)
    if kept is not None:
        return Recovered(label, kept, already=True)
    if not correct:
        return Recovered(label, None, why=("no run of the campaign solved it",))
    asked = correct[0].identity
    stored = campaign.instances.get((asked.instance_file, asked.instance_name))
    kind = PUZZLES.get(asked.puzzle)
    instance = (None if stored is None
                else kind.stored_instance(stored.text, asked.instance_name, asked.instance_file))
    if instance is None:
        return Recovered(label, None, why=("the store does not keep the instance",))
    why = []
    for run in correct[:TRIES]:
        try:
            again = record_of_run(solve_run(run.identity, instance))
        except PuzzleLabError as error:  # the backend is not installed here, say
            why.append(f"{_named(run)}: {error}")
            continue
        differs = _difference(run, again)
        if differs is None:
            return Recovered(label, again, why=tuple(why))
        why.append(f"{_named(run)}: {differs}")
    return Recovered(label, None, why=tuple(why))


def _named(run: RunRecord) -> str:
    asked = run.identity
    return f"{asked.viewpoint} on {asked.solver} with {asked.heuristic}"


def _difference(stored: RunRecord, again: RunRecord) -> str | None:
    """How the solve again differs from the stored run (None: it reproduces it)."""
    if again.verdict is not Verdict.CORRECT:
        return f"ended {again.status.value} ({again.verdict.value}) this time"
    for name in STATISTICS:
        if STATISTICS.get(name).unit != "count":
            continue
        then, now = stored.figure(name), again.figure(name)
        if then is not None and then != now:  # None: counted since the run was made
            return f"{name} {then} stored, {now} now"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: recover, say each instance, exit 1 if one is left without."""
    parser = argparse.ArgumentParser(
        prog="python -m experiments.campaign.answers",
        description="Solve one correct run of each instance again, under its recorded "
                    "settings, and store its answer where the store holds none.")
    parser.add_argument("database", type=Path, help="the results database (runs.sqlite)")
    parser.add_argument("--instances", nargs="+", default=(), metavar="NAME",
                        help="only these instances (labels as the tables show them)")
    given = parser.parse_args(argv)
    try:
        done = recover_answers(given.database, given.instances,
                               on_instance=lambda outcome: print(outcome.said(), flush=True))
    except PuzzleLabError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    missing = sum(outcome.run is None for outcome in done)
    print(f"{len(done) - missing} of {len(done)} instances have their answer in "
          f"{given.database}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
