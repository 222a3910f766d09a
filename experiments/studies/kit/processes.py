"""Timing whole processes, as a user waits for them: each a fresh process, started and
waited for, its wall time taken from the outside, its answer checked by the study.

Processes run in rounds, every process once a round, in an order shuffled or rotated from
round to round, so that a machine's slow spell falls on all of them alike; a first round
may run untimed, to write the bytecode and caches every later round reads.
"""

from __future__ import annotations

import functools
import importlib.metadata
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from experiments.studies.kit.markdown import Column
from experiments.studies.kit.publish import progress

ROOT = Path(__file__).resolve().parents[3]
"""The checkout these studies are part of: what their processes run."""


def puzzlelab_script() -> list[str]:
    """How to start ``puzzlelab`` from this checkout: its console script beside the
    interpreter when that script runs this checkout (an editable install of it), else
    this interpreter importing the command line from here, whatever the process's folder."""
    script = Path(sys.executable).with_name("puzzlelab")
    if script.exists() and installed_from() == ROOT.as_uri():
        return [str(script)]
    launch = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); sys.argv[0] = 'puzzlelab'; "
              "from experiments.__main__ import main; sys.exit(main())")
    return [sys.executable, "-c", launch]


def installed_from() -> str | None:
    """The folder the installed ``puzzlelab`` is an editable install of, as a URL."""
    try:
        text = importlib.metadata.distribution("puzzlelab").read_text("direct_url.json")
    except importlib.metadata.PackageNotFoundError:
        return None
    found = json.loads(text or "{}")
    return found.get("url") if found.get("dir_info", {}).get("editable") else None


@dataclass(frozen=True)
class Turn:
    """One process's turn in a round: the round (0: the untimed one) and an empty folder
    of its own, for what it writes."""

    round: int
    folder: Path


@dataclass(frozen=True)
class Ended:
    """A process that ended: its turn, exit status, output and wall time."""

    turn: Turn
    code: int
    stdout: str
    stderr: str
    seconds: float


@dataclass(frozen=True)
class Process:
    """What a study times, by the name its tables give it: the command of each turn, the
    check of its answer and, if it has any, the figures read off it (from its output or
    what it wrote); the variables its environment adds, and the folder it runs in."""

    name: str
    command: Callable[[Turn], Sequence[str]]
    check: Callable[[Ended], bool]
    figures: Callable[[Ended], Mapping[str, float]] | None = None
    environment: Callable[[Turn], Mapping[str, str]] | None = None
    cwd: Path | None = None


@dataclass(frozen=True)
class Timing:
    """One timed process: its round, name, wall time, whether its answer held, and the
    figures read off it."""

    round: int
    process: str
    seconds: float
    correct: bool
    figures: Mapping[str, float] = field(default_factory=dict)


def environment() -> dict[str, str]:
    """This process's environment for a timed one, bytecode writing left on (a user's
    interpreter writes it, and the later rounds read it)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_once(process: Process, turn: Turn) -> Timing:
    """Start ``process`` for ``turn``, wait for it, time it and check it."""
    turn.folder.mkdir(parents=True, exist_ok=True)
    extra = process.environment(turn) if process.environment else {}
    start = time.perf_counter()
    done = subprocess.run(list(process.command(turn)), capture_output=True, text=True,
                          cwd=process.cwd, env={**environment(), **extra})
    seconds = time.perf_counter() - start
    ended = Ended(turn, done.returncode, done.stdout, done.stderr, seconds)
    return Timing(turn.round, process.name, seconds, process.check(ended),
                  dict(process.figures(ended)) if process.figures else {})


Order = Literal["shuffled", "rotated"]


def in_order(processes: Sequence[Process], round_number: int, order: Order,
             seed: int = 0) -> list[Process]:
    """The processes of a round: shuffled by a seed made of ``seed`` and the round, or
    rotated to start one further each round."""
    if order == "rotated":
        start = round_number % len(processes)
        return [*processes[start:], *processes[:start]]
    shuffled = list(processes)
    random.Random(seed + round_number).shuffle(shuffled)
    return shuffled


def time_rounds(processes: Sequence[Process], rounds: int, *, order: Order = "shuffled",
                warm_up: bool = False, seed: int = 0, scratch: Path | None = None,
                say: Callable[[str], None] = progress) -> list[Timing]:
    """Every process once a round, ``rounds`` rounds (numbered from 1; with ``warm_up`` a
    round 0 first, untimed), each turn in a folder of its own below ``scratch`` (a
    temporary one when not given)."""
    if not processes or rounds < 1:
        return []
    with tempfile.TemporaryDirectory(prefix="study-") as temporary:
        below = scratch or Path(temporary)
        timings = []
        for round_number in range(0 if warm_up else 1, rounds + 1):
            for number, process in enumerate(in_order(processes, round_number, order, seed)):
                timing = run_once(process, Turn(round_number,
                                                below / f"round{round_number}-{number}"))
                if round_number:
                    timings.append(timing)
            say(f"round {round_number}/{rounds} done")
    return timings


@dataclass(frozen=True)
class Spread:
    """How a set of times spreads: how many, median, mean, least and most."""

    count: int
    median: float
    mean: float
    least: float
    most: float

    @classmethod
    def of(cls, values: Iterable[float]) -> Spread:
        """The spread of ``values`` (at least one).

        >>> Spread.of([3.0, 1.0, 2.0, 10.0])
        Spread(count=4, median=2.5, mean=4.0, least=1.0, most=10.0)
        """
        ordered = sorted(values)
        return cls(len(ordered), statistics.median(ordered), statistics.fmean(ordered),
                   ordered[0], ordered[-1])


SPREAD_FIGURES = {"median": "median", "mean": "mean", "min": "least", "max": "most"}
"""The figures of a :class:`Spread`, by the headers the tables give them."""


def spread_columns(spreads: Mapping[str, Spread], headers: Sequence[str],
                   written: Callable[[float], str]) -> list[Column[str]]:
    """A column for each figure named in ``headers`` (``median``, ``min``...) of the spread
    of the process a row names, ``written`` as the table shows it (``median (ms)``)."""
    def cell(name: str, attribute: str) -> str:
        return written(getattr(spreads[name], attribute))

    return [Column(header, functools.partial(cell, attribute=SPREAD_FIGURES[header.split()[0]]))
            for header in headers]
