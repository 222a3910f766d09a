"""Search heuristics, named once for every backend: ``VARORDER/VALUEORDER``.

Variable orders: ``input`` (the decision variables in model order), ``first-fail``
(smallest current domain, ties by input order), ``dom-deg`` (smallest domain, ties
by the larger number of constraints on the variable, then input order), ``dom-wdeg``
(smallest ratio of domain size to the weight of the variable's constraints, a
weight growing each time the constraint fails: where a solver has it), ``random``
(input order over a seeded random permutation), or a static order the model
supplies by name. Value orders: ``min``, ``max``, ``random`` (a seeded random
ranking of each variable's values) or an order the model supplies. ``auto``
leaves the whole search to the solver. A bare variable order means ``VARORDER/min``.
A suffix ``+probe`` adds probing (singleton consistency with merging on the decision
variables: try each value, remove those whose propagation fails, fix what all the
remaining values agree on) at the root, ``+probe-all`` at every node of the search.
A suffix ``+symmetric`` first searches for a solution the model's declared symmetries
leave unchanged, then, if there is none, the whole model (see :mod:`solvers.symmetry`).
A suffix ``+dway`` labels as ECLiPSe's ``indomain`` does (d-way branching): the chosen
variable's values are tried one after another, one branch each, without excluding a
failed value from its domain, where a plain search branches two ways (``x = v``, then
``x != v``, after which it may choose another variable).
Modifiers may come in any order; the name is written with ``+symmetric`` first, then
the probing, then ``+dway``.

Every backend receives the same :class:`SearchPlan`, so a named heuristic means the
same thing on each of them.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Literal

from puzzlelab.errors import OptionError, UnknownName
from solvers.model import Model
from solvers.variables import IntVar

VARIABLE_ORDERS = ("input", "first-fail", "dom-deg", "dom-wdeg", "random")
VALUE_ORDERS = ("min", "max", "random")
AUTO = "auto"

Selection = Literal["first-unbound", "smallest-domain", "weighted-degree"]
ValueChoice = Literal["min", "max", "ranked"]
Probing = Literal["none", "root", "nodes"]
PROBING_MODIFIERS: dict[str, Probing] = {"probe": "root", "probe-all": "nodes"}
SYMMETRIC = "symmetric"
DWAY = "dway"
MODIFIERS = (SYMMETRIC, *PROBING_MODIFIERS, DWAY)


@dataclass(frozen=True)
class Heuristic:
    """A parsed heuristic name.

    >>> Heuristic.parse("first-fail")  # doctest: +NORMALIZE_WHITESPACE
    Heuristic(variable_order='first-fail', value_order='min', probing='none',
              symmetric=False, dway=False)
    >>> str(Heuristic.parse("dom-deg/max"))
    'dom-deg/max'
    >>> Heuristic.parse("input+probe-all").probing
    'nodes'
    >>> str(Heuristic.parse("auto+probe+symmetric"))
    'auto+symmetric+probe'
    >>> Heuristic.parse("first-fail+dway").dway
    True
    """

    variable_order: str
    value_order: str
    probing: Probing = "none"
    symmetric: bool = False
    dway: bool = False

    @classmethod
    def parse(cls, text: str) -> Heuristic:
        """Read ``VARORDER/VALUEORDER`` (or ``VARORDER``, or ``auto``), then the modifiers:
        ``+symmetric`` and one of ``+probe`` or ``+probe-all``."""
        text, *modifiers = text.split("+")
        if not text and modifiers:
            raise OptionError(f"a heuristic names its search before the modifiers: "
                              f"'first-fail+{modifiers[0]}' or 'auto+{modifiers[0]}', "
                              f"not '+{modifiers[0]}'")
        for modifier in modifiers:
            if modifier not in MODIFIERS:
                raise UnknownName("search modifier", modifier, MODIFIERS)
            if modifiers.count(modifier) > 1:
                raise OptionError(f"search modifier +{modifier} is named twice")
        probings = [PROBING_MODIFIERS[m] for m in modifiers if m in PROBING_MODIFIERS]
        if len(probings) > 1:
            raise OptionError("name one probing modifier: +probe (at the root) or +probe-all "
                              "(at every node), not both")
        probing: Probing = probings[0] if probings else "none"
        symmetric, dway = SYMMETRIC in modifiers, DWAY in modifiers
        if dway and text == AUTO:
            raise OptionError("+dway labels in an order the heuristic names: "
                              "'input/min+dway' or 'first-fail/min+dway', not 'auto+dway'")
        if dway and probing == "nodes":
            raise OptionError("+dway and +probe-all both decide how the search branches: "
                              "name one of them (+probe probes the root only)")
        if text == AUTO:
            return cls(AUTO, AUTO, probing, symmetric)
        variable_order, slash, value_order = text.partition("/")
        if variable_order == AUTO:
            raise UnknownName("heuristic", text, [AUTO, *VARIABLE_ORDERS])
        # Only a bare VARORDER means /min: ``first-fail/`` names an empty value order.
        return cls(variable_order, value_order if slash else "min", probing, symmetric, dway)

    def without_symmetric(self) -> Heuristic:
        """The search a backend runs: ``+symmetric`` belongs to the solving layer, which
        runs that search on the restricted model first (:mod:`solvers.symmetry`)."""
        return dataclasses.replace(self, symmetric=False)

    @property
    def is_auto(self) -> bool:
        """True when the solver's own search is asked for."""
        return self.variable_order == AUTO

    def __str__(self) -> str:
        base = AUTO if self.is_auto else f"{self.variable_order}/{self.value_order}"
        modifiers = [SYMMETRIC] if self.symmetric else []
        modifiers += [name for name, where in PROBING_MODIFIERS.items() if where == self.probing]
        modifiers += [DWAY] if self.dway else []
        return "+".join([base, *modifiers])


@dataclass(frozen=True)
class SearchPlan:
    """What a backend must do to honour a heuristic on one model.

    Attributes:
        variables: the decision variables in the order ties are broken.
        selection: take the first unbound variable, the one with the smallest domain, or
            the one with the smallest domain over weighted degree (dom/wdeg).
        value_choice: smallest value first, largest first, or by ``value_rank``.
        value_rank: for ``ranked``: variable -> value -> rank (lower is tried first).
        auto: the solver's own search (the other fields are then only a hint).
        probing: singleton consistency on the decision variables: none, at the root
            (``+probe``) or at every node (``+probe-all``).
        dway: label as ECLiPSe's ``indomain`` (``+dway``): once a variable is chosen, its
            values (as its domain holds them then, in the value order) are tried one
            branch each, a failed value not excluded from its domain; a variable left
            with one value counts as labelled.
    """

    variables: tuple[IntVar, ...]
    selection: Selection
    value_choice: ValueChoice
    value_rank: dict[IntVar, dict[int, int]] | None = None
    auto: bool = False
    probing: Probing = "none"
    dway: bool = False

    def ordered_values(self, variable: IntVar, values: list[int]) -> list[int]:
        """``values`` of ``variable`` in the order this plan tries them."""
        if self.value_choice == "min":
            return sorted(values)
        if self.value_choice == "max":
            return sorted(values, reverse=True)
        assert self.value_rank is not None  # set whenever value_choice is "ranked"
        rank = self.value_rank.get(variable)
        if rank is None:  # not a decision variable: finished off smallest value first
            return sorted(values)
        return sorted(values, key=rank.__getitem__)


def heuristic_names(model: Model | None = None) -> list[str]:
    """Every heuristic name valid for ``model`` (or for any model)."""
    variable_orders = list(VARIABLE_ORDERS) + list(model.variable_orders if model else [])
    value_orders = list(VALUE_ORDERS) + list(model.value_orders if model else [])
    return [AUTO] + [f"{v}/{w}" for v in variable_orders for w in value_orders]


def plan_search(model: Model, heuristic: Heuristic | str, seed: int = 0) -> SearchPlan:
    """Resolve a heuristic name against a model into a :class:`SearchPlan`."""
    if isinstance(heuristic, str):
        heuristic = Heuristic.parse(heuristic)
    decision = tuple(model.search_variables())
    if heuristic.is_auto:
        return SearchPlan(decision, "first-unbound", "min", auto=True,
                          probing=heuristic.probing)
    variables, selection = _variable_order(model, heuristic.variable_order, decision, seed)
    value_choice, value_rank = _value_order(model, heuristic.value_order, decision, seed)
    return SearchPlan(variables, selection, value_choice, value_rank, probing=heuristic.probing,
                      dway=heuristic.dway)


def _variable_order(model: Model, name: str, decision: tuple[IntVar, ...],
                    seed: int) -> tuple[tuple[IntVar, ...], Selection]:
    if name == "input":
        return decision, "first-unbound"
    if name == "first-fail":
        return decision, "smallest-domain"
    if name == "dom-deg":
        degree = model.degree()
        by_degree = sorted(range(len(decision)), key=lambda i: (-degree[decision[i]], i))
        return tuple(decision[i] for i in by_degree), "smallest-domain"
    if name == "dom-wdeg":
        return decision, "weighted-degree"
    if name == "random":
        shuffled = list(decision)
        random.Random(seed).shuffle(shuffled)
        return tuple(shuffled), "first-unbound"
    if name in model.variable_orders:
        return model.variable_orders[name], "first-unbound"
    raise UnknownName("variable order", name, [*VARIABLE_ORDERS, *model.variable_orders])


def _value_order(model: Model, name: str, decision: tuple[IntVar, ...],
                 seed: int) -> tuple[ValueChoice, dict[IntVar, dict[int, int]] | None]:
    if name in ("min", "max"):
        return name, None  # type: ignore[return-value]
    if name == "random":
        generator = random.Random(f"values:{seed}")
        ranks = {}
        for variable in decision:
            shuffled = list(variable.domain)
            generator.shuffle(shuffled)
            ranks[variable] = {value: rank for rank, value in enumerate(shuffled)}
        return "ranked", ranks
    if name in model.value_orders:
        preferences = model.value_orders[name]
        return "ranked", {variable: {value: rank for rank, value in enumerate(values)}
                          for variable, values in preferences.items()}
    raise UnknownName("value order", name, [*VALUE_ORDERS, *model.value_orders])
