"""``puzzlelab report``: the page, the Markdown and LaTeX, the figures and pictures of a
small known store; unsolved cells shown as marks, never as numbers; bad databases."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest

from experiments.analysis.report import write_report
from experiments.analysis.report_data import plot_cells
from experiments.analysis.report_figures import scatter_points
from experiments.analysis.tables import CampaignRuns
from experiments.api import read_runs, run_experiment
from experiments.campaign.store import ResultsStore
from experiments.campaign.stored_campaign import read_campaign
from puzzles import PUZZLES
from tests.experiments.analysis.pages import FIGURES, described, parsed, row_of, texts
from tests.experiments.cli.commands import run_cli
from tests.experiments.records import COMPLETE, SUDOKUS, Run, known_store
from tests.facts import assert_each_states, states
from tests.paths import NONOGRAM_DATA


def test_report_of_a_known_store_has_its_numbers_figures_and_pictures(tmp_path: Path) -> None:
    database = known_store(tmp_path / "known" / "runs.sqlite", COMPLETE)
    written = write_report([database])
    folder = tmp_path / "known" / "report"
    assert written.folder == folder
    page = parsed(folder)
    header = [text for text, _ in page.rows[1]]
    assert header == ["instance", "time (ms)", "backtracks", "time (ms)", "backtracks"]
    assert [text for text, _ in row_of(page, "lambda")] == ["4.0", "4", "2.0", "2"]
    assert [text for text, _ in row_of(page, "hard17")] == ["10.0", "10", "5.0", "5"]
    assert row_of(page, "coloin") == [("20.0", ""), ("20", ""), ("t/o", "mark"), ("t/o", "mark")]
    assert [text for text, _ in row_of(page, "solved")][0::2] == ["3/3", "2/3"]
    assert [text for text, _ in row_of(page, "total (2 solved by all)")] == ["14.0", "14",
                                                                             "7.0", "7"]
    html = (folder / "index.html").read_text(encoding="utf-8")
    # the summary, a fact a clause: who solved most, was fastest, needed fewest backtracks
    [summary] = texts(html, '<p class="summary">')
    assert_each_states(summary.rstrip(".").split("; "), ("classic", "most", "3/3"),
                       ("fastest", "2 instances", "channeled", "7.0 ms"),
                       ("fewest backtracks", "channeled", "(7)"), ("unsolved", "1 t/o"))
    assert "A known campaign." in html and "Test CPU" in html and "abc123" in html
    assert states(described(html, "runs"), "6 planned", "6 stored", "5 solved",
                  "0 unsatisfiable", "1 timed out")
    # every figure as SVG (that parses) and PDF, inlined in the page; three pictures
    for figure in FIGURES:
        svg, pdf = (folder / "figures" / f"known-{figure}.{kind}" for kind in ("svg", "pdf"))
        assert ElementTree.parse(svg).getroot().tag.endswith("svg")
        assert pdf.read_bytes().startswith(b"%PDF")
        assert f"figures/known-{figure}.svg" in page.links
    pictures = sorted(p.name for p in (folder / "figures").glob("known-*.svg")
                      if not any(p.name == f"known-{f}.svg" for f in FIGURES))
    assert pictures == ["known-coloin.svg", "known-hard17.svg", "known-lambda.svg"]
    sudoku = PUZZLES.get("sudoku")
    for picture in pictures:
        ElementTree.parse(folder / "figures" / picture)
        [instance] = [i for i in sudoku.read(Path(SUDOKUS))
                      if sudoku.instance_name(i) == picture[len("known-"):-len(".svg")]]
        assert (folder / "figures" / picture).read_text(encoding="utf-8") == sudoku.render_svg(
            instance, sudoku.known_solution(instance))
    assert len(page.images) == len(FIGURES) + 3
    assert all(str(image["src"]).startswith("data:image/svg+xml;base64,")
               for image in page.images)
    markdown = (folder / "report.md").read_text(encoding="utf-8")
    # the Markdown and LaTeX rows are the product (pasted into notes and papers): as written
    # (split by viewpoint into parts a 100-column Markdown line holds)
    assert "| lambda | 4.0 | 4 |" in markdown and "| lambda | 2.0 | 2 |" in markdown
    assert "| coloin | 20.0 | 20 |" in markdown and "| coloin | t/o | t/o |" in markdown
    assert all(f"](figures/known-{figure}.svg)" in markdown for figure in FIGURES)
    latex = (folder / "report.tex").read_text(encoding="utf-8")
    assert r"\toprule" in latex and r"lambda & 4.0 & 4 & 2.0 & 2 \\" in latex
    assert all(rf"\includegraphics[width=0.8\linewidth]{{figures/known-{figure}.pdf}}" in latex
               for figure in FIGURES)
    assert latex.count(r"\begin{figure}") == latex.count(r"\end{figure}") == len(FIGURES)


def test_timeouts_refusals_and_partial_repeats_are_marks_not_numbers(tmp_path: Path) -> None:
    runs: list[Run] = [
        ("lambda", "classic", "solved", 0.004, 4), ("lambda", "classic", "solved", 0.006, 6),
        ("lambda", "channeled", "refused", None, None),
        ("lambda", "channeled", "refused", None, None),
        ("hard17", "classic", "solved", 0.010, 10),  # one of two repeats stored
        ("hard17", "channeled", "timeout", 10.0, 777777),
        ("hard17", "channeled", "timeout", 10.0, 888888),
        ("coloin", "classic", "solved", 0.020, 20), ("coloin", "classic", "timeout", 10.0, 5),
        ("coloin", "channeled", "solved", 0.001, 1), ("coloin", "channeled", "solved", 0.003, 3),
    ]
    database = known_store(tmp_path / "rough" / "runs.sqlite", runs, repeats=2, planned=12,
                           name="rough")
    write_report([database], tmp_path / "out")
    page = parsed(tmp_path / "out")
    assert row_of(page, "lambda") == [("5.0", ""), ("5", ""), ("n/a", "mark"), ("n/a", "mark")]
    assert row_of(page, "hard17") == [("· (1/2)", "mark pending"), ("· (1/2)", "mark pending"),
                                      ("t/o", "mark"), ("t/o", "mark")]
    assert row_of(page, "coloin") == [("t/o (1/2)", "mark"), ("t/o (1/2)", "mark"),
                                      ("2.0", ""), ("2", "")]
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    [partial] = texts(html, '<p class="note">')
    assert states(partial, "partial", "11 of 12", "run the spec again")
    assert states(described(html, "runs"), "12 planned", "11 stored", "6 solved",
                  "0 unsatisfiable", "3 timed out", "0 out of memory", "2 refused")
    for number in ("777777", "888888", "10000.0"):  # what a timed-out run had reached
        assert number not in html
    # on the plots: the timed-out cells sit on the border, the refused and partial ones
    # are unsolved; no unsolved cell has a figure
    cells = plot_cells(CampaignRuns.of(read_campaign(database)), "viewpoint")
    assert all(c.time_s is None and not c.figures for c in cells if not c.solved)
    points = scatter_points(cells, ("classic", "channeled"), "time")
    assert points.both == []
    assert sorted(points.marks) == ["t/o", "unsolved"]
    assert points.marks["t/o"] == [(points.border, pytest.approx(2.0))]  # coloin: classic t/o
    # lambda: channeled refused; hard17: classic has one of two repeats, channeled t/o
    assert points.marks["unsolved"] == [(pytest.approx(5.0), points.border),
                                        (points.border, points.border)]
    # the axes fit the figures: the border just beyond the greatest (5 ms), not out at
    # the time limit (10,000 ms), which would crowd the points into a corner
    assert 5.0 < points.border <= 4 * 5.0 and 2.0 / 2 <= points.low < 2.0
    scatter_svg = (tmp_path / "out" / "figures" / "rough-scatter-time.svg").read_text()
    assert "t/o (on the border)" in scatter_svg and "unsolved (on the border)" in scatter_svg


def test_several_databases_make_one_page_with_a_section_each(tmp_path: Path) -> None:
    first = known_store(tmp_path / "a" / "runs.sqlite", COMPLETE, name="first")
    second = known_store(tmp_path / "b" / "runs.sqlite", COMPLETE[:4], name="second")
    write_report([first, second], tmp_path / "both", instances=["hard17"])
    html = (tmp_path / "both" / "index.html").read_text(encoding="utf-8")
    assert '<section id="first"' in html and '<section id="second"' in html
    assert '<a href="#first">' in html
    names = {p.name for p in (tmp_path / "both" / "figures").iterdir()}
    assert {"first-cactus.pdf", "second-cactus.pdf", "first-hard17.svg",
            "second-hard17.svg"} <= names
    assert "first-lambda.svg" not in names  # --instances names the pictures


def _error(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
           *arguments: str) -> str:
    code, out, err = run_cli(monkeypatch, capsys, "report", *arguments)
    assert code == 2 and out == "" and "Traceback" not in err
    return err


def test_report_on_a_non_database_or_an_empty_one_is_a_clear_error(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    text = tmp_path / "notes.sqlite"
    text.write_text("not a database\n" * 200)
    assert states(_error(monkeypatch, capsys, str(text)), str(text), "not a results database")
    with ResultsStore(tmp_path / "empty" / "runs.sqlite"):
        pass
    err = _error(monkeypatch, capsys, str(tmp_path / "empty" / "runs.sqlite"))
    # one line: the database, that it holds no runs, and the command that makes them
    assert err.startswith("error:") and err.count("\n") == 1
    assert states(err, str(tmp_path / "empty" / "runs.sqlite"), "no runs", "puzzlelab run SPEC")
    assert states(_error(monkeypatch, capsys, str(tmp_path / "none")), str(tmp_path / "none"),
                  "no such results database")
    assert not (tmp_path / "empty" / "report").exists()
    database = known_store(tmp_path / "known" / "runs.sqlite", COMPLETE)
    assert "no instance 'nowhere'" in _error(monkeypatch, capsys, str(database),
                                             "--instances", "nowhere")


SPEC = """
name = "reported"
puzzle = "sudoku"
instances = [{ file = "{data}/small_4x4.txt", select = [1] }]
viewpoints = ["classic", "value-position"]
solvers = ["cp"]
heuristics = ["first-fail"]
time_limit = 5
"""


def test_pictures_are_of_the_instances_the_rows_name_also_when_labelled_by_title(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
        ) -> None:
    """Nonogram rows carry the file's title, not the instance's name: the picture is of
    the instance the run's key names, drawn with the file's solution."""
    source = NONOGRAM_DATA / "webpbn_survey" / "webpbn-00001.non"
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "titled.toml"
    spec.write_text(f'name = "titled"\npuzzle = "nonogram"\ninstances = ["{source.as_posix()}"]'
                    f'\nviewpoints = ["regular"]\nsolvers = ["cp"]\ntime_limit = 5\n',
                    encoding="utf-8")
    code, _, err = run_cli(monkeypatch, capsys, "run", str(spec), "--jobs", "1", "--results",
                           str(tmp_path), "--no-progress")
    assert code == 0, err
    html = (tmp_path / "titled" / "report" / "index.html").read_text(encoding="utf-8")
    assert "Demo Puzzle from Front Page" in html and "not in" not in html
    assert "The spec (titled.toml)" in html  # relative to where the report was made
    nonogram = PUZZLES.get("nonogram")
    [instance] = nonogram.read(source)
    [picture] = (tmp_path / "titled" / "report" / "figures").glob("titled-Demo*.svg")
    assert picture.read_text(encoding="utf-8") == nonogram.render_svg(
        instance, nonogram.known_solution(instance))


@pytest.mark.parametrize("table, written", [("", True), ("table = { report = false }", False)])
def test_run_writes_the_report_unless_the_spec_says_not(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], write_spec: Any,
        tmp_path: Path, table: str, written: bool) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "run", str(write_spec(SPEC + table)),
                             "--jobs", "1", "--results", str(tmp_path), "--no-progress")
    assert code == 0, err
    index = tmp_path / "reported" / "report" / "index.html"
    assert index.exists() is written
    assert (str(index) in " ".join(out.split())) is written


def test_report_groups_and_measures_as_the_campaigns_spec_says_unless_told(
        tmp_path: Path) -> None:
    """``puzzlelab report`` on a stored campaign shows what its ``run`` showed: the spec's
    table settings, which ``--by`` and ``--metrics`` override."""
    database = known_store(tmp_path / "known" / "runs.sqlite", COMPLETE,
                           table='table = { by = "heuristic", metrics = ["time"] }')
    write_report([database], tmp_path / "own")
    page = parsed(tmp_path / "own")
    assert [text for text, _ in page.rows[0]] == ["", "input/min"]
    assert [text for text, _ in page.rows[1]] == ["instance", "time (ms)"]
    assert "Columns grouped by heuristic" in (tmp_path / "own" / "index.html").read_text()
    write_report([database], tmp_path / "told", by="viewpoint", metrics=["backtracks"])
    page = parsed(tmp_path / "told")
    assert [text for text, _ in page.rows[0]] == ["", "classic", "channeled"]
    assert [text for text, _ in page.rows[1]] == ["instance", "backtracks", "backtracks"]


def test_report_command_says_what_it_wrote(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    database = known_store(tmp_path / "known" / "runs.sqlite", COMPLETE)
    code, out, err = run_cli(monkeypatch, capsys, "report", str(database), "--out",
                             str(tmp_path / "here"), "--by", "viewpoint", "--metrics", "time")
    assert code == 0, err
    # the page, the files beside it, and how many figure files where
    assert states(out.splitlines()[0], str(tmp_path / "here" / "index.html"), "report.md",
                  "report.tex", "11 figure files", str(tmp_path / "here" / "figures"))
    assert [text for text, _ in row_of(parsed(tmp_path / "here"), "instance")] == [
        "time (ms)", "time (ms)"]


TWO_SHIKAKUS = """\
== two ways
2 2
2 -
- 2
solution:
2 2
1 1
2 2
== one way
2 2
2 2
- -
solution:
2 2
1 2
1 2
"""


def _pictures(folder: Path) -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8")
            for path in sorted((folder / "figures").glob("*.svg"))
            if "cactus" not in path.name and "effort" not in path.name
            and "scatter" not in path.name}


def test_a_report_draws_the_campaigns_answers_from_the_store_alone(tmp_path: Path) -> None:
    """The store keeps the instances and the answers: with the instance file deleted the
    report draws the same pictures. Where the file's solution differs from the campaign's
    answer (a puzzle with two), both are drawn and each caption says which it is."""
    data = tmp_path / "data" / "two.txt"
    data.parent.mkdir()
    data.write_text(TWO_SHIKAKUS, encoding="utf-8")
    spec = tmp_path / "answers.toml"
    spec.write_text('name = "answers"\npuzzle = "shikaku"\ninstances = ["data/two.txt"]\n'
                    'viewpoints = ["patterns"]\nsolvers = ["cp"]\nheuristics = ["input/min"]\n',
                    encoding="utf-8")
    done = run_experiment(spec, jobs=1, results_root=tmp_path / "results")
    before = _pictures(done.database.parent / "report")
    assert set(before) == {"answers-two_ways.svg", "answers-two_ways-known.svg",
                           "answers-one_way.svg"}
    shikaku = PUZZLES.get("shikaku")
    two, _ = shikaku.parse(TWO_SHIKAKUS)
    [run] = [r for r in read_runs(done.database) if r.identity.instance == "two ways"]
    assert before["answers-two_ways.svg"] == shikaku.render_svg(two, run.answer())
    assert before["answers-two_ways-known.svg"] == shikaku.render_svg(two, two.known_solution)
    assert run.answer() != two.known_solution
    html = (done.database.parent / "report" / "index.html").read_text(encoding="utf-8")
    # each caption: the instance, whose solution it is, and why the file's differs
    [answer] = texts(html, 'data-file="figures/answers-two_ways.svg">', "</figcaption>")
    assert states(answer, "two ways", "campaign's answer", "patterns on cp", "input/min",
                  "checked")
    [known] = texts(html, 'data-file="figures/answers-two_ways-known.svg">',
                     "</figcaption>")
    assert states(known, "two ways", "the file gives", "has another")
    data.unlink()
    write_report([done.database], tmp_path / "again")
    assert _pictures(tmp_path / "again") == before


def test_the_cactus_plot_draws_the_time_limit_only_near_its_points(tmp_path: Path) -> None:
    """Points of a few ms under a 10 s limit: a limit line would squash them into the
    bottom of the plot, so it is left out, and the caption says so; near the limit it
    is drawn."""
    fast = known_store(tmp_path / "fast" / "runs.sqlite", COMPLETE, name="fast")
    write_report([fast], tmp_path / "fast-report")
    cactus = (tmp_path / "fast-report" / "figures" / "fast-cactus.svg").read_text()
    html = (tmp_path / "fast-report" / "index.html").read_text(encoding="utf-8")
    assert "time limit" not in cactus
    [caption] = texts(html, 'data-file="figures/fast-cactus.svg">', "</figcaption>")
    assert states(caption, "time limit (10 s)", "not drawn")
    slow: list[Run] = [("lambda", "classic", "solved", 2.0, 4),
                       ("hard17", "classic", "solved", 6.0, 9)]
    write_report([known_store(tmp_path / "slow" / "runs.sqlite", slow, name="slow")],
                 tmp_path / "slow-report")
    assert "time limit" in (tmp_path / "slow-report" / "figures" / "slow-cactus.svg").read_text()
