"""Declared options: text and typed values in, typed values or a message saying what is
allowed out, for viewpoints and generators alike."""

from __future__ import annotations

import pytest

from puzzlelab.errors import OptionError
from puzzles.options import Option, OptionValues, Size, name_part, resolve
from tests.facts import facts, states
from viewpoints import VIEWPOINTS, get_viewpoint

BOX = Option(3, help="box size", low=2, high=5)
DENSITY = Option(0.5, help="share filled", low=0.0, high=1.0, strict=True, tag="d")
SIZE = Option(Size(10, 10), help="rows and columns", low=1, high=1000, tag="")
STRENGTH = Option("weak", ("weak", "strong"), "propagation")
PLACEMENTS = Option(100_000, (1_000, 100_000), "largest table")


@pytest.mark.parametrize(("option", "given", "value"), [
    (BOX, "4", 4), (BOX, 5, 5), (BOX, " 2 ", 2),
    (DENSITY, "0.25", 0.25), (DENSITY, 1, None), (DENSITY, "1e-3", 0.001),
    (SIZE, "20x15", Size(20, 15)), (SIZE, "7X8", Size(7, 8)), (SIZE, Size(3, 4), Size(3, 4)),
    (STRENGTH, "strong", "strong"),
    (PLACEMENTS, "1000", 1_000), (PLACEMENTS, 1_000, 1_000),
])
def test_values_arrive_as_text_or_typed_and_leave_typed(option: Option, given: object,
                                                        value: object) -> None:
    if value is None:
        with pytest.raises(OptionError):
            option.accept(given, "--x")
    else:
        accepted = option.accept(given, "--x")
        assert accepted == value and type(accepted) is type(value)


@pytest.mark.parametrize(("option", "given", "stated"), [
    (BOX, "6", ("an integer", "from 2 to 5", "'6'")),
    (BOX, "2.5", ("an integer", "from 2 to 5", "'2.5'")),
    (BOX, True, ("an integer", "from 2 to 5", "True")),
    (BOX, "٣", ("an integer", "from 2 to 5")),  # int() takes other scripts' digits
    (DENSITY, "0", ("a number", "strictly between 0 and 1", "'0'")),
    (DENSITY, "nan", ("a number", "strictly between 0 and 1", "'nan'")),
    (DENSITY, "inf", ("a number",)),
    (SIZE, "0x5", ("ROWSxCOLUMNS", "each side from 1 to 1000", "20x20", "'0x5'")),
    (SIZE, "5x", ("ROWSxCOLUMNS",)),
    (SIZE, 5, ("ROWSxCOLUMNS", "each side from 1 to 1000", "20x20", "5")),
    (STRENGTH, "best", ("one of", "weak, strong", "'best'")),
    (PLACEMENTS, "7", ("one of", "1000, 100000", "'7'")),
])
def test_a_value_outside_the_declaration_says_what_is_allowed(option: Option, given: object,
                                                              stated: tuple[str, ...]) -> None:
    """The message starts with the option's label, and says what is allowed and what was
    given."""
    with pytest.raises(OptionError) as caught:
        option.accept(given, "--x")
    assert str(caught.value).startswith("--x ") and states(str(caught.value), *stated)


def test_the_type_is_inferred_or_declared() -> None:
    assert (BOX.value_type, DENSITY.value_type, SIZE.value_type) == (int, float, Size)
    assert Option(None, value_type=int, low=0).value_type is int
    with pytest.raises(TypeError, match="needs a value_type"):
        Option(None)
    with pytest.raises(TypeError, match="not list"):
        Option([1, 2])  # type: ignore[arg-type]


def test_describe_gives_type_allowed_values_default_and_doc() -> None:
    assert states(BOX.describe(), "integer", "from 2 to 5", "default 3", "box size")
    assert states(DENSITY.describe(), "number", "strictly between 0 and 1", "default 0.5",
                  "share filled")
    assert states(SIZE.describe(), "size", "ROWSxCOLUMNS", "each side from 1 to 1000",
                  "default 10x10", "rows and columns")
    assert states(STRENGTH.describe(), "text", "weak, strong", "default weak", "propagation")
    derived = Option(None, help="derived", value_type=int, low=0).describe()
    assert states(derived, "integer", "at least 0", "derived") and "default" not in derived
    assert all("\n" not in option.describe() for option in (BOX, DENSITY, SIZE, STRENGTH))


def test_resolve_fills_defaults_and_names_unknown_options() -> None:
    declared = {"size": SIZE, "density": DENSITY}
    assert resolve(declared, {"density": "0.3"}, "the game generator") == {
        "size": Size(10, 10), "density": 0.3}
    with pytest.raises(OptionError, match=facts("the game generator", "'box'",
                                                "size, density")):
        resolve(declared, {"box": 3}, "the game generator")
    with pytest.raises(OptionError, match="option x must be"):
        resolve(declared, {"density": "2"}, "owner", lambda name: "option x")


def test_name_part_and_typed_getters() -> None:
    declared = {"size": SIZE, "density": DENSITY, "box": Option(3, tag="box")}
    values = OptionValues({"size": Size(6, 5), "density": 0.5, "box": 3})
    assert name_part(declared, values) == "6x5-d0.5-box3"
    assert (values.size("size"), values.number("density"), values.integer("box")) == (
        Size(6, 5), 0.5, 3)
    assert values.number("box") == 3.0 and values.replaced(box=4)["box"] == 4
    with pytest.raises(TypeError, match=facts("density", "0.5", "int")):
        values.integer("density")


def test_viewpoint_options_keep_their_messages() -> None:
    classic = get_viewpoint("sudoku", "classic")
    assert classic.resolve_options({"alldiff": "strong"}) == {"alldiff": "strong"}
    with pytest.raises(OptionError, match=facts("sudoku/classic", "alldiff",
                                                "weak, strong, hall", "'best'")):
        classic.resolve_options({"alldiff": "best"})
    with pytest.raises(OptionError, match=facts("sudoku/classic", "'channel'",
                                                "options: alldiff")):
        classic.resolve_options({"channel": "inverse"})


@pytest.mark.parametrize("key", VIEWPOINTS.names())
def test_every_viewpoint_option_is_declared_in_full(key: str) -> None:
    """A type, a one-line doc, and a default among the allowed values."""
    for name, option in VIEWPOINTS.get(key).options.items():
        assert option.value_type in (int, float, str, Size), name
        assert option.help and "\n" not in option.help, name
        assert option.accept(option.default, name) == option.default


@pytest.mark.parametrize(("option", "allowed"), [
    (Option(1.0, low=0.0, strict=True), "greater than 0"),
    (Option(1.0, high=2.0, strict=True), "less than 2"),
    (Option(1, high=9), "at most 9"),
    (Option(1), "any integer"),
])
def test_one_sided_ranges_read_as_words(option: Option, allowed: str) -> None:
    assert option.allowed() == allowed
