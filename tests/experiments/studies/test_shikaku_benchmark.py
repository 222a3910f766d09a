"""The Shikaku benchmark on a tiny input: every part runs through the campaign's solve
path, every answer is checked against the checker and the known solution, the report
says which targets are met, and its runs.csv makes the same report again."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from experiments.campaign.record import RunRecord
from experiments.studies import shikaku_benchmark as bench
from experiments.studies.kit.records import read_records
from solvers import Status

TINY = ["--size", "4x4", "--max-area", "4", "--first", "2"]


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    folder = tmp_path_factory.mktemp("shikaku-benchmark")
    assert bench.main([*TINY, "--output", str(folder)]) == 0
    return folder, (folder / "README.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def records(measured: tuple[Path, str]) -> list[RunRecord]:
    return read_records(measured[0] / "runs.csv")


def test_every_part_solves_and_checks_every_instance(records: list[RunRecord]) -> None:
    # the best two on 2 puzzles and the generated one, pure Python on 2, the weak six on 4
    assert len(records) == 2 * 2 + 2 + 2 + 6 * 4
    assert all(map(bench.correct, records)) and bench.wrong(records) == []
    [generated] = bench.part(records, bench.BEST_CP, in_file=False)[bench.BEST_CP.name]
    assert generated.identity.instance == "generate shikaku --size 4x4 --max-area 4 --seed 1 " \
                                          "--unique"


def test_the_report_has_every_section_and_a_verdict_per_target(
        measured: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    folder, report = measured
    assert f"`python -m experiments.studies.shikaku_benchmark {' '.join(TINY)} --output" \
           in report
    for heading in ("## Best viewpoint on every `puzzlekit_shikaku` puzzle",
                    "## A generated unique instance", "## The pure-Python backend on",
                    "## Where `geometry`"):
        assert heading in report
    assert report.count("**met**") + report.count("**not met**") == 3
    assert "| tiny | 3x3 | solved |" in report
    assert bench.main(["--from", str(folder / "runs.csv"), "--output", str(folder)]) == 0
    assert capsys.readouterr().out == report


def test_a_solution_other_than_the_known_one_is_wrong(records: list[RunRecord]) -> None:
    other = replace(records[0], matches_known=False)
    assert not bench.correct(other)
    assert bench.wrong([other]) == [f"{other.identity.instance}: not the known solution"]


def test_timeouts_are_counted_by_size_smallest_first(records: list[RunRecord]) -> None:
    weak = bench.part(records, bench.WEAK[0])[bench.WEAK[0].name]
    late = [replace(weak[-1], status=Status.TIMEOUT), *weak[:-1]]
    counts = bench.timeouts_by_size(late)
    assert list(counts) == ["3x3", "10x10"] and counts["10x10"] == (1, 3)
