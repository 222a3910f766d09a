"""The Shikaku generator benchmark: its independent check catches a puzzle that is not
unique or whose known solution is wrong, and its README comes from its rows."""

from __future__ import annotations

from pathlib import Path

from experiments.studies import shikaku_generator as bench
from puzzles import PUZZLES

SHIKAKU = PUZZLES.get("shikaku")


def _row(seed: int, seconds: float, solutions: int = 1, checked: int = 1) -> dict[str, str]:
    return {"seed": str(seed), "seconds": str(seconds), "exit": "0", "rooms": "9",
            "solutions": str(solutions), "checked": str(checked)}


def test_the_independent_check_counts_solutions_and_checks_the_known_one(
        tmp_path: Path) -> None:
    one_way = tmp_path / "one.txt"
    one_way.write_text("== one way\n2 2\n2 2\n- -\nsolution:\n2 2\n1 2\n1 2\n")
    assert bench.independent_check(one_way) == (2, 1, True)
    two_ways = tmp_path / "two.txt"
    two_ways.write_text("== two ways\n2 2\n2 -\n- 2\nsolution:\n2 2\n1 1\n2 2\n")
    assert bench.independent_check(two_ways) == (2, 2, True)
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("== wrong\n2 2\n2 2\n- -\nsolution:\n2 2\n1 1\n2 2\n")
    assert bench.independent_check(wrong) == (0, -1, False)


def test_the_report_is_made_from_the_rows_alone() -> None:
    rows = [_row(1, 12.0), _row(2, 14.0), _row(3, 19.5)]
    text = bench.report(rows, "cmd")
    assert "median 14.0 s, slowest 19.5 s (seed 3)" in text
    assert "each a checked unique puzzle: **met**" in text
    for late_or_wrong in ([*rows, _row(4, 20.5)], [*rows, _row(4, 3.0, solutions=2)],
                          [*rows, _row(4, 3.0, checked=0)]):
        assert "unique puzzle: **not met**" in bench.report(late_or_wrong, "cmd")
