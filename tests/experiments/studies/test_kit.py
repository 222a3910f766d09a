"""What the studies share: Markdown tables, whole processes timed in rounds and checked,
runs solved through the campaign's path, and a report made again from its rows alone
that keeps the text written by hand below it."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from experiments.campaign.record import RunRecord
from experiments.studies import nonogram_default
from experiments.studies.kit import (
    BY_HAND,
    ROOT,
    Column,
    Process,
    Row,
    RowsStudy,
    Spread,
    publish,
    puzzlelab_script,
    run_once,
    table,
    text,
    time_rounds,
)
from experiments.studies.kit.processes import Turn, in_order, installed_from
from experiments.studies.kit.records import (
    Choice,
    read_records,
    run,
    write_records,
    wrong_runs,
)
from puzzles import PUZZLES
from solvers import Status


def test_a_table_puts_figures_right_and_words_left_and_pads_for_a_terminal() -> None:
    columns: list[Column[tuple[str, int]]] = [text("name", lambda r: r[0]),
                                              Column("count", lambda r: r[1])]
    plain = table([("a", 1), ("bcd", 2345)], columns)
    assert plain[1] == "|---|---:|" and plain[3] == "| bcd | 2345 |"
    padded = table([("a", 1), ("bcd", 2345)], columns, padded=True)
    assert padded[2] == "| a    |     1 |" and len({len(line) for line in padded}) == 1


def test_processes_run_every_round_in_another_order_each_checked(tmp_path: Path) -> None:
    said: list[str] = []
    processes = [Process(name, lambda turn, name=name: [sys.executable, "-c", f"print({name!r})"],
                         lambda ended: ended.stdout.strip() == ended.turn.folder.name[:6],
                         lambda ended: {"length": len(ended.stdout)})
                 for name in ("first", "second")]
    timings = time_rounds(processes, 2, warm_up=True, scratch=tmp_path, say=said.append)
    assert [t.round for t in timings] == [1, 1, 2, 2] and len(said) == 3  # round 0 untimed
    assert {t.process for t in timings} == {"first", "second"}
    assert not any(t.correct for t in timings)  # the check compares with a folder's name
    assert all(t.seconds > 0 and t.figures == {"length": len(t.process) + 1} for t in timings)
    assert [p.name for p in in_order(processes, 1, "rotated")] == ["second", "first"]
    assert Spread.of([3.0, 1.0, 2.0]).median == 2.0


def test_puzzlelab_is_started_from_this_checkout_from_any_folder(tmp_path: Path) -> None:
    version = Process("version", lambda turn: [*puzzlelab_script(), "--version"],
                      lambda ended: ended.code == 0 and "puzzlelab" in ended.stdout)
    assert run_once(version, Turn(1, tmp_path)).correct
    script = puzzlelab_script()[0]  # the console script only when it runs this checkout
    assert Path(script).name != "puzzlelab" or installed_from() == ROOT.as_uri()


def test_a_run_is_the_campaigns_record_and_reads_back_from_runs_csv(tmp_path: Path) -> None:
    sudoku = PUZZLES.get("sudoku")
    [instance] = sudoku.parse("1...........4...")
    choice = Choice.parse("cp:classic,alldiff=weak:first-fail/min")
    assert choice.name == "cp:classic,alldiff=weak:first-fail/min"
    record = run(choice.identity(instance, time_limit=10.0), instance)
    assert (record.status, record.verdict.value, Choice.of(record.identity)) == (
        Status.SOLVED, "correct", choice)
    assert record.identity.viewpoint == "classic,alldiff=weak" and record.wall_s
    write_records([record], tmp_path / "runs.csv")
    [again] = read_records(tmp_path / "runs.csv")
    assert (again.identity, again.statistics, again.wall_s) == (
        record.identity, record.statistics, record.wall_s)
    assert wrong_runs([again]) == []
    failed = RunRecord(identity=again.identity, status=Status.ERROR, message="boom")
    [said] = wrong_runs([again, failed])
    assert said.endswith(f"({choice.name}): error")


def test_a_records_study_reads_its_runs_back_to_the_same_report(tmp_path: Path,
                                                                capsys) -> None:
    arguments = ["--sets", "small", "--solver", "cpsat", "--heuristic", "auto"]
    assert nonogram_default.main([*arguments, "--output", str(tmp_path)]) == 0
    measured = capsys.readouterr().out
    assert measured.count("| solved | correct |") == 6
    assert nonogram_default.main(["--from", str(tmp_path / "runs.csv"), "--output",
                                  str(tmp_path)]) == 0
    assert capsys.readouterr().out == measured == (tmp_path / "README.md").read_text()


def test_a_report_made_again_keeps_what_was_written_by_hand(tmp_path: Path, capsys) -> None:
    readme = tmp_path / "README.md"
    assert publish("# Figures\n\nold: 1\n", readme, []) == 0
    readme.write_text(readme.read_text() + f"\n{BY_HAND}\n\n## What it shows\n\nthoughts\n")
    assert publish("# Figures\n\nnew: 2\n", readme, ["seed 3"]) == 1
    written = readme.read_text()
    assert "new: 2" in written and "old: 1" not in written
    assert written.endswith(f"{BY_HAND}\n\n## What it shows\n\nthoughts\n")
    assert "wrong answer: seed 3" in capsys.readouterr().err


def _report(rows: Sequence[Row], command: str) -> str:
    return f"{len(rows)} rows by `{command}`; total {sum(int(r['value']) for r in rows)}\n"


def test_a_rows_study_reads_back_what_it_measured_to_the_same_report(tmp_path: Path) -> None:
    measured: list[int] = []

    def measure(seeds: int) -> list[Row]:
        measured.append(seeds)
        return [{"seed": str(seed), "value": str(10 * seed)} for seed in range(1, seeds + 1)]

    study = RowsStudy("experiments.studies.example", "An example.\n\nMore.",
                      ("--seeds", 4, "seeds"), ["seed", "value"], measure, _report,
                      lambda row: None if row["value"] != "20" else f"seed {row['seed']}")
    out = tmp_path / "out"
    assert study.main(["--seeds", "3", "--output", str(out)]) == 1  # seed 2 is wrong
    first = (out / "README.md").read_text()
    assert measured == [3]
    assert first == ("3 rows by `python -m experiments.studies.example --seeds 3 --output "
                     f"{out}`; total 60\n")
    assert study.main(["--from", str(out / "runs.csv"), "--output", str(out)]) == 1
    assert (out / "README.md").read_text() == first and measured == [3]
