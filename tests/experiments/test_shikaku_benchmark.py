"""The Shikaku benchmark on a tiny input: every part runs, every answer is checked, and
the report says which targets are met, so the script cannot rot unnoticed."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.studies import shikaku_benchmark
from experiments.studies.shikaku_benchmark import Benchmark, Outcome, Settings, run_benchmark

TINY = Settings(fast_set="small", slow_set="small", weak_sets=("small",), first=3,
                size="6x6", seed=1, time_limit=10.0, weak_time_limit=10.0,
                count_time_limit=10.0)


@pytest.fixture(scope="module")
def figures() -> Benchmark:
    return run_benchmark(TINY)


def test_every_part_solves_and_checks_every_instance(figures: Benchmark) -> None:
    assert list(figures.fast) == [shikaku_benchmark.BEST_CPSAT.name,
                                  shikaku_benchmark.BEST_CP.name]
    runs = [*(o for outcomes in figures.fast.values() for o in outcomes),
            *figures.generated.values(), *figures.pure_python,
            *(o for outcomes in figures.weak.values() for o in outcomes)]
    assert len(runs) == 2 * 3 + 2 + 3 + 6 * 3
    assert all(o.status == "solved" and o.correct for o in runs), runs
    assert figures.wrong() == []
    assert figures.candidates >= 1 and figures.generated_rooms >= 1


def test_the_report_has_every_section_and_a_verdict_per_target(figures: Benchmark) -> None:
    report = shikaku_benchmark.markdown(figures)
    for heading in ("## Best viewpoint on every `small` puzzle", "## A generated 6x6 unique",
                    "## The pure-Python backend on `small`", "## Where `geometry`"):
        assert heading in report
    assert report.count("**met**") + report.count("**not met**") == 3
    assert "| tiny | 3x3 | solved |" in report


def test_a_wrong_answer_is_reported() -> None:
    figures = Benchmark(TINY)
    figures.pure_python = [Outcome("p", "5x5", "solved", False, 0.1, 0.0, 0.1, 0),
                           Outcome("q", "5x5", "timeout", False, 2.0, 0.0, 2.0, 9)]
    assert figures.wrong() == ["p: solved"]


def test_timeouts_are_counted_by_size_smallest_first() -> None:
    outcomes = [Outcome(name, size, status, status == "solved", 0.0, 0.0, 0.0, None)
                for name, size, status in [("b", "20x20", "timeout"), ("a", "5x5", "solved"),
                                           ("c", "5x5", "timeout"), ("d", "20x20", "timeout")]]
    counts = shikaku_benchmark.timeouts_by_size(outcomes)
    assert counts == {"5x5": (1, 2), "20x20": (2, 2)} and list(counts) == ["5x5", "20x20"]


def test_the_command_writes_its_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "report" / "README.md"
    code = shikaku_benchmark.main(["--first", "1", "--size", "4x4", "--max-area", "4",
                                   "--output", str(output)])
    assert code == 0
    assert output.read_text(encoding="utf-8") == capsys.readouterr().out
