"""toolpipe/ is pure: no asyncio, trio, threads or interpreters outside its two edges."""

import ast
import pathlib

import pytest

from .sources import imports, summary

ROOT = pathlib.Path(__file__).resolve().parent.parent / "toolpipe"
EDGES = {"cli.py", "_cli_report.py", "__main__.py", "testing.py"}  # the report is the CLI's
FORBIDDEN = {"asyncio", "trio", "interpreters", "threading", "subprocess", "socket",
             "concurrent", "multiprocessing", "time"}


def imported_roots(path: pathlib.Path) -> set[str]:
    if path.is_relative_to(ROOT):
        return set(imports(path)["roots"])
    return set(summary(ast.parse(path.read_text(), str(path)))["roots"])


@pytest.mark.parametrize(
    "path", sorted(p for p in ROOT.rglob("*.py") if p.name not in EDGES), ids=str
)
def test_module_is_pure(path):
    bad = imported_roots(path) & FORBIDDEN
    assert not bad, f"{path.relative_to(ROOT.parent)} imports {sorted(bad)}"


def test_the_check_catches_a_bad_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import asyncio\nfrom interpreters import simulated\n")
    assert imported_roots(bad) & FORBIDDEN == {"asyncio", "interpreters"}
