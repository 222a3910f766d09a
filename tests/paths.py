"""Where the tests find the project and its shipped puzzle data."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUDOKU_DATA = ROOT / "puzzles" / "data" / "sudoku"
NONOGRAM_DATA = ROOT / "puzzles" / "data" / "nonogram"
