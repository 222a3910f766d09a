"""Why a cell shows a mark: its reason once under the table, cells sharing it counted;
what a refused run counts as; a campaign that solved nothing still gets its tables and
report, with a line for each figure left out."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from experiments.analysis.report import write_report
from experiments.analysis.table_format import mark_meaning, render, with_footnotes
from experiments.analysis.tables import NOTES, build_tables, format_table
from experiments.api import run_experiment
from experiments.campaign.record import RunRecord
from experiments.campaign.store import ResultsStore
from tests.experiments.analysis.pages import described, parsed, row_of, texts
from tests.experiments.records import SUDOKUS, known_store, record_of, task_of
from tests.facts import assert_each_states, states
from tests.paths import NONOGRAM_DATA

TOO_BIG = "line-table: row 9 (clue 2,1,1,1,1,2) has 296,010 placements, more than 100,000"
OTHER = "line-table: row 1 (clue 7,1) has 1,344,904 placements, more than 100,000"


def run(instance: str, viewpoint: str, status: str = "solved", message: str = "",
        solve_s: float | None = 0.002, time_limit: float = 10.0) -> RunRecord:
    task = task_of(instance, viewpoint, instance_position=int(instance[1:]),
                   time_limit=time_limit)
    return record_of(task, status, message=message, solve_s=solve_s, backtracks=5)


# three cells refused for one reason, one for another, one error, two timeouts
RUNS = [
    run("p1", "table", "refused", TOO_BIG, None), run("p1", "regular"),
    run("p2", "table", "refused", TOO_BIG, None), run("p2", "regular", "timeout", "", 10.0),
    run("p3", "table", "refused", TOO_BIG, None), run("p3", "regular", "error",
                                                      "ValueError: boom (at x.py:3)\nmore"),
    run("p4", "table", "refused", OTHER, None), run("p4", "regular", "timeout", "", 10.0),
    run("p5", "table", "solved", solve_s=0.004), run("p5", "regular", solve_s=0.001),
]


def test_each_reason_is_noted_once_and_its_cells_point_to_it() -> None:
    [table] = build_tables(RUNS)
    assert dict(table.rows)["p1"][0] == "n/a"  # the cell's text is its mark alone
    rows = dict(with_footnotes(table).rows)  # as shown
    assert [rows[p][0] for p in ("p1", "p2", "p3", "p4")] == ["n/a¹", "n/a¹", "n/a¹", "n/a³"]
    assert rows["p1"][1] == "n/a"  # the number once per cell, on its first column
    assert rows["p3"][2] == "err²" and rows["p2"][2] == rows["p4"][2] == "t/o"
    notes = [n for n in table.notes if n[0] in "¹²³" or n.startswith("t/o:")]
    # each note: its number, the mark, the reason (a message's first line), how many cells
    assert [note[0] for note in notes] == ["¹", "²", "³", "t"]
    assert_each_states(notes, ("¹", "n/a", TOO_BIG, "3 cells"),
                       ("²", "err", "ValueError: boom (at x.py:3)", "1 cell"),
                       ("³", "n/a", OTHER, "1 cell"), ("t/o", "2 cells", "10 s"))
    assert "more" not in notes[1]  # the error's first line alone
    for fmt in ("text", "markdown", "latex"):
        assert "296,010 placements" in render([table], fmt)
    csv = format_table(RUNS, fmt="csv")
    assert ",p1,n/a,n/a," in csv and "¹" not in csv  # marks plain, no notes to point to
    latex = format_table(RUNS, fmt="latex")
    assert r"n/a\textsuperscript{1} &" in latex and r"\textsuperscript{1} n/a: " in latex
    assert mark_meaning("n/a¹") == mark_meaning("n/a") and mark_meaning("err² (1/3)")


def test_a_refused_run_is_left_out_of_solved_counts_and_par2_and_the_notes_say_so() -> None:
    [table] = build_tables(RUNS)
    rows = dict(table.rows)
    # table refused p1-p4: solved 1 of the 1 it tried; regular solved p1 and p5 of 5
    assert rows["solved"][0] == "1/1 (4 n/a)" and rows["solved"][2] == "2/5"
    # PAR-2 over p5 alone, the one instance no group refused: no 2 x 10 s for a refusal
    [par2] = [label for label in rows if label.startswith("PAR-2")]
    assert par2 == "PAR-2 (1 instance, 4 n/a out)"
    assert rows[par2][0] == "4.0" and rows[par2][2] == "1.0"
    assert NOTES in table.notes  # which says what the solved counts and PAR-2 leave out
    assert states(NOTES, "PAR-2", "no group refused", "did not refuse")


def test_a_campaign_that_solved_nothing_gets_its_tables_and_report(tmp_path: Path) -> None:
    refused = known_store(tmp_path / "refused" / "runs.sqlite",
                          [("lambda", "classic", "refused", None, None),
                           ("lambda", "channeled", "refused", None, None)])
    written = write_report([refused], tmp_path / "r1")
    assert not any("cactus" in f.name or "effort" in f.name or "scatter" in f.name
                   for f in written.files)
    html = (tmp_path / "r1" / "index.html").read_text(encoding="utf-8")
    # each figure left out, and why
    [absent] = texts(html, '<p class="absent">')
    assert states(absent, "Not drawn", "cactus plot", "time scatter plot",
                  "backtracks scatter plot", "effort plot", "no cell was solved", "2 n/a")
    assert row_of(parsed(tmp_path / "r1"), "solved") == [("0/0 (1 n/a)", ""), ("", ""),
                                                        ("0/0 (1 n/a)", ""), ("", "")]
    timed_out = known_store(tmp_path / "slow" / "runs.sqlite",
                            [("lambda", "classic", "timeout", 10.0, 7)])
    write_report([timed_out], tmp_path / "r2")
    html = (tmp_path / "r2" / "index.html").read_text(encoding="utf-8")
    [absent] = texts(html, '<p class="absent">')  # two reasons, each with the figures it leaves out
    assert_each_states(absent.split("; "),
                       ("cactus plot", "effort plot", "no cell was solved", "1 t/o"),
                       ("scatter plots", "one viewpoint", "classic"))
    [timed_out_note] = [n for n in texts(html, '<p class="table-notes">') if n.startswith("t/o")]
    assert states(timed_out_note, "1 cell", "time limit", "10 s")


def test_one_refused_run_of_a_large_nonogram_writes_its_tables_and_report(
        tmp_path: Path) -> None:
    """The reported crash: line-table with max_placements = 1000 on the 45x50 'Swing'."""
    spec = tmp_path / "refused.toml"
    source = (NONOGRAM_DATA / "webpbn_survey" / "webpbn-00529.non").as_posix()
    spec.write_text(f'name = "refused"\npuzzle = "nonogram"\ninstances = ["{source}"]\n'
                    f'viewpoints = [{{ name = "line-table", options = {{ max_placements = 1000 '
                    f'}} }}]\nsolvers = ["cpsat"]\ntime_limit = 5\n', encoding="utf-8")
    done = run_experiment(spec, jobs=1, out=tmp_path / "out")
    folder = done.database.parent
    table = (folder / "table.md").read_text(encoding="utf-8")
    # a Markdown row, the product as written (its two columns in two 100-column parts)
    assert "| Swing | n/a¹ |" in table and "| Swing | n/a |" in table
    [note] = [line for line in table.splitlines() if line.startswith("¹")]
    # the refusal: the line, its clue and size, and the option's value that refused it
    assert states(note, "n/a", "line-table", "row 1", "clue 7,1,1,1,1,1", "1,344,904",
                  "max_placements=1,000")
    html = (folder / "report" / "index.html").read_text(encoding="utf-8")
    assert "1,344,904" in html and texts(html, '<p class="absent">')


def test_a_campaigns_history_and_exact_limits_are_in_the_facts(tmp_path: Path) -> None:
    """Two sessions: one that ran two runs and was interrupted, a later one that ran the
    third; and a rerun with nothing to do. The facts list all three, and the limits
    the runs were given."""
    from tests.experiments.records import session_of

    database = tmp_path / "history" / "runs.sqlite"
    with ResultsStore(database) as store:
        times = [("2026-03-01T10:00:00.000+00:00", "2026-03-01T10:05:00.000+00:00",
                  "interrupted"),
                 ("2026-03-02T09:00:00.000+00:00", "2026-03-02T09:00:30.000+00:00",
                  "finished"),
                 ("2026-03-03T08:00:00.000+00:00", "2026-03-03T08:00:00.050+00:00",
                  "finished")]
        sessions = []
        for started, ended, state in times:
            sessions.append((store.start_campaign(replace(session_of("history", planned=3),
                                                          started_at=started)), ended, state))
        finished = ["2026-03-01T10:01:00.000+00:00", "2026-03-01T10:02:00.000+00:00",
                    "2026-03-02T09:00:10.000+00:00"]
        for position, (instance, at) in enumerate(zip(("lambda", "hard17", "coloin"),
                                                      finished)):
            task = task_of(instance, position=position, instance_file=SUDOKUS,
                           time_limit=2.5, memory_limit_mb=512)
            store.record_run(replace(record_of(task, solve_s=0.001), finished_at=at))
        for campaign, ended, state in sessions:
            store.end_campaign(campaign, ended, state)
    write_report([database], tmp_path / "out")
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert states(described(html, "time limit"), "2.5 s")
    assert states(described(html, "memory limit"), "512 MB")
    # each session: when it began, how long it took, how it ended, what it planned and made
    assert states(described(html, "session 1"), "2026-03-01 10:00 UTC", "5 min 0 s",
                  "interrupted", "3 planned", "2 stored runs")
    assert states(described(html, "session 2"), "2026-03-02 09:00 UTC", "30 s", "finished",
                  "3 planned", "1 stored run")
    assert states(described(html, "session 3"), "2026-03-03 08:00 UTC", "0.05 s", "finished",
                  "3 planned", "0 stored runs")
