"""Where the tests find the project, and the puzzles' bundled data (through their kinds)."""

from __future__ import annotations

from pathlib import Path

from puzzles import PUZZLES

ROOT = Path(__file__).resolve().parents[1]
SUDOKU_DATA = PUZZLES.get("sudoku").data_folder()
NONOGRAM_DATA = PUZZLES.get("nonogram").data_folder()
