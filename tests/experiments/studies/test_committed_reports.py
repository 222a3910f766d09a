"""Every committed study report is what its runs.csv makes: the README a study wrote is,
up to the part written by hand, the one ``--from runs.csv`` makes again, and every
answer in those rows held."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.studies import STUDIES
from experiments.studies.kit import BY_HAND
from tests.paths import ROOT

RESULTS = ROOT / "results"
MADE = [name for name in STUDIES.names()
        if (RESULTS / name / "runs.csv").is_file()
        and f"Written by `python -m {STUDIES.get(name).module} "
            in (RESULTS / name / "README.md").read_text(encoding="utf-8")]


def test_the_studies_that_write_their_reports_are_found() -> None:
    assert {"startup-benchmark", "campaign-benchmark", "generator-benchmark", "tree-cost",
            "hashi-benchmark", "shikaku-benchmark"} <= set(MADE)


@pytest.mark.parametrize("name", MADE)
def test_a_committed_report_is_what_its_rows_make(name: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code = STUDIES.get(name).run(["--from", str(RESULTS / name / "runs.csv"),
                                  "--output", str(tmp_path)])
    made = capsys.readouterr().out.replace(str(tmp_path), f"results/{name}")
    committed = (RESULTS / name / "README.md").read_text(encoding="utf-8")
    assert code == 0
    assert committed.split(BY_HAND)[0].rstrip() == made.rstrip()
