"""The campaign benchmark: its second thousand puzzles are puzzles, its checks can fail,
its README comes from its rows."""

from __future__ import annotations

from pathlib import Path

from experiments.studies import campaign_benchmark as bench
from puzzles import PUZZLES

SUDOKU = PUZZLES.get("sudoku")


def test_the_renamed_copies_are_other_17_clue_puzzles_with_the_same_solution_renamed() -> None:
    shipped = SUDOKU.read(bench.PUZZLE_FILE)[:20]
    lines = ["".join(str(v) for row in p.givens for v in row) for p in shipped]
    copies = bench.renamed_copies(lines)
    assert len(set(copies)) == len(copies) and not set(copies) & set(lines)
    for original, copy in zip(shipped, copies):
        assert sum(ch != "0" for ch in copy) == 17
        solved = original.known_solution.grid
        # the copy's solution is the original's transposed, under the same renaming
        renaming = {original.givens[r][c]: int(copy[9 * c + r])
                    for r in range(9) for c in range(9) if original.givens[r][c]}
        if len(renaming) == 9:
            [instance] = SUDOKU.parse(copy)
            answer = SUDOKU.solution_from_json([[renaming[solved[c][r]] for c in range(9)]
                                                for r in range(9)])
            assert SUDOKU.check(instance, answer) == []


def test_a_wrong_or_missing_line_of_the_direct_script_is_caught(tmp_path: Path) -> None:
    files = bench.prepare(tmp_path)
    solutions = [p.known_solution.grid for p in SUDOKU.read(bench.PUZZLE_FILE)]
    right = ["".join(str(v) for row in grid for v in row) for grid in solutions]
    assert not bench.direct_correct("\n".join(right), files)  # the second file's are missing
    first_only = [files[0]]
    assert bench.direct_correct("\n".join(right), first_only)
    assert not bench.direct_correct("\n".join(["1" * 81, *right[1:]]), first_only)


def test_the_report_is_made_from_the_rows_alone(capsys) -> None:
    rows = [bench._row(1, what, seconds, True) for what, seconds in (
        (bench.DIRECT_NAME, 2.0), (bench.ONE_JOB, 2.4), (bench.ALL_CORES, 2.2),
        (bench.BOOKKEEPING, 0.0002), (bench.WORKER, 0.001))]
    text = bench.report(rows, "cmd")
    assert "0.83x; at least 0.8x: **met**" in text  # 2.0 / 2.4
    assert "0.20 ms; under 0.5 ms: **met**" in text
