"""The Hashi benchmark on tiny inputs: every part runs through the campaign's solve path,
every answer is checked, the report says which targets are met, and its runs.csv makes
the same report again."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from experiments.campaign.record import RunRecord
from experiments.studies import hashi_benchmark as bench
from experiments.studies.kit.records import by_choice, checked, read_records
from solvers import Statistics, Status

TINY = ["--set", "kul_aplai_2019", "--first", "3", "--slow-every", "2", "--board-set", "small",
        "--board", "puzzle_1"]


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    folder = tmp_path_factory.mktemp("hashi-benchmark")
    assert bench.main([*TINY, "--output", str(folder)]) == 0
    return folder, (folder / "README.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def records(measured: tuple[Path, str]) -> list[RunRecord]:
    return read_records(measured[0] / "runs.csv")


def test_every_choice_solves_and_checks_every_puzzle_and_the_board(
        records: list[RunRecord]) -> None:
    main, board = bench.parts(records)
    assert list(by_choice(main)) == [choice.name for choice in bench.CHOICES]
    for choice in bench.CHOICES:
        assert len(by_choice(main)[choice.name]) == (2 if choice in bench.SLOW else 3)
    assert all(map(checked, records))
    assert {r.identity.instance for r in board} == {"puzzle_1"} and len(board) == 10
    assert all(r.statistics.lazy_rounds is not None for r in records
               if r.identity.options["connect"] == "lazy")


def test_the_report_names_its_command_and_a_verdict_per_target(
        measured: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    folder, report = measured
    assert f"`python -m experiments.studies.hashi_benchmark {' '.join(TINY)} --output" in report
    assert "## Every strategy on `kul_aplai_2019` (3 puzzles, 10 s each)" in report
    assert "every 2nd puzzle only" in report
    verdicts = report.count("**met**") + report.count("**not met**")
    assert verdicts == len(bench.CHOICES) + 2  # each choice, the best mean, cp's propagator
    assert bench.main(["--from", str(folder / "runs.csv"), "--output", str(folder)]) == 0
    assert capsys.readouterr().out == report


def _runs(records: Sequence[RunRecord], solve_s: float, status: Status = Status.SOLVED
          ) -> list[RunRecord]:
    return [replace(r, status=status, statistics=Statistics(solve_s=solve_s)) for r in records]


def test_the_best_choice_is_complete_and_fastest(records: list[RunRecord]) -> None:
    two = bench.parts(records)[0][:2]
    chosen = {"fast-but-failing": _runs(two, 0.001, Status.TIMEOUT), "slow": _runs(two, 0.5),
              "fast": _runs(two, 0.01), "sampled": _runs(two[:1], 0.0001)}
    assert bench.best_choice(chosen, puzzles=2) == "fast"
    assert bench.solved(_runs(two, 11.0)) == 0  # beyond the 10 s limit


def test_a_wrong_answer_is_reported(records: list[RunRecord]) -> None:
    wrong = replace(records[0], status=Status.ERROR, message="the checker rejected it")
    assert bench.STUDY.wrong([wrong, *records[1:]]) == [
        f"puzzle_1 ({bench.CHOICES[0].name}): error"]
