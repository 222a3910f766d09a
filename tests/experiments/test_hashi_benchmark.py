"""The Hashi benchmark on tiny inputs: every part runs, every answer is checked, and
the report says which targets are met, so the script cannot rot unnoticed."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.studies import hashi_benchmark
from experiments.studies.hashi_benchmark import Benchmark, Outcome, Settings, run_benchmark

TINY = Settings(main_set="kul_aplai_2019", board_set="small", board="puzzle_1", first=3,
                slow_every=2, time_limit=10.0)


@pytest.fixture(scope="module")
def figures() -> Benchmark:
    return run_benchmark(TINY)


def test_every_choice_solves_and_checks_every_instance(figures: Benchmark) -> None:
    assert list(figures.main) == [choice.name for choice in hashi_benchmark.CHOICES]
    assert figures.puzzles == 3
    for choice in hashi_benchmark.CHOICES:
        assert len(figures.main[choice.name]) == (2 if choice.slow else 3)
    runs = [*(o for outcomes in figures.main.values() for o in outcomes),
            *figures.board.values()]
    assert all(o.status == "solved" and o.correct for o in runs), runs
    assert figures.wrong() == []
    assert {figures.board[name].instance for name in figures.board} == {"puzzle_1"}


def test_every_strategy_is_measured(figures: Benchmark) -> None:
    strategies = {hashi_benchmark.strategy(choice) for choice in hashi_benchmark.CHOICES}
    assert strategies == {"after-search", "propagator", "lazy", "flow"}
    lazy = [o for choice in hashi_benchmark.CHOICES if hashi_benchmark.strategy(choice) == "lazy"
            for o in figures.main[choice.name]]
    assert all(o.lazy_rounds is not None and o.rejected is None for o in lazy)


def test_the_report_has_every_section_and_a_verdict_per_target(figures: Benchmark) -> None:
    report = hashi_benchmark.markdown(figures)
    assert "## Every strategy on `kul_aplai_2019` (3 puzzles, 10 s each)" in report
    assert "## `puzzle_1` of `small` on every combination" in report
    assert "every 2nd puzzle only" in report
    # one verdict per choice, the best combination's mean, the cp propagator's mean
    verdicts = report.count("**met**") + report.count("**not met**")
    assert verdicts == len(hashi_benchmark.CHOICES) + 2


def test_the_best_choice_is_complete_and_fastest() -> None:
    def runs(solve_s: float, status: str = "solved") -> list[Outcome]:
        return [Outcome(f"p{i}", status, status == "solved", solve_s, solve_s, 0, None, 0)
                for i in range(2)]

    figures = Benchmark(Settings(slow_every=2), puzzles=2)
    figures.main = {"fast-but-failing": runs(0.001, "timeout"), "slow": runs(0.5),
                    "fast": runs(0.01), "sampled": runs(0.0001)[:1]}
    assert hashi_benchmark.best_choice(figures) == "fast"
    assert hashi_benchmark.solved(runs(11.0), 10.0) == 0


def test_a_wrong_answer_is_reported() -> None:
    figures = Benchmark(TINY)
    figures.board = {"a": Outcome("p", "solved", False, 0.1, 0.1, 0, 0, None),
                     "b": Outcome("q", "timeout", False, 2.0, 2.0, 9, 3, None)}
    assert figures.wrong() == ["p: solved"]


def test_the_command_writes_its_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "report" / "README.md"
    code = hashi_benchmark.main(["--set", "small", "--first", "1", "--board-set", "small",
                                 "--board", "row", "--output", str(output)])
    assert code == 0
    assert output.read_text(encoding="utf-8") == capsys.readouterr().out
