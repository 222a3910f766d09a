"""``puzzlelab study``: the studies listed, one run by its name with its own arguments,
and every study's ``main`` taking the arguments the command passes on."""

from __future__ import annotations

from tests.experiments.cli.commands import run_cli
from tests.facts import states


def test_study_lists_the_studies_and_runs_one_by_name(monkeypatch, capsys) -> None:
    from experiments.studies import STUDIES

    code, out, _ = run_cli(monkeypatch, capsys, "study")
    assert code == 0 and all(name in out for name in STUDIES.names())
    code, _, err = run_cli(monkeypatch, capsys, "study", "nowhere")
    assert code == 2 and states(err, "study", "'nowhere'", "shikaku-levels")
    code, out, _ = run_cli(monkeypatch, capsys, "study", "shikaku-levels", "--help")
    assert code == 0 and "--channel" in out  # the study's own arguments


def test_every_study_has_a_main_taking_its_arguments() -> None:
    import importlib
    import inspect

    from experiments.studies import STUDIES

    for name in STUDIES.names():
        main = importlib.import_module(STUDIES.get(name).module).main
        assert list(inspect.signature(main).parameters) == ["argv"], name
