"""Why a cell shows a mark, said once under its table.

A refused, failed, memory-out or wrong cell carries the number of a note
(``n/a¹``), and the note gives the reason its run stored (the record's ``message``),
with the number of cells that share it: one note per distinct reason, so a
viewpoint refused on forty instances for the same reason is one line. A timeout's
reason is its limit, which the legend states: timed-out cells carry no number, and
one plain note counts them with the limit they ran under (so does a memory-out that
stored no reason); a mark whose runs stored no reason at all has only the legend.

>>> notes = Footnotes()
>>> notes.number(Reason("n/a", "too big")), notes.number(Reason("n/a", "too big"))
(1, 1)
>>> notes.number(Reason("t/o", "", time_limit=10.0)) is None
True
>>> notes.notes()
['¹ n/a: too big (2 cells)', 't/o: 1 cell stopped by the time limit (10 s of search per run)']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from experiments.analysis.table_format import MEMORY_OUT, TIMEOUT, footnote
from experiments.campaign.record import RunRecord
from experiments.campaign.verdicts import Verdict
from puzzlelab.wording import counted

MOST_REASONS = 20
"""Distinct reasons noted under one table; the rest are counted, pointing to runs.csv."""


@dataclass(frozen=True)
class Reason:
    """Why a cell shows ``mark``: its run's stored message (first line), and the limits
    it ran under (for a note on a limit that needs no message)."""

    mark: str
    text: str
    time_limit: float | None = None
    memory_limit_mb: int | None = None


def reason_of(repeats: Sequence[RunRecord], mark: str) -> Reason:
    """The reason of a cell whose repeats did not all finish correctly, shown ``mark``
    (without ``(k/n)``): the message of its first wrong run, else of its first unfinished
    one."""
    failed = [r for r in repeats if not r.finished]
    run = next((r for r in failed if r.verdict is Verdict.WRONG), failed[0])
    lines = run.message.strip().splitlines()
    return Reason(mark, lines[0].strip() if lines else "", run.identity.time_limit,
                  run.identity.memory_limit_mb)


def _limit(reason: Reason) -> str:
    """The limit a mark with no reason of its own stands for, as the note says it ("":
    none)."""
    if reason.mark == TIMEOUT and reason.time_limit is not None:
        return f"stopped by the time limit ({reason.time_limit:g} s of search per run)"
    if reason.mark == MEMORY_OUT and reason.memory_limit_mb is not None:
        return f"stopped by the memory limit ({reason.memory_limit_mb} MB per run)"
    return ""


@dataclass
class Footnotes:
    """The notes of one table, numbered in the order their cells come."""

    numbers: dict[Reason, int] = field(default_factory=dict)
    cells: dict[Reason, int] = field(default_factory=dict)
    plain: dict[tuple[str, str], int] = field(default_factory=dict)
    unnoted: int = 0
    """Cells whose reason came past :data:`MOST_REASONS`."""

    def number(self, reason: Reason) -> int | None:
        """The number of the note a cell shown for ``reason`` points to, the cell counted
        under it; None for a timeout or a mark with no reason (counted under its plain
        note, if it has one) and past :data:`MOST_REASONS`."""
        if reason.mark == TIMEOUT or not reason.text:
            limit = _limit(reason)
            if limit:  # a mark with no reason and no limit: the legend says all there is
                self.plain[(reason.mark, limit)] = self.plain.get((reason.mark, limit), 0) + 1
            return None
        if reason not in self.numbers:
            if len(self.numbers) >= MOST_REASONS:
                self.unnoted += 1
                return None
            self.numbers[reason] = len(self.numbers) + 1
        self.cells[reason] = self.cells.get(reason, 0) + 1
        return self.numbers[reason]

    def notes(self) -> list[str]:
        """One line per numbered reason, then the plain ones."""
        lines = [f"{footnote(number)} {reason.mark}: {reason.text} "
                 f"({counted(self.cells[reason], 'cell')})"
                 for reason, number in self.numbers.items()]
        lines += [f"{mark}: {counted(count, 'cell')} {what}"
                  for (mark, what), count in self.plain.items()]
        if self.unnoted:
            lines.append(f"{counted(self.unnoted, 'more cell')} with further reasons: see the "
                         f"message column of runs.csv")
        return lines
