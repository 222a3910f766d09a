"""Which run a run is: one frozen type, held by the task, the solve and the record.

A :class:`RunIdentity` says what was asked of a run: the puzzle and instance, the
viewpoint with its options, the solver, the heuristic, the repeat, the seed and the
limits, and where the run stands in its campaign's grid. The worker's task
(:class:`~experiments.campaign.grid.RunTask`), the judged solve
(:class:`~experiments.campaign.solving.PuzzleRun`) and the stored record
(:class:`~experiments.campaign.record.RunRecord`) each hold one, so its fields are
spelled once: here. The store's columns and ``--json`` take their names from these
fields.

>>> identity = RunIdentity(puzzle="sudoku", instance_file="p.txt", instance_name="p",
...                        instance="p", viewpoint_name="classic", viewpoint="classic",
...                        solver="cp", heuristic="input/min")
>>> identity.key
'["p.txt", "p", "classic", "cp", "input/min", 0]'
>>> key_instance(identity.key)
'p'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from puzzlelab.errors import OptionError

ALL_SOLUTIONS = 0
"""``max_solutions`` that asks for every solution (a spec, the command line and the
Python API all spell it so; ``None`` is read as it too)."""


@dataclass(frozen=True, kw_only=True)
class RunIdentity:
    """What a run was asked to do, and its place in its campaign.

    Attributes:
        puzzle: the puzzle's registry name.
        instance_file: the instance's file as the spec writes it ("" for an instance
            given in memory).
        instance_name: the puzzle's name for the instance, unique within its file.
        instance: the instance's label: unique within the campaign, the tables' row (a
            title or the end of a path where the name alone would repeat).
        viewpoint_name: the viewpoint's registry name.
        viewpoint: the viewpoint's label in the tables (a campaign may run one viewpoint
            under two sets of options); a lone run's is the viewpoint's name.
        options: the viewpoint's options, as given.
        solver: the solver's label in the tables (a campaign may run one backend under
            two sets of its own options); by default the backend's name.
        solver_name: the backend's registry name (the label's, when not given).
        solver_options: the backend's own options (``{"solver": "chuffed"}`` on
            ``minizinc``), as given.
        heuristic: the heuristic as named (``VARORDER/VALUEORDER`` or ``auto``, ...).
        repeat: which repeat of its grid cell (0-based).
        seed: the seed of random orders and solvers.
        time_limit: seconds of search (None: no limit).
        memory_limit_mb: megabytes the run may use (None: no limit).
        max_solutions: solutions to stop at (:data:`ALL_SOLUTIONS`: all of them).
        position: the run's place in the grid (the tables' order).
        instance_position: the instance's place among the campaign's instances.
    """

    puzzle: str
    instance_file: str = ""
    instance_name: str
    instance: str
    viewpoint_name: str
    viewpoint: str
    options: Mapping[str, Any] = field(default_factory=dict, hash=False)
    solver: str
    solver_name: str = ""
    solver_options: Mapping[str, Any] = field(default_factory=dict, hash=False)
    heuristic: str
    repeat: int = 0
    seed: int = 0
    time_limit: float | None = None
    memory_limit_mb: int | None = None
    max_solutions: int = 1
    position: int = 0
    instance_position: int = 0

    def __post_init__(self) -> None:
        if not self.solver_name:  # a lone run, or a store made before solver labels
            object.__setattr__(self, "solver_name", self.solver)

    @property
    def key(self) -> str:
        """The run's key in its store: what resuming compares. It names the instance by
        the puzzle's name (not its label, which depends on the campaign's other files),
        the viewpoint and the solver by their labels."""
        return run_key(self.instance_file, self.instance_name, self.viewpoint, self.solver,
                       self.heuristic, self.repeat)


def run_key(instance_file: str, instance_name: str, viewpoint: str, solver: str,
            heuristic: str, repeat: int) -> str:
    """:attr:`RunIdentity.key` from its parts (a store's rows keep it as ``run_key``)."""
    return json.dumps([instance_file, instance_name, viewpoint, solver, heuristic, repeat])


def key_instance(key: str) -> str:
    """The puzzle's name for the instance of a run, read back from its key (a store made
    before the name had a column of its own)."""
    return str(json.loads(key)[1])


def solutions_wanted(max_solutions: int | None) -> int:
    """``max_solutions`` in its one spelling: ``None`` (all, as the solving layer says) is
    :data:`ALL_SOLUTIONS`; a negative count is refused.

    >>> solutions_wanted(None), solutions_wanted(0), solutions_wanted(3)
    (0, 0, 3)
    """
    if max_solutions is None:
        return ALL_SOLUTIONS
    if max_solutions < 0:
        raise OptionError(f"max_solutions is 0 (all solutions) or a positive count, not "
                         f"{max_solutions}")
    return max_solutions


def split_options(options: Mapping[str, object] | None, solver: str
                  ) -> tuple[dict[str, object], dict[str, str]]:
    """``options`` parted into the viewpoint's and the backend's own (the names the
    backend declares, such as ``solver`` on ``minizinc``)."""
    from solvers import BACKENDS  # the backend's module, for its declaration

    declared = BACKENDS.get(solver).capabilities.options
    given = dict(options or {})
    return ({k: v for k, v in given.items() if k not in declared},
            {k: str(v) for k, v in given.items() if k in declared})
