"""Running a spec again on a store that holds runs: what may change, and what may not.

A campaign grows the way people work: add a viewpoint, a solver, a heuristic, instances
or repeats, and run the spec again; only the new cells run, and the stored runs of the
cells still planned keep their figures. Cells taken out stay in the store, left out of
the tables and report unless asked for (``--all-runs``). What decides what a stored run
means (its limits, the solutions it asked for, the seed, the puzzle, the code it
imported) cannot change under stored runs: the runs would no longer compare. Nor can a
viewpoint or solver label come to stand for another viewpoint or backend, or for other
options.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from experiments.campaign.spec import (
    GROWING,
    PRESENTATION,
    ExperimentSpec,
    SolverChoice,
    ViewpointChoice,
)
from experiments.campaign.store import ResultsStore


def deciding(settings: Mapping[str, object]) -> dict[str, object]:
    """The settings that decide the runs (as sessions store them): all but presentation."""
    return {k: v for k, v in settings.items() if k not in PRESENTATION}


def check_growth(spec: ExperimentSpec, store: ResultsStore) -> None:
    """Refuse ``spec`` on ``store`` where it changes what a stored run means."""
    sessions = store.sessions()
    if not sessions or not store.run_count():
        return
    before = json.loads(sessions[-1].settings)
    now = deciding(spec.settings)
    stored_from = sessions[-1].spec_path
    # a moved spec writes its instance files anew (relative to it): other runs' keys
    fixed = PRESENTATION + (GROWING if stored_from == str(spec.path) else
                            tuple(k for k in GROWING if k != "instances"))
    changed = sorted(k for k in before.keys() | now.keys()
                     if k not in fixed and before.get(k) != now.get(k))
    if changed:
        raise spec.error(changed[0], f"changed since the runs stored in {store.path} were "
                         f"made ({_changes(changed, before, now, stored_from)}): it decides "
                         f"what every stored run means; run with --fresh to start over, or "
                         f"give the experiment a new name")
    _check_labels(spec, store, "viewpoint", spec.viewpoints)
    _check_labels(spec, store, "solver", spec.solvers)


def _check_labels(spec: ExperimentSpec, store: ResultsStore, key: str,
                  choices: Sequence[ViewpointChoice | SolverChoice]) -> None:
    """Refuse a viewpoint or solver label that stood for another name or other options
    in the stored runs."""
    stored = store.label_meanings(key)
    for index, choice in enumerate(choices):
        if choice.label not in stored:
            continue
        name, options = stored[choice.label]
        if (name, json.loads(options)) != (choice.name, dict(choice.options)):
            raise spec.error(f"{key}s[{index}]", f"label {choice.label!r} stood for {key} "
                             f"{name!r} with options {options} in the stored runs, and now "
                             f"for {choice.name!r} with options "
                             f"{json.dumps(dict(choice.options), sort_keys=True)}; give the "
                             f"changed {key} a label of its own, or run with --fresh")


def _changes(changed: list[str], before: Mapping[str, object], now: Mapping[str, object],
             stored_from: str) -> str:
    """Each changed key with its stored and its new value; for the instances, which are
    written relative to the spec, where the stored runs' spec was (a moved spec changes
    them all). What did not change is not named."""
    said = []
    for key in changed:
        if key == "instances":
            said.append(f"instances: the stored runs were made from {stored_from}, and a "
                        f"spec's instance files are written relative to it")
        else:
            said.append(f"{key} {_shown(before.get(key))} -> {_shown(now.get(key))}")
    return "; ".join(said)


def _shown(value: object) -> str:
    """A setting's value as the spec writes it (``left out`` when it has none)."""
    return "left out" if value is None else json.dumps(value)
