"""What toolpipe's modules import, read from their parsed sources once per run.

Two tests read it (tests/test_import_graph.py, tests/test_purity.py). Parsing 125 modules
costs 0.4 s, and every test worker would pay it, so the controlling process parses them as
pytest starts and hands each worker the summary (``pytest_configure_node`` in
tests/conftest.py); a run without workers parses them itself, as it starts.

Parsing happens before any test has started a thread, on purpose: CPython 3.11 keeps the
AST builder's recursion depth in global state, so a parse that runs while another thread
parses too can fail with "SystemError: AST constructor recursion depth mismatch"
(python/cpython#106905). Tests start threads (worker pools, hypothesis).
"""

from __future__ import annotations

import ast
import pathlib
from typing import Any

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "toolpipe"


def summary(tree: ast.Module) -> dict[str, list[Any]]:
    """A module's imports: at module level, ``import A`` names (``top``) and ``from M
    import N…`` with no dots (``top_from``: M and its names); anywhere in it, the first
    part of every absolute import (``roots``)."""
    top: list[str] = []
    top_from: list[list[Any]] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            top_from.append([node.module, [a.name for a in node.names]])
        elif isinstance(node, ast.Import):
            top.extend(a.name for a in node.names)
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return {"top": top, "top_from": top_from, "roots": sorted(roots)}


def summaries() -> dict[str, dict[str, list[Any]]]:
    """Every module of the package, by its path (a string: it crosses to the workers)."""
    return {str(path): summary(ast.parse(path.read_text(), str(path)))
            for path in sorted(PACKAGE.rglob("*.py"))}


# set by tests/conftest.py when pytest starts, before collection: parsed there, or in a
# worker what the controlling process sent
GIVEN: dict[str, dict[str, list[Any]]] | None = None


def imports(path: pathlib.Path) -> dict[str, list[Any]]:
    """The summary of one of the package's modules."""
    global GIVEN
    if GIVEN is None:  # imported outside pytest
        GIVEN = summaries()
    return GIVEN[str(path)]
