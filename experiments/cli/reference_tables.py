"""Reference rows read off the registries and declarations: backends, statistics,
puzzles, viewpoints, which backend runs which viewpoint, the spec's keys, the run record,
the studies and the committed results (``puzzlelab list`` prints the first two).

:mod:`experiments.cli.reference` puts them between the markers of ``README.md`` and
``docs/*.md``; each fact stays where it is declared, and the pages only show it.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from puzzlelab.errors import UnknownName, UnsupportedCombination
from puzzlelab.statistics import STATISTICS, Statistic
from puzzlelab.wording import counted
from puzzles import PUZZLES, DataSet, PuzzleKind
from solvers import BACKENDS, Model, load_backends, prepare
from solvers.capabilities import AFTER_SEARCH_STATISTICS
from viewpoints import DEFAULTS, VIEWPOINTS, viewpoints_of

Rows = list[dict[str, str]]
ROOT = Path(__file__).resolve().parents[2]
"""The repository: ``results/`` and the pages live here."""
NONE = "–"


def backend_rows() -> list[dict[str, str]]:
    """One row per registered backend: its name, library, purpose and capabilities."""
    load_backends()
    rows = []
    for name in BACKENDS.names():
        backend = BACKENDS.get(name)
        declared = backend.capabilities
        missing = backend.unavailable()
        summary = declared.summary + "".join(f"; option `-o {option}=...`: {meaning}"
                                             for option, meaning in declared.options.items())
        summary += f" (unavailable here: {missing})" if missing else ""
        rows.append({"solver": name, "library": declared.library, "what for": summary,
                     **declared.table_cells()})
    return rows


def statistic_rows() -> list[dict[str, str]]:
    """One row per declared statistic: name, unit, MiniZinc name, meaning, who reports it."""
    load_backends()
    rows = []
    for name in STATISTICS:
        statistic = STATISTICS.get(name)
        rows.append({"statistic": name, "metric": statistic.metric or "–",
                     "unit": statistic.unit,
                     "MiniZinc": statistic.minizinc or "–",
                     "meaning": statistic.meaning, "reported by": _reporters(statistic)})
    return rows


def _reporters(statistic: Statistic) -> str:
    if statistic.name in AFTER_SEARCH_STATISTICS:
        return "; ".join(name for name in BACKENDS.names()
                         if BACKENDS.get(name).capabilities.after_search)
    if statistic.measured_by == "loop":
        return "every solver"
    if statistic.measured_by == "runner":
        return "the runner"
    notes = []
    for name in BACKENDS.names():
        declared = BACKENDS.get(name).capabilities
        if statistic.name in declared.statistics:
            note = declared.statistic_notes.get(statistic.name)
            notes.append(f"{name} ({note})" if note else name)
    return "; ".join(notes) or "–"


def code(text: object) -> str:
    """``text`` as a Markdown code span."""
    return f"`{text}`"


# ------------------------------------------------------------------ puzzles and viewpoints


def puzzle_rows() -> Rows:
    """A row per puzzle: its file suffixes, its defaults and its bundled data sets."""
    rows = []
    for name in PUZZLES.names():
        kind = PUZZLES.get(name)
        rows.append({
            "puzzle": code(name), "files read": ", ".join(map(code, kind.suffixes)),
            "default viewpoint, solver, heuristic":
                DEFAULTS.get(name).describe() if name in DEFAULTS else NONE,
            f"bundled data sets ({code('puzzles/data/<puzzle>/')})":
                ", ".join(_data_set(kind, data) for data in kind.data_sets()) or NONE})
    return rows


def _data_set(kind: PuzzleKind[Any, Any], data: DataSet) -> str:
    """A folder of files as ``small/ (6 files)``, a file of instances by its name."""
    if data.files[0].parent == kind.data_folder():
        return code(data.files[0].name)
    return f"{code(data.name + '/')} ({counted(len(data.files), 'file')})"


def json_solution_rows() -> Rows:
    """A row per puzzle: its solution's JSON form, as its ``solution_to_json`` says."""
    return [{"puzzle": code(name), "solution in JSON": first_paragraph(
                inspect.getdoc(PUZZLES.get(name).solution_to_json))}
            for name in PUZZLES.names()]


def generator_option_rows() -> Rows:
    """A row per generator option of each puzzle, as ``generate`` takes it."""
    return [{"puzzle": code(name), "option": code(f"--{option}"), "takes": declared.describe()}
            for name in PUZZLES.names()
            for option, declared in PUZZLES.get(name).generator_options.items()]


def viewpoint_rows() -> Rows:
    """A row per viewpoint: its key, its docstring's first paragraph (its first line may
    break off mid-sentence), its options, and the search orders its model names (on the
    first instance of the puzzle's smallest data set)."""
    rows = []
    for puzzle in PUZZLES.names():
        instance = example_instance(puzzle)
        for chosen in viewpoints_of(puzzle):
            model = chosen.build(instance).model
            orders = [*model.variable_orders, *(f"/{order}" for order in model.value_orders)]
            rows.append({
                "viewpoint": code(chosen.key),
                "model": first_paragraph(inspect.getdoc(chosen.build_function)),
                "options": "<br>".join(f"{code(option)}: {declared.describe()}"
                                       for option, declared in chosen.options.items()) or NONE,
                "own orders": ", ".join(map(code, orders)) or NONE})
    return rows


def example_instance(puzzle: str) -> Any:
    """The first instance of the puzzle's smallest bundled data set (by bytes): one that
    every viewpoint builds at once."""
    kind = PUZZLES.get(puzzle)
    smallest = min(kind.data_sets(),
                   key=lambda data: sum(path.stat().st_size for path in data.files))
    return kind.read(smallest.files[0])[0]


def first_paragraph(text: str | None) -> str:
    """A docstring's or a help text's first paragraph, on one line."""
    return " ".join((text or "").split("\n\n")[0].split())


def viewpoint_models() -> str:
    """Each viewpoint's docstring under its key: what its variables mean, which
    constraints it posts, what its search branches on."""
    parts = []
    for key in VIEWPOINTS:
        lines = (inspect.getdoc(VIEWPOINTS.get(key).build_function) or "").splitlines()
        parts.append("\n".join([f"#### {code(key)}", "", f"*{lines[0]}*", *lines[1:]]))
    return "\n\n".join(parts)


def matrix_rows() -> Rows:
    """A row per viewpoint, a column per backend: whether the backend runs the viewpoint
    with its default options on :func:`example_instance`, under the puzzle's default
    heuristic, else ``input/min``, else ``auto``."""
    load_backends()
    rows = []
    for puzzle in PUZZLES.names():
        instance = example_instance(puzzle)
        heuristics = dict.fromkeys([DEFAULTS.get(puzzle).heuristic, "input/min", "auto"])
        for chosen in viewpoints_of(puzzle):
            model = chosen.build(instance).model
            rows.append({"viewpoint": code(chosen.key),
                         **{backend: "yes" if _runs(model, backend, heuristics) else NONE
                            for backend in BACKENDS.names()}})
    return rows


def _runs(model: Model, backend: str, heuristics: Iterable[str]) -> bool:
    """Whether ``backend`` takes ``model`` under one of ``heuristics``, tried in turn."""
    for heuristic in heuristics:
        try:
            prepare(model, backend, heuristic)
        except (UnsupportedCombination, UnknownName):
            continue
        return True
    return False


# ------------------------------------------------------------------ experiments


def mark_rows() -> Rows:
    """A row per mark a table cell may show instead of a figure: the tables' legend."""
    from experiments.analysis.table_format import MARKS

    return [{"mark": code(mark), "meaning": meaning} for mark, meaning in MARKS.items()]


def spec_key_rows() -> Rows:
    """A row per key of an experiment spec: whether it must be given, and what it holds."""
    from experiments.campaign.spec import DEFAULTED, GROWING, KEYS, PRESENTATION, REQUIRED

    def given(key: str) -> str:
        if key in REQUIRED:
            return "required"
        return "the puzzle's default" if key in DEFAULTED else "optional"

    def rerun(key: str) -> str:
        if key in PRESENTATION:
            return "shown anew"
        return "runs the new cells" if key in GROWING else "refused"

    return [{"key": code(key), "given": given(key), "changed on a rerun": rerun(key),
             "meaning": meaning} for key, meaning in KEYS.items()]


def csv_columns() -> str:
    """The columns of ``runs.csv``, in order: its header line."""
    from experiments.campaign.store import runs_as_csv

    return ", ".join(map(code, runs_as_csv([]).strip().split(",")))


def json_keys() -> str:
    """The keys of a run record as ``solve --json`` prints it, in order."""
    from experiments.campaign.identity import RunIdentity
    from experiments.campaign.record import RunRecord
    from solvers import Status

    identity = RunIdentity(puzzle="", instance_name="", instance="", viewpoint_name="",
                           viewpoint="", solver="", heuristic="")
    return ", ".join(map(code, RunRecord(identity=identity, status=Status.SOLVED).to_json()))


def record_fields() -> str:
    """The fields of a run record, in order."""
    from experiments.campaign.record import RunRecord

    return ", ".join(code(field.name) for field in dataclasses.fields(RunRecord))


def identity_fields() -> str:
    """The fields of a run's identity, in order."""
    from experiments.campaign.identity import RunIdentity

    return ", ".join(code(field.name) for field in dataclasses.fields(RunIdentity))


def result_rows(to_root: str) -> Rows:
    """A row per committed experiment (``results/<name>/README.md``): its title, and the
    spec or the study that made it (links relative to a page ``to_root`` below the root)."""
    from experiments.studies import STUDIES

    rows = []
    for readme in sorted((ROOT / "results").glob("*/README.md")):
        name = readme.parent.name
        title = readme.read_text(encoding="utf-8").splitlines()[0].lstrip("# ")
        spec = Path("experiments", "specs", f"{name}.toml")
        made_by = (f"[{code(spec.as_posix())}]({to_root}{spec.as_posix()})"
                   if (ROOT / spec).is_file()
                   else code(f"puzzlelab study {name}") if name in STUDIES else NONE)
        rows.append({"results": f"[{name}]({to_root}results/{name}/README.md)",
                     "what": title.removeprefix(f"{name}: "), "made by": made_by})
    return rows


def study_rows() -> Rows:
    """A row per registered study: how to run it, both ways, and what it measures."""
    from experiments.studies import STUDIES

    return [{"study": code(f"puzzlelab study {name}"),
             "module": code(f"python -m {STUDIES.get(name).module}"),
             "what it measures": STUDIES.get(name).summary} for name in STUDIES.names()]
