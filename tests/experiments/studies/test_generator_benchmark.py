"""The generator benchmark: its independent check catches a puzzle that is not unique or
whose known solution is wrong, and its README comes from its rows, a target per puzzle."""

from __future__ import annotations

from pathlib import Path

from experiments.studies import generator_benchmark as bench
from experiments.studies.kit import Row, read_rows
from tests.paths import ROOT

COMMITTED = ROOT / "results" / "generator-benchmark" / "runs.csv"


def _written(folder: Path, text: str) -> Path:
    folder.mkdir()
    (folder / "made.txt").write_text(text)
    return folder


def test_the_independent_check_counts_solutions_and_checks_the_known_one(
        tmp_path: Path) -> None:
    one_way = _written(tmp_path / "one", "== one way\n2 2\n2 2\n- -\nsolution:\n2 2\n1 2\n1 2\n")
    assert bench.independent_check("shikaku", one_way) == {"size": 2, "solutions": 1,
                                                           "checked": 1}
    two_ways = _written(tmp_path / "two", "== two\n2 2\n2 -\n- 2\nsolution:\n2 2\n1 1\n2 2\n")
    assert bench.independent_check("shikaku", two_ways)["solutions"] == 2
    wrong = _written(tmp_path / "wrong", "== wrong\n2 2\n2 2\n- -\nsolution:\n2 2\n1 1\n2 2\n")
    assert bench.independent_check("shikaku", wrong) == {"size": 0, "solutions": -1,
                                                         "checked": 0}
    assert bench.independent_check("shikaku", tmp_path / "none")["checked"] == 0


def test_the_committed_rows_meet_every_target_and_a_late_or_wrong_one_does_not() -> None:
    rows = read_rows(COMMITTED)
    assert {row["puzzle"] for row in rows} == set(bench.ASKED)
    assert all(map(bench.correct, rows))
    assert bench.report(rows, "cmd").count("unique puzzle: **met**") == len(bench.ASKED)

    def changed(puzzle: str, **cells: str) -> list[Row]:
        first = next(row for row in rows if row["puzzle"] == puzzle)
        return [*rows, {**first, **cells}]

    late = bench.report(changed("shikaku", seconds="20.5"), "cmd")
    assert late.count("unique puzzle: **not met**") == 1 and "shikaku: median" in late
    for wrong in ({"solutions": "2"}, {"checked": "0"}, {"exit": "1"}):
        assert "**not met**" in bench.report(changed("hashi", **wrong), "cmd")
