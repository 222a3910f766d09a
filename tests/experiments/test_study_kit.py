"""What the benchmarks share: a report made again keeps the text written by hand below
it, and a study of runs.csv rows measures, or reads its rows back, to the same report."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from experiments.studies.kit import BY_HAND, Row, RowsStudy, publish


def test_a_report_made_again_keeps_what_was_written_by_hand(tmp_path: Path, capsys) -> None:
    readme = tmp_path / "README.md"
    assert publish("# Figures\n\nold: 1\n", readme, []) == 0
    readme.write_text(readme.read_text() + f"\n{BY_HAND}\n\n## What it shows\n\nthoughts\n")
    assert publish("# Figures\n\nnew: 2\n", readme, ["seed 3"]) == 1
    text = readme.read_text()
    assert "new: 2" in text and "old: 1" not in text
    assert text.endswith(f"{BY_HAND}\n\n## What it shows\n\nthoughts\n")
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
