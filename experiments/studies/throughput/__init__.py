"""Sudoku throughput: puzzles per second per core, model building and checking included.

``python -m experiments.studies.throughput [--puzzles N] [--combination NAME ...]
[--direct cpsat,choco] [--json]`` solves the 1,000 17-clue puzzles of
``puzzles/data/sudoku/royle_17clue_first1000.txt`` end to end (build the viewpoint's
model, search, decode, check against the rules and the known solution) with each
backend's best Sudoku combination (:mod:`experiments.studies.throughput.combinations`), one
process, and the same puzzles with two direct scripts that build and solve the classic
model without PuzzleLab (:mod:`~experiments.studies.throughput.direct_cpsat`,
:mod:`~experiments.studies.throughput.direct_choco`). It prints puzzles/s per core and per
wall second, mean backtracks and branches, how many answers were checked correct, and
PuzzleLab's best CP-SAT and Choco combinations as a ratio of the direct scripts. A
wrong or missing answer makes the exit status 1.
"""

from experiments.studies.throughput.cli import main

__all__ = ["main"]
