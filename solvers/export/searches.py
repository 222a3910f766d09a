"""What no export format's search annotation states, said once for every format."""

from __future__ import annotations

from collections.abc import Iterable

from solvers.heuristics import Heuristic


def no_probing(language: str) -> str:
    """Why ``language`` cannot probe (said by the exports and by the backends that run
    them)."""
    return f"{language} has no probing annotation"


def two_way(brancher: str) -> str:
    """Why ``brancher`` cannot label d-way."""
    return f"{brancher} branches two ways (x = v, x != v)"


def no_ranking(brancher: str) -> str:
    """Why ``brancher`` cannot follow a viewpoint's ranking of values."""
    return f"{brancher} has no ranking of each variable's values"


def search_refusal(heuristic: Heuristic, language: str, brancher: str,
                   value_choices: Iterable[str]) -> str:
    """Why ``language`` cannot state ``heuristic`` ('' when it can): PuzzleLab's own
    searches (``+symmetric``, probing), d-way labelling where ``brancher`` branches two
    ways, and a ranking of values other than ``value_choices``."""
    if heuristic.symmetric:
        return ("+symmetric is PuzzleLab's own pair of searches (the symmetric solutions "
                "first), not a search annotation; export the heuristic without it")
    if heuristic.probing != "none":
        return f"{no_probing(language)}; export the heuristic without +probe"
    if heuristic.dway:
        return f"{two_way(brancher)}; export the heuristic without +dway"
    choices = list(value_choices)
    if not heuristic.is_auto and heuristic.value_order not in choices:
        allowed = ", ".join(f"/{choice}" for choice in choices)
        return (f"{no_ranking(brancher)} as the viewpoint gives it (value order "
                f"{heuristic.value_order!r}); use {allowed}, or auto")
    return ""
