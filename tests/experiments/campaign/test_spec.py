"""Experiment specs: every mistake is caught before anything runs, and named."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.campaign.grid import expand
from experiments.campaign.spec import load_spec
from puzzlelab.errors import SpecError
from tests.facts import facts
from tests.paths import SUDOKU_DATA

GOOD = """
name = "small"
puzzle = "sudoku"
instances = [{ file = "{data}/small_4x4.txt", select = [1, "2"] }, "{data}/easy_9x9.txt"]
viewpoints = ["classic", { name = "channeled", options = { channel = "reified" }, label = "ch" }]
solvers = ["cp", "cpsat"]
heuristics = ["input/min", "first-fail"]
repeats = 2
time_limit = 5
"""


def test_a_good_spec_expands_to_the_full_grid(write_spec) -> None:
    spec = load_spec(write_spec(GOOD))
    assert [v.label for v in spec.viewpoints] == ["classic", "ch"]
    grid = expand(spec)
    instances = 2 + 4
    assert len(grid.tasks) == instances * 2 * 2 * 2 * 2
    assert len({task.identity.key for task in grid.tasks}) == len(grid.tasks)
    assert [t.identity.position for t in grid.tasks] == list(range(len(grid.tasks)))
    first = grid.tasks[0].identity
    assert (Path(first.instance_file).name, first.instance, first.viewpoint, first.solver,
            first.heuristic, first.repeat) == ("small_4x4.txt", "small_4x4#1", "classic",
                                               "cp", "input/min", 0)
    assert grid.tasks[-1].identity.viewpoint_name == "channeled"
    assert grid.tasks[-1].identity.options == {"channel": "reified"}


def test_instance_paths_are_relative_to_the_spec(write_spec, tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "one.txt").write_text("....13...24.....\n")
    spec = load_spec(write_spec(GOOD.replace('[{ file = "{data}/small_4x4.txt", select = '
                                             '[1, "2"] }, "{data}/easy_9x9.txt"]',
                                             '["data/one.txt"]')))
    first = expand(spec).tasks[0]
    assert (first.identity.instance_file, first.identity.instance) == ("data/one.txt", "one#1")


def test_select_takes_an_integer_as_a_position_and_a_string_as_a_name(write_spec,
                                                                        tmp_path: Path) -> None:
    solution = "1234341221434321"
    (tmp_path / "named.txt").write_text("".join(
        f"{name} set 1 {puzzle} {solution}\n" for name, puzzle in
        (("3", "1..............."), ("2", ".2.............."), ("1", "..3............."))))
    spec = load_spec(write_spec(GOOD.replace('[{ file = "{data}/small_4x4.txt", select = '
                                             '[1, "2"] }, "{data}/easy_9x9.txt"]',
                                             '[{ file = "named.txt", select = [3, "3"] }]')))
    assert list(dict.fromkeys(t.identity.instance for t in expand(spec).tasks)) == [
        "1", "3"]  # the third instance, named 1, then the one named 3


#: what each error names: the key (and the line, where the file gives one), the value at
#: fault, and what is valid or to do instead
@pytest.mark.parametrize(("change", "stated"), [
    (("repeats = 2", "repeats = 2\ncolour = 3"),
     ("spec.toml:9", "key 'colour'", "unknown key", "repeats", "time_limit")),
    (('"classic",', '"diagonal",'), ("key 'viewpoints[0]'", "'diagonal'", "classic")),
    (('"cp",', '"gecode",'), ("key 'solvers[0]'", "'gecode'", "cp", "cpsat")),
    (('"first-fail"', '"smallest"'), ("key 'heuristics[1]'", "'smallest'", "first-fail")),
    (("easy_9x9.txt", "missing.txt"), ("key 'instances[1]'", "missing.txt", "not found")),
    (("easy_9x9.txt", ""), ("key 'instances[1]'", "a folder", "name its instance files")),
    (("select = [1,", "select = [99,"), ("key 'instances[0]'", "index 99", "out of range",
                                         "1..6")),
    (('channel = "reified"', 'channel = "psychic"'),
     ("key 'viewpoints[1]'", "channel", "'psychic'", "inverse", "reified")),
    (('label = "ch"', 'label = "classic"'), ("key 'viewpoints[1]'", "label 'classic'", "twice")),
    (("repeats = 2", "repeats = 0"), ("key 'repeats'", "positive", "0")),
    # a typo of a few digits more: refused with the count, before anything is planned
    (("repeats = 2", "repeats = 99999999999999999999"),
     ("spec.toml:8", "key 'repeats'", "99,999,999,999,999,999,999", "1,000,000")),
    (("repeats = 2", "repeats = 600000"),  # 6 instances x 8 combinations x 600,000
     ("spec.toml:8", "key 'repeats'", "28,800,000 runs", "6 instances", "8 combinations",
      "600,000 repeats", "1,000,000")),
    (("repeats = 2", "repeats = " + "9" * 5000), ("spec.toml", "not valid TOML")),
    (("time_limit = 5", "time_limit = inf"), ("key 'time_limit'", "positive", "inf")),
    (("time_limit = 5", 'time_limit = "5"'), ("key 'time_limit'", "number", "'5'")),
    (('name = "small"', 'name = "a/b"'), ("key 'name'", "letters", "digits")),
    (('name = "small"\n', ""), ("missing key 'name'",)),
    # TOML's own errors: the place, once (not the parser's "at line" as well), and its reason
    (("repeats = 2", "repeats = = 2"), ("spec.toml:8:11", "not valid TOML", "Invalid value")),
    (('name = "small"', 'name = "small'), ("spec.toml:2:14", "not valid TOML",
                                           "Illegal character")),
    (("time_limit = 5\n", "time_limit = [5,"), ("spec.toml:9", "not valid TOML",
                                                "Invalid value")),
    (("repeats = 2", "repeats = 2\ntable = { reached = 1 }"),
     ("key 'table'", "'reached'", "true or false", "1")),
])
def test_spec_errors_name_the_file_and_the_key(write_spec, change, stated) -> None:
    old, new = change
    assert old in GOOD
    path = write_spec(GOOD.replace(old, new, 1))
    with pytest.raises(SpecError, match=facts(str(path), *stated)) as caught:
        expand(load_spec(path))
    assert "at line" not in str(caught.value)


#: a lone value where a list is expected: refused on its line, with the list to write,
#: for every list key alike
@pytest.mark.parametrize(("change", "stated"), [
    (('solvers = ["cp", "cpsat"]', 'solvers = "cp"'),
     ("spec.toml:6", "key 'solvers'", "lone string", 'solvers = ["cp"]')),
    (('heuristics = ["input/min", "first-fail"]', 'heuristics = "first-fail"'),
     ("spec.toml:7", "key 'heuristics'", "lone string", 'heuristics = ["first-fail"]')),
    (('viewpoints = ["classic", { name = "channeled", options = { channel = "reified" }, '
      'label = "ch" }]', 'viewpoints = "classic"'),
     ("spec.toml:5", "key 'viewpoints'", "lone string", 'viewpoints = ["classic"]')),
    (('instances = [{ file = "{data}/small_4x4.txt", select = [1, "2"] }, "{data}/easy_9x9.txt"]',
      'instances = "{data}/easy_9x9.txt"'),
     ("spec.toml:4", "key 'instances'", "lone string", "easy_9x9.txt")),
    (('instances = [{ file = "{data}/small_4x4.txt", select = [1, "2"] }, "{data}/easy_9x9.txt"]',
      'instances = { file = "{data}/easy_9x9.txt" }'),
     ("spec.toml:4", "key 'instances'", "lone table")),
    (('select = [1, "2"]', "select = 1"),
     ("spec.toml:4", "key 'instances[0]'", "lone integer", "select = [1]")),
    (("time_limit = 5", 'time_limit = 5\nmodules = "mine.py"'),
     ("spec.toml:10", "key 'modules'", "lone string", 'modules = ["mine.py"]')),
    (("time_limit = 5", 'time_limit = 5\ntable = { metrics = "time" }'),
     ("spec.toml:10", "key 'table.metrics'", "lone string", 'metrics = ["time"]')),
    (("time_limit = 5", 'time_limit = 5\ntrees = { instances = "small_4x4#1" }'),
     ("spec.toml:10", "key 'trees'", "lone string", 'instances = ["small_4x4#1"]')),
])
def test_a_lone_value_for_a_list_is_refused_on_its_line(write_spec, change, stated) -> None:
    old, new = change
    assert old in GOOD
    path = write_spec(GOOD.replace(old, new, 1))
    with pytest.raises(SpecError, match=facts(str(path), *stated)):
        expand(load_spec(path))


def test_a_stored_spec_with_a_lone_metric_reads_as_its_run_read_it() -> None:
    """Stores made before lone values were refused keep the spec their run accepted."""
    from experiments.campaign.spec import table_settings

    stored = table_settings('table = { metrics = "branches" }', Path("old.toml"))
    assert stored.metrics == ("branches",)


MULTILINE = """
name = "lines"
puzzle = "sudoku"
instances = ["{data}/small_4x4.txt"]
viewpoints = [
    "classic",  # a comment with [brackets], "quotes" and a comma,
    { name = "channeled", options = { channel = "reified" }, label = "a[1], b" },
    'value-position',
]
solvers = ["cp"]
heuristics = ["input"]

[table]
by = "viewpoint"
"""


@pytest.mark.parametrize(("change", "stated"), [
    (('"classic"', '"diagonal"'), ("spec.toml:6", "key 'viewpoints[0]'", "'diagonal'")),
    (('"reified"', '"psychic"'), ("spec.toml:7", "key 'viewpoints[1]'", "channel", "'psychic'")),
    (("'value-position'", "'diagonal'"), ("spec.toml:8", "key 'viewpoints[2]'", "'diagonal'")),
    (('by = "viewpoint"', 'by = "colour"'), ("spec.toml:13", "key 'table'", "'by'", "'colour'")),
])
def test_spec_errors_give_the_line_of_the_item_at_fault(write_spec, change, stated) -> None:
    """In an array written over several lines, the line of the bad item, not of the key."""
    old, new = change
    assert old in MULTILINE
    with pytest.raises(SpecError, match=facts(*stated)):
        expand(load_spec(write_spec(MULTILINE.replace(old, new, 1))))


def test_a_spec_saved_with_a_byte_order_mark_reads(tmp_path: Path) -> None:
    path = tmp_path / "spec.toml"
    path.write_bytes(("\ufeff" + GOOD.replace("{data}", SUDOKU_DATA.as_posix()))
                     .encode("utf-8"))
    assert load_spec(path).name == "small"


def test_a_missing_spec_file_is_a_spec_error(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match=facts(str(tmp_path / "nothing.toml"), "cannot read",
                                              "No such file")):
        load_spec(tmp_path / "nothing.toml")


def test_a_spec_that_is_not_utf8_is_a_spec_error(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes('description = "Café"\n'.encode("latin-1"))
    with pytest.raises(SpecError, match=facts(str(path), "not UTF-8")):
        load_spec(path)


UNSUPPORTED = GOOD.replace('"classic",', '{ name = "classic", options = { alldiff = "strong" }, '
                           'label = "strong" },').replace('"cpsat"', '"python-constraint"')


def test_unsupported_combinations_are_reported_up_front(write_spec) -> None:
    spec = load_spec(write_spec(UNSUPPORTED))
    # how many, each combination with its reason, and the setting that leaves them out
    with pytest.raises(SpecError, match=facts(
            "key 'solvers'", "2 combination(s)", "skip_unsupported = true",
            "strong on python-constraint with input/min",
            "strong on python-constraint with first-fail", "alldiff=weak")):
        expand(spec)


def test_skip_unsupported_leaves_them_out(write_spec) -> None:
    spec = load_spec(write_spec(UNSUPPORTED + "skip_unsupported = true\n"))
    grid = expand(spec)
    assert len(grid.skipped) == 2
    assert not any(t.identity.viewpoint == "strong" and t.identity.solver == "python-constraint"
                   for t in grid.tasks)
    assert any(t.identity.viewpoint == "strong" and t.identity.solver == "cp" for t in grid.tasks)


@pytest.mark.parametrize(("heuristic", "extra", "reason"), [
    ("first-fail/min+symmetric", "max_solutions = 0\n", ("count them all",
                                                         "leave out +symmetric")),
    ("input/min+probe+probe-all", "", ("one probing modifier", "+probe", "+probe-all")),
])
def test_a_heuristic_no_run_can_honour_is_a_spec_error(write_spec, heuristic: str, extra: str,
                                                       reason: tuple[str, ...]) -> None:
    text = GOOD.replace('"first-fail"]', f'"{heuristic}"]') + extra
    with pytest.raises(SpecError, match=facts("key 'heuristics[1]'", *reason)):
        expand(load_spec(write_spec(text)))


def test_modules_register_user_viewpoints(write_spec, clean_registry) -> None:
    spec = load_spec(write_spec(GOOD.replace('"classic",', '"test-slow",')
                                + 'modules = ["{faulty}"]\n'))
    assert spec.viewpoints[0].name == "test-slow"
    with pytest.raises(SpecError, match=facts("key 'modules'", "cannot import", "'no.such'")):
        load_spec(write_spec(GOOD + 'modules = ["no.such"]\n'))


def test_a_viewpoint_too_big_for_the_first_instance_is_run_not_refused(write_spec) -> None:
    knot = SUDOKU_DATA.parent / "nonogram" / "webpbn_survey"
    spec = load_spec(write_spec(f"""
name = "big"
puzzle = "nonogram"
instances = ["{knot.as_posix()}/webpbn-00016.non"]
viewpoints = ["line-table", "regular"]
solvers = ["cp"]
heuristics = ["input/min"]
"""))
    assert [t.identity.viewpoint for t in expand(spec).tasks] == ["line-table", "regular"]


def test_combinations_are_checked_on_an_instance_the_viewpoint_can_build(write_spec) -> None:
    """The first instance is too big for ``line-table``; the check uses the next one."""
    survey = SUDOKU_DATA.parent / "nonogram" / "webpbn_survey"
    text = f"""
name = "big-then-small"
puzzle = "nonogram"
instances = ["{survey.as_posix()}/webpbn-00016.non", "{survey.as_posix()}/webpbn-00006.non"]
viewpoints = ["line-table"]
solvers = ["cpsat"]
heuristics = ["input/min+probe-all"]
"""
    with pytest.raises(SpecError, match=facts("1 combination(s)", "line-table on cpsat")):
        expand(load_spec(write_spec(text)))
    skipped = expand(load_spec(write_spec(text + "skip_unsupported = true\n")))
    assert len(skipped.tasks) == 0 and len(skipped.skipped) == 1


def test_errors_found_after_loading_name_the_spec_as_it_was_given(write_spec,
                                                                   monkeypatch) -> None:
    """A typo caught while expanding reads like one caught while loading: same path."""
    written = write_spec(GOOD.replace('"first-fail"', '"frist-fail"'))
    monkeypatch.chdir(written.parent)
    with pytest.raises(SpecError, match=r"^spec\.toml:\d+: key 'heuristics\[1\]'"):
        expand(load_spec("spec.toml"))


def test_a_viewpoint_that_cannot_build_its_model_is_named_before_anything_runs(
        write_spec, clean_registry) -> None:
    spec = load_spec(write_spec(GOOD.replace('"classic",', '"test-bad-model",').replace(
        "repeats = 2", 'repeats = 2\nmodules = ["{faulty}"]')))
    with pytest.raises(SpecError, match=facts("key 'viewpoints[0]'", "deliberately inconsistent")):
        expand(spec)


def test_a_spec_that_names_no_grid_takes_the_puzzles_defaults(write_spec) -> None:
    """viewpoints, solvers and heuristics left out: the default combination, with the
    default viewpoint's options, as ``puzzlelab solve`` uses it."""
    from viewpoints import DEFAULTS

    defaults = DEFAULTS.get("sudoku")
    text = "\n".join(line for line in GOOD.splitlines()
                     if not line.startswith(("viewpoints", "solvers", "heuristics")))
    spec = load_spec(write_spec(text))
    assert [(v.name, v.options) for v in spec.viewpoints] == [(defaults.viewpoint,
                                                               dict(defaults.options))]
    assert [s.name for s in spec.solvers] == [defaults.solver]
    assert spec.heuristics == (defaults.heuristic,)
    solvers_named = load_spec(write_spec(text + '\nsolvers = ["cp"]\n'))
    assert [(s.name, s.options, s.label) for s in solvers_named.solvers] == [("cp", {}, "cp")]
    assert solvers_named.heuristics == (defaults.heuristic,)


def test_a_spec_named_at_its_former_place_points_at_experiments_specs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped specs moved from experiments/ to experiments/specs/: the old command
    says where the spec is now."""
    (tmp_path / "experiments" / "specs").mkdir(parents=True)
    (tmp_path / "experiments" / "specs" / "course.toml").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SpecError, match=facts("experiments/course.toml", "cannot read",
                                              "try experiments/specs/course.toml")):
        load_spec("experiments/course.toml")
