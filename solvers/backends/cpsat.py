"""Backend ``cpsat``: OR-tools CP-SAT, the fast default (snake_case API only).

One worker by default, so runs repeat exactly. A named heuristic runs CP-SAT's fixed
search over the decision variables, with presolve off so that the strategy meets the
model as written; ``auto`` leaves the search (and presolve) to CP-SAT.

Statistics: ``branches``, ``conflicts`` and ``restarts`` are CP-SAT's own;
``propagations`` adds its Boolean and integer propagations; ``backtracks`` is None:
conflict-driven search with restarts has no depth-first backtrack count that would
compare with ``cp``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

from puzzlelab.errors import OptionError, SolverError
from solvers.backend_contract import Backend, LoweredModel, SolveRequest
from solvers.backends import BACKENDS
from solvers.capabilities import (
    DWAY_LABELLING,
    PROBING,
    ROOT_PROPAGATION,
    SEARCH_TREE,
    VALUE_RANKING,
    Capabilities,
)
from solvers.constraints import (
    AllDifferent,
    AtMostOne,
    Clause,
    Constraint,
    Element,
    ExactlyOne,
    Inverse,
    Linear,
    NoOverlap2D,
    Regular,
    ReifiedEquality,
    Table,
)
from solvers.heuristics import SearchPlan
from solvers.limits import SearchLimits
from solvers.model import Model
from solvers.variables import IntOrVar, IntVar

if TYPE_CHECKING:  # imported by compile and search: naming the backend costs nothing
    from ortools.sat.python import cp_model

    from solvers.backends.cpsat_recorder import SolutionRecorder

SatVars: TypeAlias = "dict[IntVar, cp_model.IntVar]"
REPAIR_CONFLICTS = 1000
"""A repair round's search (kept variables) gives up after this many conflicts, as
though it had found nothing near the cuts: one that cannot succeed may be slow to
prove it (one of 16 s was seen), and the whole model is searched next."""


def _term(sat_vars: SatVars, term: IntOrVar) -> Any:
    return term if isinstance(term, int) else sat_vars[term]


def _post_all_different(model: cp_model.CpModel, sat_vars: SatVars, c: AllDifferent) -> None:
    items = [sat_vars[item] for item in c.items]
    if c.strength == "strong":
        model.add_all_different(items)
        return
    # weak: pairwise disequalities, the value-consistent decomposition
    for i, first in enumerate(items):
        for second in items[i + 1:]:
            model.add(first != second)


def _post_linear(model: cp_model.CpModel, sat_vars: SatVars, c: Linear) -> None:
    from ortools.sat.python import cp_model

    expression = cp_model.LinearExpr.weighted_sum([sat_vars[v] for _, v in c.terms],
                                                  [coefficient for coefficient, _ in c.terms])
    if c.comparison == "!=":
        model.add(expression != c.rhs)
    else:  # a bounded sum, built at once: half the time of the comparison's
        low, high = {"==": (c.rhs, c.rhs), "<=": (cp_model.INT_MIN, c.rhs),
                     ">=": (c.rhs, cp_model.INT_MAX)}[c.comparison]
        model.add_linear_constraint(expression, low, high)


def _post_reified(model: cp_model.CpModel, sat_vars: SatVars, c: ReifiedEquality) -> None:
    flag, variable = sat_vars[c.flag], sat_vars[c.variable]
    model.add(variable == c.value).only_enforce_if(flag)
    model.add(variable != c.value).only_enforce_if(~flag)


def _post_no_overlap(model: cp_model.CpModel, sat_vars: SatVars, c: NoOverlap2D) -> None:
    x_intervals: list[cp_model.IntervalVar] = []
    y_intervals: list[cp_model.IntervalVar] = []
    for number, r in enumerate(c.rectangles):
        for start, size, intervals, axis in ((r.x, r.width, x_intervals, "x"),
                                             (r.y, r.height, y_intervals, "y")):
            start_term, size_term = _term(sat_vars, start), _term(sat_vars, size)
            end = model.new_int_var(_bound(start, min) + _bound(size, min),
                                    _bound(start, max) + _bound(size, max), f"end_{axis}{number}")
            intervals.append(model.new_interval_var(start_term, size_term, end,
                                                    f"rect{number}_{axis}"))
    model.add_no_overlap_2d(x_intervals, y_intervals)


def _post_inverse(model: cp_model.CpModel, sat_vars: SatVars, c: Inverse) -> None:
    """``backward[forward[i]] == i`` and ``forward[backward[j]] == j``, as elements.

    Not ``add_inverse``: CP-SAT 9.15's presolve declares some feasible models with it
    infeasible (the channeled Sudoku of Norvig's top95 #1 under ``auto``;
    ``docs/solver-bugs.md``). The two element channels say the same thing.
    """
    forward, backward = _vars(sat_vars, c.forward), _vars(sat_vars, c.backward)
    for i, item in enumerate(forward):
        model.add_element(item, backward, i)
    for j, item in enumerate(backward):
        model.add_element(item, forward, j)


def _bound(term: IntOrVar, pick: Callable[..., int]) -> int:
    return term if isinstance(term, int) else pick(term.domain)


def _vars(sat_vars: SatVars, items: tuple[IntVar, ...]) -> list[cp_model.IntVar]:
    return [sat_vars[item] for item in items]


POSTERS: dict[type[Constraint], Callable[[cp_model.CpModel, SatVars, Any], object]] = {
    AllDifferent: _post_all_different,
    Inverse: _post_inverse,
    Linear: _post_linear,
    Element: lambda m, v, c: m.add_element(v[c.index], [_term(v, e) for e in c.array],
                                           v[c.value]),
    Table: lambda m, v, c: m.add_allowed_assignments(_vars(v, c.items), list(c.allowed)),
    Regular: lambda m, v, c: m.add_automaton(_vars(v, c.items), c.initial, list(c.accepting),
                                             list(c.transitions)),
    ReifiedEquality: _post_reified,
    Clause: lambda m, v, c: m.add_bool_or(_vars(v, c.positive) + [~v[n] for n in c.negative]),
    ExactlyOne: lambda m, v, c: m.add_exactly_one(_vars(v, c.items)),
    AtMostOne: lambda m, v, c: m.add_at_most_one(_vars(v, c.items)),
    NoOverlap2D: _post_no_overlap,
}


def _add_fixed_search(model: cp_model.CpModel, sat_vars: SatVars, plan: SearchPlan) -> None:
    from ortools.sat.python import cp_model

    selection = {"first-unbound": cp_model.CHOOSE_FIRST,
                 "smallest-domain": cp_model.CHOOSE_MIN_DOMAIN_SIZE}[plan.selection]
    value = {"min": cp_model.SELECT_MIN_VALUE, "max": cp_model.SELECT_MAX_VALUE}[
        plan.value_choice]
    model.add_decision_strategy([sat_vars[v] for v in plan.variables], selection, value)


@dataclass
class _Compiled:
    """A CP-SAT model ready to solve, and what the search hook needs of it."""

    model: cp_model.CpModel
    sat_vars: SatVars
    model_vars: list[cp_model.IntVar]  # those of ``Model.variables``, in order
    solver: cp_model.CpSolver
    recorder: SolutionRecorder
    limits: SearchLimits
    #: the variables (by index) this search keeps: the value, and their own domain
    kept: dict[int, tuple[int, list[int]]] = field(default_factory=dict)


def _set_parameters(parameters: Any, text: str) -> None:
    """Set CP-SAT's ``parameters`` from ``text``: ``name:value`` pairs apart by spaces
    (``linearization_level:0 cp_model_presolve:false``), each value read as the type
    its field has (a Boolean as true or false, an enumeration by its name)."""
    for pair in text.split():
        name, colon, written = pair.partition(":")
        if not colon or name == "catch_sigint_signal":  # the workers rely on it off
            raise OptionError(f"cpsat parameters: {pair!r} is not name:value of a "
                              f"parameter PuzzleLab leaves to the user")
        try:
            current = getattr(parameters, name)
        except AttributeError:
            raise OptionError(f"cpsat parameters: CP-SAT has no parameter {name!r}") from None
        kind = type(current)
        try:
            value: object = (written == "true" if kind is bool and written in ("true", "false")
                             else getattr(kind, "__members__", {}).get(written)
                             if hasattr(kind, "__members__")
                             else kind(written) if kind in (int, float) else None)
        except ValueError:
            value = None
        if value is None:
            raise OptionError(f"cpsat parameters: {written!r} is no value of {name} "
                              f"({kind.__name__})")
        setattr(parameters, name, value)


def _searching(sat_model: cp_model.CpModel, sat_vars: SatVars,
               model_vars: list[cp_model.IntVar], request: SolveRequest,
               limits: SearchLimits) -> _Compiled:
    """``sat_model`` with ``request``'s hint, and a solver set up for its search."""
    from ortools.sat.python import cp_model

    from solvers.backends.cpsat_recorder import SolutionRecorder

    if request.hint is not None:  # a lazy round: start from where the last one stopped
        hint = sat_model.proto.solution_hint  # add_hint, a call a variable: 200 times slower
        hint.vars.extend(variable.index for variable in model_vars)
        hint.values.extend(request.hint)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    # left on, CP-SAT takes Ctrl-C from workers that ignore it, and resets it after
    solver.parameters.catch_sigint_signal = False
    solver.parameters.random_seed = request.seed
    if request.time_limit is not None:
        solver.parameters.max_time_in_seconds = request.time_limit
    if not request.plan.auto:
        solver.parameters.search_branching = cp_model.FIXED_SEARCH
        # presolve would fix or merge variables behind the strategy's back
        solver.parameters.cp_model_presolve = False
    solver.parameters.enumerate_all_solutions = (request.max_solutions != 1
                                                 or request.judge is not None)
    _set_parameters(solver.parameters, request.options.get("parameters", ""))
    recorder = SolutionRecorder(model_vars, request.max_solutions, request.judge, limits)
    limits.on_stop(solver.stop_search)  # CP-SAT searches in compiled code
    return _Compiled(sat_model, sat_vars, model_vars, solver, recorder, limits)


@BACKENDS.register("cpsat")
class CpSatBackend(Backend[_Compiled]):
    """OR-tools CP-SAT: clause learning and its own search, or a fixed search for studies."""

    name = "cpsat"
    capabilities = Capabilities(
        library="OR-tools CP-SAT (`ortools.sat`)",
        summary="clause learning with propagation, one worker; named heuristics as a "
                "fixed search with presolve off",
        native=frozenset(POSTERS),
        value_choices=frozenset({"min", "max"}),
        own_search="CP-SAT's own search, presolve on",
        options={"parameters": "CP-SAT's own parameters, `name:value` apart by spaces "
                               "(`linearization_level:0 cp_model_presolve:false`), set "
                               "after PuzzleLab's"},
        statistics=frozenset({"branches", "conflicts", "propagations", "restarts"}),
        statistic_notes={
            "branches": "CP-SAT's own count, which takes in the decisions of its probing "
                        "and inprocessing too: compare it between cpsat runs only",
            "propagations": "propagated literals and bounds",
            "restarts": "CP-SAT's own count (num_restarts)"},
        reasons={
            SEARCH_TREE: "CP-SAT learns clauses, restarts and jumps back past several "
                         "decisions at once, and tells no search monitor its decisions: it "
                         "has no depth-first tree",
            DWAY_LABELLING: "CP-SAT's fixed search branches on a decision and its negation, "
                            "and learns clauses: no d-way tree, no backtracks to count",
            ROOT_PROPAGATION: "CP-SAT propagates (and presolves) inside its own solve and "
                              "hands back no domains before a decision",
            VALUE_RANKING: "CP-SAT's decision strategies pick the min, max, median or a half "
                           "of a domain, not a value ranking",
            PROBING: "probing needs nested propagation inside the search (CP-SAT probes on "
                     "its own in presolve: use auto)"})

    @classmethod
    def load(cls) -> None:
        import solvers.backends.cpsat_recorder  # noqa: F401 (it imports cp_model)

    def compile(self, model: Model, lowered: LoweredModel, request: SolveRequest,
                limits: SearchLimits) -> _Compiled:
        from ortools.sat.python import cp_model  # a CP-SAT solve alone pays for it

        sat_model = cp_model.CpModel()
        sat_vars: SatVars = {}
        for variable in lowered.variables:
            if variable.is_contiguous:
                sat_vars[variable] = sat_model.new_int_var(variable.lb, variable.ub,
                                                           variable.name)
            else:
                domain = cp_model.Domain.from_values(list(variable.domain))
                sat_vars[variable] = sat_model.new_int_var_from_domain(domain, variable.name)
        for constraint in lowered.constraints:
            POSTERS[type(constraint)](sat_model, sat_vars, constraint)
        if not request.plan.auto:
            _add_fixed_search(sat_model, sat_vars, request.plan)
        return _searching(sat_model, sat_vars, [sat_vars[v] for v in model.variables],
                          request, limits)

    def add_cuts(self, compiled: _Compiled, cuts: list[Constraint], request: SolveRequest,
                 limits: SearchLimits) -> _Compiled:
        """The model searched before, with ``cuts`` posted, a new hint, and the kept
        variables' domains narrowed to their hinted values (those of the search before
        given back): CP-SAT solves a model from scratch each time, so only the posting
        is saved."""
        for constraint in cuts:
            POSTERS[type(constraint)](compiled.model, compiled.sat_vars, constraint)
        compiled.model.clear_hints()
        domains = compiled.model.proto.variables
        keep = ({} if request.hint is None else
                {compiled.model_vars[p].index: request.hint[p] for p in request.keep})
        kept = compiled.kept
        for index in [i for i, (value, _) in kept.items() if keep.get(i) != value]:
            domains[index].domain.clear()  # kept by the search before, free again
            domains[index].domain.extend(kept.pop(index)[1])
        for index, value in keep.items():
            if index not in kept:
                kept[index] = (value, list(domains[index].domain))
                domains[index].domain.clear()
                domains[index].domain.extend((value, value))
        searching = _searching(compiled.model, compiled.sat_vars, compiled.model_vars,
                               request, limits)
        searching.kept = kept
        if kept:
            searching.solver.parameters.max_number_of_conflicts = REPAIR_CONFLICTS
        return searching

    def search(self, compiled: _Compiled) -> Generator[tuple[int, ...], None, None]:
        from ortools.sat.python import cp_model

        recorder = compiled.recorder
        if not compiled.solver.parameters.enumerate_all_solutions:
            # one solution, judged by no one: read it after the solve, no callback
            status = compiled.solver.solve(compiled.model)
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                solution = compiled.solver.response_proto.solution
                recorder.found[tuple(solution[index] for index in recorder.indices)] = None
                recorder.first_branches = compiled.solver.num_branches
                recorder.stopped = True
        else:
            status = compiled.solver.solve(compiled.model, recorder)
        enumerating = compiled.solver.parameters.enumerate_all_solutions
        if (status == cp_model.UNKNOWN and compiled.kept and not compiled.recorder.found
                and compiled.solver.num_conflicts >= REPAIR_CONFLICTS):
            return  # a repair round gives up as though nothing were near the cuts
        if status == cp_model.UNKNOWN or (status == cp_model.FEASIBLE and enumerating
                                          and not compiled.recorder.stopped):
            # the time limit is the only limit set, and CP-SAT may stop on it somewhat
            # early by the wall clock (at 80 % of 0.5 s, seen on Knotty): it ran out
            if compiled.limits.time_limit is not None:
                compiled.limits.time_ran_out()
            elif not compiled.limits.interrupted:
                raise SolverError("CP-SAT stopped without an answer and without a time limit")
        elif status == cp_model.MODEL_INVALID:
            raise SolverError(f"CP-SAT rejected the model: {compiled.model.validate()}")
        elif status not in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE):
            raise SolverError(f"unknown CP-SAT status {status}")
        elif status != cp_model.INFEASIBLE and not compiled.recorder.found:
            raise SolverError("CP-SAT reported a solution but none was recorded")
        yield from compiled.recorder.found

    def counters(self, compiled: _Compiled) -> dict[str, int | None]:
        solver, response = compiled.solver, compiled.solver.response_proto
        return {"branches": solver.num_branches, "conflicts": solver.num_conflicts,
                "propagations": response.num_binary_propagations
                + response.num_integer_propagations, "restarts": response.num_restarts,
                "first_branches": compiled.recorder.first_branches}
