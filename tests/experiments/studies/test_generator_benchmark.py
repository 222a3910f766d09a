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
    assert all(map(bench.correct, bench.ours(rows)))
    assert bench.report(rows, "cmd").count("unique puzzle: **met**") == len(bench.ASKED)

    def changed(puzzle: str, **cells: str) -> list[Row]:
        first = next(row for row in rows if row["puzzle"] == puzzle)
        return [*rows, {**first, **cells}]

    late = bench.report(changed("shikaku", seconds="20.5"), "cmd")
    assert late.count("unique puzzle: **not met**") == 1 and "shikaku: median" in late
    for wrong in ({"solutions": "2"}, {"checked": "0"}, {"exit": "1"}):
        assert "**not met**" in bench.report(changed("hashi", **wrong), "cmd")


def test_tathams_times_stand_beside_ours_and_are_no_target() -> None:
    rows = read_rows(COMMITTED)
    ours = [row for row in rows if row.get("generator", bench.OURS) == bench.OURS]
    outside = [{"puzzle": "shikaku", "seed": "1", "seconds": "60.0", "exit": "124", "size": "0",
                "solutions": "", "checked": "", "generator": bench.TATHAM},
               {"puzzle": "hashi", "seed": "1", "seconds": "0.2", "exit": "0", "size": "54",
                "solutions": "", "checked": "", "generator": bench.TATHAM}]
    text = bench.report([*ours, *outside], "cmd")
    assert text.count("unique puzzle: **met**") == len(bench.ASKED)  # the targets are ours
    section = text[text.index("## Another generator"):]
    cells = {line.split("|")[1].strip(): [cell.strip() for cell in line.split("|")[4:-1]]
             for line in section.splitlines() if line.startswith("| ")}
    assert cells["shikaku"][:2] == ["0", "–"]  # none made within the budget
    assert cells["hashi"] == ["1", "0.2", "54"]
    assert bench.STUDY.wrong(outside[0]) is None


def test_a_game_ids_size_counts_its_clues_or_islands() -> None:
    assert bench.game_id_size("sudoku", "5x5:c20_10_22_4a25a15\n") == 6
    assert bench.game_id_size("hashi", "30x30m2:e2w32za2i1") == 5  # 2, 3, 2, 2, 1
    assert bench.game_id_size("shikaku", "7x7:a12b3_4c") == 3
