"""``solve --profile``: where the model's strength comes from at the root, printed after
the run (:mod:`solvers.root_profile`)."""

from __future__ import annotations

from typing import Any

from experiments.campaign.solving import PuzzleRun, rebuilt
from experiments.cli.app import say
from puzzlelab.wording import counted


def print_profile(run: PuzzleRun, instance: Any) -> None:
    """The run's model built again and propagated at the root, family by family, on the
    run's backend when it declares root propagation, else on ``cp``
    (:func:`solvers.root_profile.profiler_for`)."""
    from solvers.root_profile import model_sizes, profiler_for, root_profile

    model = rebuilt(run, instance).model
    profile = root_profile(model, profiler_for(run.identity.solver_name))
    own = profile.backend == run.identity.solver_name
    say("")
    say(f"root propagation on {profile.backend}"
        f"{'' if own else f' ({run.identity.solver_name} has none)'}: "
        f"{counted(profile.variables, 'variable')}, {profile.values} values, "
        f"{profile.fixed_before} fixed by the instance")
    width = max([len("together"), *(len(f.kind) for f in profile.families)])
    say(f" {'family':<{width}}  {'constraints':>11}  {'values removed':>14}")
    for family in profile.families:
        say(f" {family.kind:<{width}}  {family.constraints:>11}  {_removed(family.removed):>14}")
    fixed = ("the root fails: no solution" if profile.fixed is None else
             f"{counted(profile.fixed, 'variable')} fixed before the first decision")
    say(f" {'together':<{width}}  {len(model.constraints):>11}  "
        f"{_removed(profile.removed):>14}  ({fixed})")
    built, lowered = model_sizes(model, run.identity.solver_name)
    say(f"model as built: {built}")
    say(f"as {run.identity.solver_name} posts it: {lowered}")


def _removed(number: int | None) -> str:
    return "fails" if number is None else str(number)
