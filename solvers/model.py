"""A model: variables, constraints and the search annotation (what to branch on)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from puzzlelab.errors import ModelError
from solvers.constraints import Constraint
from solvers.structure import Nested, VarArray, flatten
from solvers.variables import Assignment, IntVar


@runtime_checkable
class LazyConstraint(Protocol):
    """A constraint that can say, of a solution breaking it, what to add so that the
    search does not find that solution again (:meth:`Model.add_lazy`)."""

    def holds(self, assignment: Assignment) -> bool:
        """Whether a full assignment satisfies the constraint."""

    def cuts(self, assignment: Assignment) -> list[Constraint]:
        """Constraints every solution of this constraint satisfies and ``assignment``
        breaks (none when ``assignment`` satisfies it)."""

    def load(self) -> None:
        """Import the libraries ``holds`` and ``cuts`` need (:meth:`Constraint.load`)."""


@dataclass
class Model:
    """Variables and constraints of one problem, plus how a search should branch.

    >>> from solvers.builders import all_different
    >>> model = Model("pair")
    >>> x, y = model.int_var(1, 2, "x"), model.int_var(1, 2, "y")
    >>> _ = model.add(all_different([x, y]))
    >>> len(model.variables), len(model.constraints)
    (2, 1)
    """

    name: str = "model"
    variables: list[IntVar] = field(default_factory=list)
    constraints: list[Constraint] = field(default_factory=list)
    #: the variables a search branches on, in input order (all variables when unset)
    decision_variables: list[IntVar] | None = None
    #: static variable orders a viewpoint supplies, by kebab-case name
    variable_orders: dict[str, tuple[IntVar, ...]] = field(default_factory=dict)
    #: value orders a viewpoint supplies: name -> variable -> preferred values first
    value_orders: dict[str, dict[IntVar, tuple[int, ...]]] = field(default_factory=dict)
    #: symmetries a viewpoint declares: name -> variable -> its image (see add_symmetry)
    symmetries: dict[str, dict[IntVar, IntVar]] = field(default_factory=dict)
    #: constraints not posted: each solution found is checked against them (add_after_search)
    after_search: list[Constraint] = field(default_factory=list)
    #: constraints not posted: a solution breaking one adds its cuts (add_lazy)
    lazy: list[LazyConstraint] = field(default_factory=list)
    #: after a lazy round, search first within this many constraints of the cuts
    #: (repair_lazy_rounds); None: search the whole model each round
    lazy_repair: int | None = None
    #: a backend's own options this model asks for, by backend (suggest_options)
    backend_options: dict[str, dict[str, str]] = field(default_factory=dict)
    #: variables gathered in named arrays, by name (name_array): how a person reads them
    arrays: dict[str, VarArray] = field(default_factory=dict)
    #: the group each constraint was posted in ("rows"), by the constraint's index
    groups: dict[int, str] = field(default_factory=dict)
    #: what each group states, by its name (group, describe_group)
    group_descriptions: dict[str, str] = field(default_factory=dict)
    #: a constraint's own name within its group ("row 3"), by its index (add's label)
    labels: dict[int, str] = field(default_factory=dict)
    #: the group a ``with model.group(...)`` block posts in
    _posting_group: str | None = field(default=None, repr=False, compare=False)

    def int_var(self, lb: int, ub: int, name: str | None = None) -> IntVar:
        """A new integer variable with domain ``lb..ub``."""
        if lb > ub:
            raise ModelError(f"variable {name or len(self.variables)}: empty domain {lb}..{ub}")
        return self._new_var(tuple(range(lb, ub + 1)), name)

    def int_var_from_values(self, values: Iterable[int], name: str | None = None) -> IntVar:
        """A new integer variable whose domain is exactly ``values``."""
        domain = tuple(sorted(set(values)))
        if not domain:
            raise ModelError(f"variable {name or len(self.variables)}: empty domain")
        return self._new_var(domain, name)

    def bool_var(self, name: str | None = None) -> IntVar:
        """A new 0/1 variable."""
        return self._new_var((0, 1), name)

    def _new_var(self, domain: tuple[int, ...], name: str | None) -> IntVar:
        variable = IntVar(len(self.variables), name or f"v{len(self.variables)}", domain)
        self.variables.append(variable)
        return variable

    def add(self, constraint: Constraint, label: str | None = None,
            group: str | None = None) -> Constraint:
        """Post ``constraint``; its variables must belong to this model. ``group`` ("rows")
        gathers it with others of its kind (by default the ``with model.group`` block's)
        and ``label`` names it within the group as a person would ("row 3"); neither
        changes what it means."""
        mine, count = self.variables, len(self.variables)
        for variable in constraint.variables():  # self.owns, inlined: models post thousands
            if variable.index >= count or mine[variable.index] is not variable:
                raise ModelError(f"{constraint.kind}: variable {variable} is not of model "
                                 f"{self.name!r}")
        if label is not None:
            self.labels[len(self.constraints)] = label
        group = group or self._posting_group
        if group is not None:
            self.groups[len(self.constraints)] = group
        self.constraints.append(constraint)
        return constraint

    def name_array(self, name: str, variables: Nested, offset: int = 0) -> VarArray:
        """Gather ``variables`` (a rectangular nest of lists) as the array ``name``, whose
        puzzle values are the model's plus ``offset`` (a Sudoku digit is a 0-based cell
        value plus 1). Names the model's structure for readers; changes no meaning."""
        shape, flat = flatten(variables, name)
        if name in self.arrays:
            raise ModelError(f"array {name!r} is named twice")
        for variable in flat:
            if not self.owns(variable):
                raise ModelError(f"array {name!r}: variable {variable} is not of model "
                                 f"{self.name!r}")
        taken = {v for array in self.arrays.values() for v in array.variables}
        again = [variable for variable in flat if variable in taken]
        if again or len(set(flat)) != len(flat):
            raise ModelError(f"array {name!r}: a variable is in two arrays, or twice in one "
                             f"({(again or flat)[0]})")
        array = VarArray(name, shape, tuple(flat), offset)
        self.arrays[name] = array
        return array

    @contextmanager
    def group(self, name: str, description: str = "") -> Iterator[None]:
        """Post the block's constraints in the group ``name`` ("rows"; ``description``
        says what they state, for a comment or an explanation)."""
        if description:
            self.describe_group(name, description)
        outer, self._posting_group = self._posting_group, name
        try:
            yield
        finally:
            self._posting_group = outer

    def describe_group(self, name: str, description: str) -> None:
        """Say what the group ``name`` states ("each row holds each digit once")."""
        self.group_descriptions[name] = description

    def add_after_search(self, constraint: Constraint) -> Constraint:
        """Check ``constraint`` on each solution the search finds instead of posting it.

        A solution that breaks it is rejected: not counted, not returned, and the
        search goes on (the ``rejected`` statistic counts them). The way to compare a
        rule propagated during the search with the same rule tested on its results.
        """
        self._check_owned(constraint)
        self.after_search.append(constraint)
        return constraint

    def add_lazy(self, constraint: LazyConstraint) -> LazyConstraint:
        """Leave ``constraint`` out of the search until a solution breaks it.

        Then its ``cuts(assignment)`` join a copy of the model and the search starts
        again from scratch (statistics ``lazy_rounds`` and ``lazy_cuts``); the solutions
        already accepted are not counted twice. The constraint needs a ``cuts`` method
        (``connected`` has one).
        """
        if not isinstance(constraint, Constraint) or not isinstance(constraint,
                                                                     LazyConstraint):
            kind = getattr(constraint, "kind", type(constraint).__name__)
            raise ModelError(f"{kind} cannot be lazy: it has no cuts(assignment) to add "
                             f"when a solution breaks it")
        self._check_owned(constraint)
        self.lazy.append(constraint)
        return constraint

    def repair_lazy_rounds(self, radius: int) -> None:
        """Search each lazy round after the first near its cuts before the whole model.

        The variables within ``radius`` constraints of the cuts' own (the model's
        constraints, not the cuts, link them) are searched; the others keep the values
        the round before stopped on. Only when that finds no solution is the whole model
        searched, with the same cuts. A run that looks for one solution does this, on a
        backend that can add cuts to a model it has searched (``Backend.add_cuts``);
        any other searches the whole model each round. Every solution still meets every
        constraint: keeping values only narrows where a round looks first.
        """
        if radius < 0:
            raise ModelError(f"a repair radius counts constraints: 0 or more, not {radius}")
        self.lazy_repair = radius

    def suggest_options(self, backend: str, options: Mapping[str, str]) -> None:
        """Ask ``backend`` for its own ``options`` (the names it declares, as ``-o
        NAME=VALUE`` gives them) whenever it searches this model, unless a run gives
        the same names: what suits the model's searches on that solver."""
        self.backend_options[backend] = dict(options)

    def with_cuts(self, cuts: Sequence[Constraint]) -> Model:
        """A copy of this model with ``cuts`` posted too (this model does not grow)."""
        copy = dataclasses.replace(self, variables=list(self.variables),
                                   constraints=list(self.constraints), labels=dict(self.labels),
                                   groups=dict(self.groups),
                                   after_search=list(self.after_search), lazy=list(self.lazy))
        for cut in cuts:
            copy.add(cut)
        return copy

    def _check_owned(self, constraint: Constraint) -> None:
        for variable in constraint.variables():
            if not self.owns(variable):
                raise ModelError(f"{constraint.kind}: variable {variable} is not of model "
                                 f"{self.name!r}")

    def owns(self, variable: IntVar) -> bool:
        """Whether ``variable`` was made by this model."""
        return (variable.index < len(self.variables)
                and self.variables[variable.index] is variable)

    def branch_on(self, variables: Sequence[IntVar]) -> None:
        """Set the decision variables, in the input order of the search."""
        if len(set(variables)) != len(variables):
            raise ModelError("branch_on lists a variable twice")
        self.decision_variables = list(variables)

    def add_variable_order(self, name: str, variables: Sequence[IntVar]) -> None:
        """Offer a static variable order (a permutation of the decision variables)."""
        if set(variables) != set(self.search_variables()):
            raise ModelError(f"variable order {name!r} must list each decision variable once")
        self.variable_orders[name] = tuple(variables)

    def add_value_order(self, name: str, preferences: Mapping[IntVar, Sequence[int]]) -> None:
        """Offer a value order: for each decision variable, its values, preferred first."""
        orders = {}
        for variable in self.search_variables():
            values = tuple(preferences.get(variable, variable.domain))
            if sorted(values) != list(variable.domain):
                raise ModelError(f"value order {name!r}: {variable} must list its domain "
                                 f"exactly once")
            orders[variable] = values
        self.value_orders[name] = orders

    def add_symmetry(self, name: str, images: Mapping[IntVar, IntVar]) -> None:
        """Declare a symmetry: a permutation of some variables (each maps to its image,
        the others to themselves) that turns every solution into a solution.

        Only ``+symmetric`` search uses it (:mod:`solvers.symmetry`), and only to look
        among the solutions it leaves unchanged first, so a wrong declaration can cost
        time but never a wrong answer."""
        if name in self.symmetries:
            raise ModelError(f"symmetry {name!r} is declared twice")
        for variable, image in images.items():
            if not (self.owns(variable) and self.owns(image)):
                raise ModelError(f"symmetry {name!r}: {variable} -> {image} leaves model "
                                 f"{self.name!r}")
            if variable.domain != image.domain:
                raise ModelError(f"symmetry {name!r}: {variable} and its image {image} have "
                                 f"different domains")
        if set(images) != set(images.values()):
            raise ModelError(f"symmetry {name!r} is not a permutation: some variable is the "
                             f"image of two, or of none")
        self.symmetries[name] = dict(images)

    def search_variables(self) -> list[IntVar]:
        """The decision variables in input order."""
        if self.decision_variables is None:
            return list(self.variables)
        return list(self.decision_variables)

    def satisfied_by(self, assignment: Assignment) -> bool:
        """Whether a full assignment satisfies every constraint (the reference meaning),
        those checked after search and the lazy ones included."""
        return (self.posted_satisfied_by(assignment)
                and all(constraint.holds(assignment) for constraint in self.after_search)
                and all(constraint.holds(assignment) for constraint in self.lazy))

    def posted_satisfied_by(self, assignment: Assignment) -> bool:
        """Whether a full assignment satisfies the constraints a backend is given."""
        return all(constraint.holds(assignment) for constraint in self.constraints)

    def degree(self) -> dict[IntVar, int]:
        """For each variable, the number of constraints that mention it."""
        degree = dict.fromkeys(self.variables, 0)
        for constraint in self.constraints:
            for variable in constraint.variables():
                degree[variable] += 1
        return degree
