"""Counted nouns in messages."""

from puzzlelab.wording import counted


def test_one_is_singular_and_other_counts_plural() -> None:
    assert [counted(n, "line") for n in (0, 1, 2)] == ["0 lines", "1 line", "2 lines"]
    assert counted(3, "puzzle", "puzzles") == "3 puzzles"
    assert counted(2, "matrix", "matrices") == "2 matrices"
