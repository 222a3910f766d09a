"""The Hashi default benchmark: the direct script's answers are checked, its README is
made again from the committed rows alone, and its ratios compare what they say."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from experiments.studies import hashi_default as study
from tests.paths import ROOT

RESULTS = ROOT / "results" / "hashi-default"


def small_files(folder: Path) -> list[Path]:
    """Two small Hashis (KU Leuven 2 and 3) as .has files."""
    files = []
    for instance in study.KIND.read(study.DATA / "kul_aplai_2019.txt")[1:3]:
        path = folder / f"{study.KIND.instance_name(instance)}.has"
        path.write_text(study.KIND.write(instance), encoding="utf-8")
        files.append(path)
    return files


def test_the_direct_scripts_answers_are_checked_in_every_setting(tmp_path: Path) -> None:
    files = small_files(tmp_path)
    for settings in study.DIRECTS.values():
        done = subprocess.run([sys.executable, str(study.DIRECT), *settings, *map(str, files)],
                              capture_output=True, text=True, check=True)
        assert study.direct_correct(done.stdout, files)
    wrong = done.stdout.replace(" 2\n", " 1\n", 1)
    assert not study.direct_correct(wrong, files)
    assert not study.direct_correct(done.stdout, files[:1])


def test_the_ratios_compare_the_one_job_run_with_one_worker_and_the_default_with_the_best(
        ) -> None:
    times = {study.DIRECT_ONE: 6.0, study.DIRECT_INPROCESSING: 7.0, study.DIRECT_EVERY: 4.0,
             study.DEFAULT: 2.0, study.ONE_JOB: 5.0}
    rows = [{"round": "1", "set": which, "process": process, "seconds": str(seconds),
             "correct": "1"} for which in study.SETS for process, seconds in times.items()]
    rows[0]["seconds"] = "3.0"  # the 200-island set's one worker: the fastest script there
    assert rows[0]["set"] == study.SETS[0] and rows[0]["process"] == study.DIRECT_ONE
    text = study.report(rows, "python -m experiments.studies.hashi_default")
    assert f"coelho 400 islands, `{study.ONE_JOB}`: 1.20x `{study.DIRECT_ONE}`" in text
    assert f"coelho 400 islands, `{study.DEFAULT}`: 2.00x `{study.DIRECT_EVERY}`" in text
    assert f"coelho 200 islands, `{study.DEFAULT}`: 1.50x `{study.DIRECT_ONE}`" in text
    assert text.count("**met**") == 2 and text.count("**not met**") == 2  # published only


def test_the_committed_readme_is_made_again_from_its_rows(tmp_path: Path) -> None:
    assert study.main(["--from", str(RESULTS / "runs.csv"), "--output", str(tmp_path)]) == 0
    made = (tmp_path / "README.md").read_text(encoding="utf-8")
    committed = (RESULTS / "README.md").read_text(encoding="utf-8")
    assert committed.startswith(made.replace(f"--output {tmp_path}",
                                             "--output results/hashi-default").rstrip("\n"))
