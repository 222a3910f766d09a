"""``puzzlelab export``: the puzzle's defaults, the options a user gives, the file
written, and refusals as one ``error:`` line."""

from __future__ import annotations

import shlex
from pathlib import Path

from puzzles import PUZZLES
from tests.experiments.cli.commands import run_cli
from tests.facts import states
from tests.paths import ROOT, SUDOKU_DATA

FOUR = str(SUDOKU_DATA / "small_4x4.txt")


def test_export_prints_the_default_viewpoint_with_its_options(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "export", "sudoku", FOUR, "--instance", "1",
                           "--format", "minizinc")
    assert code == 0  # the MiniZinc text is the product: its lines are matched as written
    assert "% sudoku-classic-" in out  # the default viewpoint, sudoku/classic
    assert "array[1..4, 1..4] of var 1..4: cell;" in out  # the digits as the puzzle's
    assert "alldifferent(cell[i, ..]) :: domain_propagation" \
        in out  # with its default option alldiff=strong
    assert "int_search(array1d(cell), first_fail, indomain_min)" in out


def test_export_takes_viewpoint_options_and_heuristic(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "export", "sudoku", FOUR, "--instance", "2",
                           "--viewpoint", "channeled", "-o", "channel=inverse",
                           "--heuristic", "input/max", "--format", "minizinc")
    assert code == 0
    assert "inverse(cell[i, ..], pos[.., i])" in out  # a row's cells, its digits' places
    assert "input_order, indomain_max)" in out
    assert ":: value_propagation" in out  # the viewpoint's own default: alldiff=weak


def test_export_writes_the_output_file(monkeypatch, capsys, tmp_path: Path) -> None:
    target = tmp_path / "four.mzn"
    code, out, err = run_cli(monkeypatch, capsys, "export", "sudoku", FOUR, "--instance", "1",
                             "--format", "minizinc", "--output", str(target))
    assert code == 0 and out == ""
    assert str(target) in err
    assert target.read_text(encoding="utf-8").startswith("% sudoku-classic-")


def test_a_search_minizinc_cannot_state_is_one_error_line(monkeypatch, capsys) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "export", "sudoku", FOUR, "--instance", "1",
                             "--heuristic", "first-fail+probe", "--format", "minizinc")
    assert code == 2 and out == "" and err.startswith("error:")
    # the search, the format, and what can be exported instead
    assert states(err, "first-fail/min+probe", "MiniZinc", "without +probe")
    assert len(err.strip().splitlines()) == 1


def test_an_unknown_format_lists_the_formats(monkeypatch, capsys) -> None:
    code, _, err = run_cli(monkeypatch, capsys, "export", "sudoku", FOUR, "--instance", "1",
                           "--format", "xml")
    [error] = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 2 and states(error, "'xml'", "minizinc", "xcsp3", "tatham")


def test_export_tatham_prints_the_instance_as_its_game_id(monkeypatch, capsys,
                                                          tmp_path: Path) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "export", "sudoku", FOUR, "--instance", "2",
                           "--format", "tatham")
    sudoku = PUZZLES.get("sudoku")
    given = sudoku.load(FOUR, 2)
    assert code == 0 and out == sudoku.game_id(given) + "\n"
    target = tmp_path / "four.txt"
    code, _, err = run_cli(monkeypatch, capsys, "export", "sudoku", FOUR, "--instance", "2",
                           "--format", "tatham", "--output", str(target))
    [again] = sudoku.read(target)
    assert code == 0 and str(target) in err and again.givens == given.givens


def test_export_tatham_takes_no_model_options(monkeypatch, capsys) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "export", "sudoku", FOUR, "--instance", "1",
                             "--format", "tatham", "--viewpoint", "classic",
                             "--heuristic", "input/min")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert states(err, "--viewpoint", "--heuristic", "tatham")


def test_an_instance_a_game_id_cannot_hold_is_one_error_line(monkeypatch, capsys) -> None:
    """KU Leuven's first Hashi has islands side by side, which Bridges does not allow."""
    hashi = PUZZLES.get("hashi").data_folder() / "kul_aplai_2019.txt"
    code, out, err = run_cli(monkeypatch, capsys, "export", "hashi", str(hashi), "--instance",
                             "1", "--format", "tatham")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert states(err, "kul_aplai_2019.txt", "side by side", "(row 1, column 1)")


def test_the_readmes_export_example_runs(monkeypatch, capsys) -> None:
    """The README's command, run from the repository root as a newcomer would."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    [line] = [line for line in readme.splitlines() if line.startswith("puzzlelab export ")]
    monkeypatch.chdir(ROOT)
    code, out, _ = run_cli(monkeypatch, capsys, *shlex.split(line)[1:])
    assert code == 0
    assert "array[1..9, 1..9] of var 1..9: cell;" in out
    assert "alldifferent(cell[i, ..])" in out and "constraint cell[1, 1] = 1;" in out
