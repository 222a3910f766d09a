"""Benchmarks and studies: the only code of ``experiments/`` that may name a puzzle.

Each is a module with ``main(argv)``, run as ``python -m <module>`` or, by its name in
:data:`STUDIES`, as ``puzzlelab study NAME [ARGUMENTS...]``; each writes its figures
beside its results (``results/<name>/``).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass

from puzzlelab.registry import Registry


@dataclass(frozen=True)
class Study:
    """A study or benchmark: its command name, the module that ``python -m`` runs and
    whose ``main(argv)`` runs it, and what it measures, in one line."""

    name: str
    module: str
    summary: str

    def run(self, argv: Sequence[str]) -> int:
        """Run it with ``argv``; its exit status."""
        code = importlib.import_module(self.module).main(list(argv))
        return int(code or 0)


STUDIES: Registry[Study] = Registry("study")

for _study in (
    Study("shikaku-levels", "experiments.studies.shikaku_levels",
          "Simonis' propagation levels of Shikaku instances (undecided cells after the root "
          "propagation, constraint family by family), beside the published figures"),
    Study("course-tables", "experiments.studies.course_tables",
          "the KU Leuven course's published Sudoku backtrack counts beside a campaign's "
          "deep_backtracks, cell by cell"),
    Study("hashi-benchmark", "experiments.studies.hashi_benchmark",
          "every Hashi connectivity strategy on the Coelho 200-island set and KU Leuven "
          "puzzle 6"),
    Study("hashi-connectivity", "experiments.studies.hashi_connectivity",
          "every figure of the Hashi connectivity campaign's README (viewpoints x connect "
          "strategies x improvements) and its improvements.md, from the committed runs.csv"),
    Study("hashi-default", "experiments.studies.hashi_default",
          "the default Hashi campaign against a direct CP-SAT script with lazy cuts, end to "
          "end, on 200- and 400-island boards"),
    Study("shikaku-benchmark", "experiments.studies.shikaku_benchmark",
          "Shikaku viewpoints on the puzzlekit and KU Leuven sets and a generated 200x200"),
    Study("nonogram-default", "experiments.studies.nonogram_default",
          "the Nonogram default (the portfolio auto) on the 40 shipped survey and MiniZinc "
          "puzzles"),
    Study("throughput", "experiments.studies.throughput",
          "Sudoku puzzles per second per solver, against direct CP-SAT and Choco scripts"),
    Study("runner-benchmark", "experiments.studies.runner_benchmark",
          "the runner's overhead: long-lived workers against one process per run"),
    Study("campaign-benchmark", "experiments.studies.campaign_benchmark",
          "the default Sudoku campaign over 2,000 17-clue puzzles against a direct pychoco "
          "script, whole processes"),
    Study("generator-benchmark", "experiments.studies.generator_benchmark",
          "generate --unique on a 25x25 Sudoku, a 30x30 Hashi with 150 islands and a 200x200 "
          "Shikaku, whole processes, each instance counted again by another solver"),
    Study("difficulty-benchmark", "experiments.studies.difficulty_benchmark",
          "generate --difficulty for every grade of every puzzle with the command's "
          "defaults, whole processes, each instance graded again apart from the generator"),
    Study("explain-benchmark", "experiments.studies.explain_benchmark",
          "puzzlelab explain --json on a 17-clue Sudoku and on Tatham-made 20x20 Nonograms, "
          "15x15 Hashi and 15x15 Shikaku, whole processes, every step checked"),
    Study("scale", "experiments.studies.campaign_scale",
          "the runner's memory, the store's size and the time and memory of table and "
          "report as a campaign grows to a million runs"),
    Study("dask-scale", "experiments.studies.dask_scale",
          "a campaign on a local Dask cluster at 1, 2 and 4 worker processes against the "
          "local pool, and a Dask worker killed mid-campaign (no run lost or stored twice)"),
    Study("explain-difficulty", "experiments.studies.explain_difficulty",
          "the explanation's difficulty against the levels of Tatham's Solo and Bridges "
          "generators: Spearman's rho on a training and a test sample of seeds"),
    Study("startup-benchmark", "experiments.studies.startup",
          "puzzlelab solve, --version, --help and list as whole processes, against a direct "
          "pychoco script"),
    Study("tree-cost", "experiments.studies.tree_cost",
          "what recording search trees costs: the throughput benchmark against a commit "
          "before trees, whole processes, and bytes per node with the recording on"),
):
    STUDIES.add(_study.name, _study)
