"""What no export format's search annotation states, said once for every format."""

from __future__ import annotations

from collections.abc import Iterable

from solvers.heuristics import Heuristic


def search_refusal(heuristic: Heuristic, language: str, brancher: str,
                   value_choices: Iterable[str]) -> str:
    """Why ``language`` cannot state ``heuristic`` ('' when it can): PuzzleLab's own
    searches (``+symmetric``, probing), d-way labelling where ``brancher`` branches two
    ways, and a ranking of values other than ``value_choices``."""
    if heuristic.symmetric:
        return ("+symmetric is PuzzleLab's own pair of searches (the symmetric solutions "
                "first), not a search annotation; export the heuristic without it")
    if heuristic.probing != "none":
        return f"{language} has no probing annotation; export the heuristic without +probe"
    if heuristic.dway:
        return (f"{brancher} branches two ways (x = v, x != v); export the heuristic "
                f"without +dway")
    choices = list(value_choices)
    if not heuristic.is_auto and heuristic.value_order not in choices:
        allowed = ", ".join(f"/{choice}" for choice in choices)
        return (f"{brancher} has no ranking of each variable's values as the viewpoint "
                f"gives it (value order {heuristic.value_order!r}); use {allowed}, or auto")
    return ""
