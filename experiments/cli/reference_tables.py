"""Reference rows read off the registries and declarations: puzzles, viewpoints, which
backend runs which viewpoint, the spec's keys, the commands, the studies and the
committed results.

:mod:`experiments.cli.reference` puts them between the markers of ``README.md`` and
``docs/*.md``; each fact stays where it is declared, and the pages only show it.
"""

from __future__ import annotations

import importlib.util
import inspect
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from puzzlelab.errors import UnknownName, UnsupportedCombination
from puzzlelab.wording import counted
from puzzles import PUZZLES, DataSet, PuzzleKind
from solvers import BACKENDS, Model, load_backends, prepare
from viewpoints import DEFAULTS, VIEWPOINTS, viewpoints_of

Rows = list[dict[str, str]]
ROOT = Path(__file__).resolve().parents[2]
"""The repository: ``results/`` and the pages live here."""
NONE = "–"


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


def generator_option_rows() -> Rows:
    """A row per generator option of each puzzle, as ``generate`` takes it."""
    return [{"puzzle": code(name), "option": code(f"--{option}"), "takes": declared.describe()}
            for name in PUZZLES.names()
            for option, declared in PUZZLES.get(name).generator_options.items()]


def viewpoint_rows() -> Rows:
    """A row per viewpoint: its key, its docstring's first paragraph (its first line may
    break off mid-sentence), its options."""
    return [{"viewpoint": code(key), "model": _first_paragraph(
                inspect.getdoc(VIEWPOINTS.get(key).build_function)),
             "options": "<br>".join(f"{code(option)}: {declared.describe()}" for option, declared
                                    in VIEWPOINTS.get(key).options.items()) or NONE}
            for key in VIEWPOINTS]


def _first_paragraph(text: str | None) -> str:
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
    with its default options on the first instance of the puzzle's smallest data set."""
    load_backends()
    rows = []
    for puzzle in PUZZLES.names():
        kind = PUZZLES.get(puzzle)
        smallest = min(kind.data_sets(),
                       key=lambda data: sum(path.stat().st_size for path in data.files))
        instance = kind.read(smallest.files[0])[0]
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


def spec_key_rows() -> Rows:
    """A row per key of an experiment spec: whether it must be given, and what it holds."""
    from experiments.campaign.spec import DEFAULTED, KEYS, REQUIRED

    def given(key: str) -> str:
        if key in REQUIRED:
            return "required"
        return "the puzzle's default" if key in DEFAULTED else "optional"

    return [{"key": code(key), "given": given(key), "meaning": meaning}
            for key, meaning in KEYS.items()]


def csv_columns() -> str:
    """The columns of ``runs.csv``, in order: its header line."""
    from experiments.campaign.store import runs_as_csv

    return ", ".join(map(code, runs_as_csv([]).strip().split(",")))


def json_keys() -> str:
    """The keys of a run record as ``solve --json`` prints it, in order."""
    from experiments.campaign.record import RunRecord
    from solvers import Status

    record = RunRecord("", 0, "", "", 0, "", "", {}, "", "", 0, 0, None, None, Status.SOLVED)
    return ", ".join(map(code, record.to_json()))


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
             "module": code(f"python -m {_runnable(STUDIES.get(name).module)}"),
             "what it measures": STUDIES.get(name).summary} for name in STUDIES.names()]


def _runnable(module: str) -> str:
    """What ``python -m`` runs for a study's module: the module itself, or the package
    whose ``__main__`` runs it (``throughput.cli`` is run by ``throughput``)."""
    found = importlib.util.find_spec(module)
    if found is None or found.submodule_search_locations or found.origin is None:
        return module
    source = Path(found.origin).read_text(encoding="utf-8")
    return module if '__name__ == "__main__"' in source else module.rpartition(".")[0]


# ------------------------------------------------------------------ the command line


def _commands() -> dict[str, Any]:
    """The ``puzzlelab`` commands as click made them from the typer app, by name."""
    import typer

    import experiments.cli  # noqa: F401 (each command module adds its commands)
    from experiments.cli.app import app

    group = typer.main.get_command(app)
    return dict(sorted(getattr(group, "commands", {}).items()))


def command_names() -> list[str]:
    """Every ``puzzlelab`` command, alphabetically."""
    return list(_commands())


def command_rows() -> Rows:
    """A row per command: its usage and the first paragraph of its help."""
    rows = []
    for name, command in _commands().items():
        arguments = " ".join(_metavar(p) for p in command.params if not p.opts[0].startswith("-"))
        rows.append({"command": code(f"puzzlelab {name} {arguments}".strip()),
                     "what it does": _first_paragraph(command.help)})
    return rows


def option_rows(name: str) -> Rows:
    """A row per argument and option of command ``name``: what it takes, its default."""
    commands = _commands()
    if name not in commands:
        raise UnknownName("command", name, commands)
    rows = []
    for parameter in commands[name].params:
        is_option = parameter.opts[0].startswith("-")
        spelled = (" / ".join([*parameter.opts, *parameter.secondary_opts]) if is_option
                   else _metavar(parameter))
        rows.append({"argument or option": code(spelled),
                     "what it does": _first_paragraph(getattr(parameter, "help", "")),
                     "default": _default(parameter) if is_option else NONE})
    return rows or [{"argument or option": NONE, "what it does": "none", "default": NONE}]


def _default(option: Any) -> str:
    """An option's default as typed: its value, or which of its flags holds."""
    default = option.default
    if isinstance(default, bool):
        flags = [*option.opts, *option.secondary_opts] if default else option.secondary_opts
        return code(flags[0]) if flags else NONE
    return NONE if default is None or default == () else code(default)


def _metavar(parameter: Any) -> str:
    """An argument as the usage line shows it: ``SPEC``, ``DATABASE...``."""
    metavar = parameter.metavar or parameter.name.upper()
    return f"[{metavar}]" if not parameter.required else metavar
