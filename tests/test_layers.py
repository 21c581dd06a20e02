"""The package's layers, read from its imports: no circles, engines below the formats and the faces."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

import cpsolve

PACKAGE = Path(cpsolve.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> nx.DiGraph:
    """Every cpsolve module and the cpsolve modules it imports, at any depth of its code (a lazy import counts)."""
    modules = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(
                        package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                    )
                # `from cpsolve.deduce import engine` imports the submodule; `import View` the package
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names
                ]
            for target in targets:
                if target in modules and target != name:
                    graph.add_edge(name, target)
    return graph


GRAPH = _imports()


def test_no_two_modules_import_each_other_directly_or_through_others():
    # a package's __init__ that hands its modules' names on is part of them: leave those edges out
    graph = GRAPH.copy()
    graph.remove_edges_from([(a, b) for a, b in GRAPH.edges if b.startswith(a + ".")])
    assert list(nx.simple_cycles(graph)) == []


ENGINES = [
    "cpsolve.deduce",
    "cpsolve.play",
    "cpsolve.layout",
    "cpsolve.generate",
    "cpsolve.reveal",
    "cpsolve.board",
    "cpsolve.grid",
]
FACES = ("cpsolve.formats", "cpsolve.cli", "cpsolve.web", "cpsolve.answers", "cpsolve.game", "cpsolve.sweep")


@pytest.mark.parametrize("engine", ENGINES)
def test_an_engine_imports_no_format_and_no_face(engine):
    below = {module for module in GRAPH if module == engine or module.startswith(engine + ".")}
    reached = {target for module in below for target in GRAPH.successors(module)}
    assert sorted(t for t in reached if t.startswith(FACES)) == []


def test_no_command_module_imports_another():
    commands = {module for module in GRAPH if module.startswith("cpsolve.cli.")} - {
        "cpsolve.cli.app",
        "cpsolve.cli.options",
        "cpsolve.cli.tables",
        "cpsolve.cli.boards",
    }
    assert sorted((a, b) for a, b in GRAPH.edges if a in commands and b in commands) == []
