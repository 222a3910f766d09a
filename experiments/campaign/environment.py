"""What a campaign records about the machine and the code, so its figures can be reproduced."""

from __future__ import annotations

import os
import platform
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

PACKAGES = ("puzzlelab", "ortools", "python-constraint2", "pychoco", "numba", "networkx", "dask",
            "distributed")
PROJECT_ROOT = Path(__file__).resolve().parents[2]


def package_versions() -> dict[str, str]:
    """Installed versions of PuzzleLab and the solver libraries (absent ones left out).

    Read from the installed distributions' ``NAME-VERSION.dist-info`` folders, as the
    wheel format names them; ``importlib.metadata`` (which imports ``email`` and
    ``socket``, a tenth of a campaign's start) only for one installed otherwise."""
    found = _dist_info_versions()
    versions = {}
    for package in PACKAGES:
        version = found.get(_normalized(package))
        if version is None:
            from importlib import metadata

            try:
                version = metadata.version(package)
            except metadata.PackageNotFoundError:
                continue
        versions[package] = version
    return versions


def _dist_info_versions() -> dict[str, str]:
    """Each distribution with a ``.dist-info`` folder on ``sys.path``, by normalized name
    (the first on the path wins, as an import would find it)."""
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            stem, dot, suffix = name.rpartition(".")
            if dot and suffix == "dist-info" and "-" in stem:
                distribution, version = stem.split("-", 1)
                found.setdefault(_normalized(distribution), version)
    return found


def _normalized(name: str) -> str:
    """A distribution's name as PEP 503 compares them (``python_constraint2`` is
    ``python-constraint2``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def cpu_model() -> str:
    """The CPU's model name (from /proc/cpuinfo on Linux)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def core_count() -> int:
    """Cores this process may use (its affinity mask where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def git_commit(root: Path = PROJECT_ROOT) -> str | None:
    """The project's commit, with ``-dirty`` when files differ from it; None outside git."""
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                                text=True, timeout=10, check=True).stdout.strip()
        changes = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                                 cwd=root, capture_output=True, text=True, timeout=10,
                                 check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return commit + ("-dirty" if changes else "")


@dataclass(frozen=True)
class Machine:
    """What a session records about the machine and the code it ran."""

    package_versions: dict[str, str]
    python: str
    platform: str
    cpu_model: str
    cores: int
    git_commit: str | None
    host: str


def describe_machine() -> Machine:
    """This machine and the code it runs."""
    return Machine(package_versions(), platform.python_version(), platform.platform(),
                   cpu_model(), core_count(), git_commit(), platform.node())
