"""Sudoku viewpoints that misbehave on purpose, loaded by the runner tests through a spec's
``modules`` key (never imported by the package itself).

Each builds the classic model, so the runner's up-front checks pass, and misbehaves
when it decodes the solution, inside the worker, after the search.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

from puzzlelab.errors import ModelError
from puzzles.sudoku import SudokuInstance
from solvers import Assignment
from viewpoints.registry import BuiltModel, viewpoint
from viewpoints.sudoku import classic


def _misbehaving(instance: SudokuInstance, fault: Callable[[], None]) -> BuiltModel:
    built = classic(instance, "weak")

    def decode(assignment: Assignment) -> object:
        fault()
        return built.decode(assignment)

    return BuiltModel(built.model, decode)


def _hang() -> None:
    while True:
        time.sleep(1)


def _raise() -> None:
    raise RuntimeError("deliberate failure in a test viewpoint")


def _allocate() -> None:
    blocks = []
    while True:
        blocks.append(bytearray(32 * 2**20))


def _crash() -> None:
    os.kill(os.getpid(), signal.SIGSEGV)


@viewpoint("sudoku", "test-hang")
def hang(instance: SudokuInstance) -> BuiltModel:
    """Never finishes: the runner must kill it at its time limit."""
    return _misbehaving(instance, _hang)


@viewpoint("sudoku", "test-raise")
def fail(instance: SudokuInstance) -> BuiltModel:
    """Raises: the runner must record an error with this message."""
    return _misbehaving(instance, _raise)


@viewpoint("sudoku", "test-allocate")
def allocate(instance: SudokuInstance) -> BuiltModel:
    """Allocates until memory runs out: the runner must record memory-out."""
    return _misbehaving(instance, _allocate)


@viewpoint("sudoku", "test-crash")
def crash(instance: SudokuInstance) -> BuiltModel:
    """Kills its own process: the runner must record an error and replace the worker."""
    return _misbehaving(instance, _crash)


def _pause() -> None:
    time.sleep(0.2)


@viewpoint("sudoku", "test-slow")
def slow(instance: SudokuInstance) -> BuiltModel:
    """Correct but a fifth of a second slower: gives tests time to interrupt a campaign."""
    return _misbehaving(instance, _pause)


@viewpoint("sudoku", "test-bad-model")
def bad_model(instance: SudokuInstance) -> BuiltModel:
    """Cannot build its model (not for size): the spec check must name it."""
    raise ModelError("a deliberately inconsistent model")


@viewpoint("sudoku", "test-slow-build")
def slow_build(instance: SudokuInstance) -> BuiltModel:
    """Builds for 1.2 s, then searches and decodes in 0.6 s: within a 1 s search limit."""
    time.sleep(1.2)
    built = classic(instance, "weak")

    def decode(assignment: Assignment) -> object:
        time.sleep(0.6)
        return built.decode(assignment)

    return BuiltModel(built.model, decode)


@viewpoint("sudoku", "test-hang-build")
def hang_build(instance: SudokuInstance) -> BuiltModel:
    """Never finishes building its model in a worker: the runner must kill it all the same.
    (The spec check builds each viewpoint once in the runner's own process.)"""
    if Path(sys.argv[0]).name == "worker.py":
        _hang()
    return classic(instance, "weak")
