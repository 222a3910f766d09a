"""The root-propagation profile: each constraint family's pruning alone and together,
failures as None, a backend without root propagation refused, the model's size as built
and as posted, and ``solve --profile``."""

from __future__ import annotations

import pytest

from puzzlelab.errors import UnsupportedCombination
from puzzles import PUZZLES
from puzzles.sudoku import load
from solvers import Model, all_different, linear, propagate_root
from solvers.root_profile import model_sizes, root_profile
from tests.experiments.cli.commands import run_cli
from tests.facts import states
from tests.paths import SUDOKU_DATA
from viewpoints import get_viewpoint

HARD17 = load(SUDOKU_DATA / "kul_named_9x9.txt", "hard17")


def sudoku(viewpoint: str, strength: str) -> Model:
    return get_viewpoint("sudoku", viewpoint).build(HARD17, {"alldiff": strength}).model


def test_each_family_is_counted_and_together_prunes_at_least_as_much() -> None:
    model = sudoku("channeled", "weak")
    profile = root_profile(model)
    kinds = {family.kind: family for family in profile.families}
    assert set(kinds) == {c.kind for c in model.constraints}
    assert sum(f.constraints for f in profile.families) == len(model.constraints)
    together = propagate_root(model)
    assert together is not None
    assert profile.removed == sum(len(v.domain) - len(together[v]) for v in model.variables)
    assert profile.removed is not None
    assert profile.removed >= max(f.removed or 0 for f in profile.families)
    assert profile.fixed_before == sum(len(v.domain) == 1 for v in model.variables)
    assert profile.fixed is not None and profile.fixed > profile.fixed_before


def test_strong_all_different_removes_more_than_weak() -> None:
    weak, strong = (root_profile(sudoku("classic", s)) for s in ("weak", "strong"))
    assert strong.removed is not None and weak.removed is not None
    assert strong.removed > weak.removed


def test_a_family_that_fails_alone_is_none() -> None:
    model = Model("clash")
    x, y = model.int_var(0, 1, "x"), model.int_var(0, 1, "y")
    model.add(all_different([x, y]))
    model.add(linear([(1, x), (1, y)], "==", 0))
    profile = root_profile(model)
    assert [(f.kind, f.removed) for f in profile.families] == [("all-different", 0),
                                                                ("linear", 2)]
    assert profile.removed is None and profile.fixed is None


def test_a_backend_without_root_propagation_is_refused() -> None:
    with pytest.raises(UnsupportedCombination, match="root propagation"):
        root_profile(sudoku("classic", "weak"), "cpsat")


def test_solve_prints_the_profile(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku",
                           str(SUDOKU_DATA / "kul_named_9x9.txt"), "--instance", "hard17",
                           "--viewpoint", "classic", "-o", "alldiff=strong", "--solver",
                           "cpsat", "--profile")
    assert code == 0
    expected = root_profile(sudoku("classic", "strong"))
    lines = out.splitlines()
    # propagated on cp, since cpsat has no root propagation of its own
    [heading] = [line for line in lines if line.startswith("root propagation")]
    assert states(heading, "on cp", "cpsat has none", f"{expected.variables} variables",
                  f"{expected.values} values", f"{expected.fixed_before} fixed")
    [line] = [line for line in lines if line.startswith(" together")]
    assert line.split()[1:3] == ["27", str(expected.removed)]
    assert states(line, f"{expected.fixed} variables fixed")
    [built] = [line for line in lines if line.startswith("model as built")]
    assert states(built, "81 variables", "27 constraints", "27 all-different")


def test_model_sizes_as_built_and_as_the_backend_posts_them() -> None:
    """The flow of ``connected`` adds variables and linear constraints on CP-SAT, which
    has no graph constraint; the model as built counts each constraint once by kind."""
    hashi = PUZZLES.get("hashi")
    instance = hashi.read(hashi.data_folder() / "small" / "small.txt")[1]
    model = get_viewpoint("hashi", "bridges").build(instance, {"connect": "flow"}).model
    built, lowered = model_sizes(model, "cpsat")
    assert built.variables == len(model.variables)
    assert dict(built.constraints)["connected-by-flow"] == 1
    assert sum(n for _, n in built.constraints) == len(model.constraints)
    assert "connected-by-flow" not in dict(lowered.constraints)
    assert lowered.variables > built.variables
    assert "variables," in str(lowered) and "linear" in str(lowered)


def test_profile_and_json_together_are_one_error_line(monkeypatch, capsys) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "solve", "sudoku",
                             str(SUDOKU_DATA / "kul_named_9x9.txt"), "--instance", "hard17",
                             "--profile", "--json")
    assert code == 2 and out == ""
    assert "--profile" in err and "--json" in err and "Traceback" not in err
