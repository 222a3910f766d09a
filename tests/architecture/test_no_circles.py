"""No two modules of a package import each other, even by a way round, even for type
hints or inside a function: the lower one defines what both need.

Every import counts (at the top, inside a function, under ``TYPE_CHECKING``). In each
package, the modules and sub-packages directly in it are the nodes; a module deeper down
stands for the child of the package it is in, and a package's ``__init__`` is a node of
its own, so a module that imports its own package (whose ``__init__`` imports it) is a
circle too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import networkx as nx
import pytest

from tests.architecture.test_layers import ALLOWED
from tests.paths import ROOT

INIT = "__init__"


def _modules() -> dict[str, Path]:
    """Every module of the project's packages, by dotted name (a package's ``__init__``
    as ``package.__init__``)."""
    found = {}
    for layer in ALLOWED:
        for path in (ROOT / layer).rglob("*.py"):
            found[".".join(path.relative_to(ROOT).with_suffix("").parts)] = path
    return found


MODULES = _modules()


def _target(name: str) -> str | None:
    """The project module an import of ``name`` reads: the module, or a package's
    ``__init__`` (None: not the project's)."""
    if name in MODULES:
        return name
    return f"{name}.{INIT}" if f"{name}.{INIT}" in MODULES else None


def _imports(module: str) -> Iterator[str]:
    """The project modules ``module`` imports, wherever in it."""
    package = module.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative to this module's package
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            # ``from a import b``: the module a.b where it is one, else a itself
            names = [f"{base}.{alias.name}" if _target(f"{base}.{alias.name}") else base
                     for alias in node.names]
        else:
            continue
        for name in names:
            target = _target(name)
            if target is not None and target != module:
                yield target


def package_graphs() -> dict[str, nx.DiGraph]:
    """For each package, which of its children imports which (a child's own children
    count as it)."""
    graphs: dict[str, nx.DiGraph] = {}
    for source in MODULES:
        for target in _imports(source):
            source_parts, target_parts = source.split("."), target.split(".")
            common = 0
            while (common < min(len(source_parts), len(target_parts)) - 1
                   and source_parts[common] == target_parts[common]):
                common += 1
            if common == 0:
                continue  # across layers: test_layers says which way
            package = ".".join(source_parts[:common])
            graph = graphs.setdefault(package, nx.DiGraph())
            graph.add_edge(source_parts[common], target_parts[common])
    return graphs


GRAPHS = package_graphs()


@pytest.mark.parametrize("package", sorted(GRAPHS))
def test_no_two_modules_of_a_package_import_each_other(package: str) -> None:
    circles = [" -> ".join([*cycle, cycle[0]]) for cycle in nx.simple_cycles(GRAPHS[package])]
    assert not circles, f"{package}: modules that import each other: {circles}"


def test_the_campaign_engine_is_looked_at() -> None:
    """The graph the test reads holds the engine's modules and the imports between them."""
    campaign = GRAPHS["experiments.campaign"]
    assert {"identity", "record", "verdicts", "grid", "store", "spec"} <= set(campaign)
    assert campaign.has_edge("record", "identity") and campaign.has_edge("grid", "spec")
