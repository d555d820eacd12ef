"""toolpipe's modules parsed once, when the tests are collected.

CPython 3.11 keeps the AST builder's recursion depth in global state, so a parse that runs
while another thread parses too can fail with "SystemError: AST constructor recursion depth
mismatch" (python/cpython#106905). Tests start threads (worker pools, hypothesis); parsing
here, at collection, happens before any test has started one.
"""

from __future__ import annotations

import ast
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "toolpipe"
TREES: dict[pathlib.Path, ast.Module] = {
    path: ast.parse(path.read_text(), str(path)) for path in sorted(PACKAGE.rglob("*.py"))}
