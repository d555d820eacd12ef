"""Loaded first (``-p tests._bytecode`` in the pytest options), before the plugins pytest
finds installed: bytecode may be written.

These machines set PYTHONDONTWRITEBYTECODE. With it, a fresh virtual environment never
gets bytecode: every test worker and every process a test starts (the MCP proxy and its
upstream, python3 in the demo) compiles toolpipe, pydantic and the SDKs again, and pytest
rewrites the assertions of the plugins' packages (hypothesis, returns: 126 modules, a
second of CPU) in every worker of every run. Allowed here, each is compiled once and the
caches are read by all of them."""

import sys

sys.dont_write_bytecode = False


def pytest_configure(config: object) -> None:
    """In the controlling process, before the workers start: toolpipe compiled once, not
    by each worker at the same moment (an editable install is not compiled by pip)."""
    if hasattr(config, "workerinput"):
        return
    import compileall
    import pathlib

    root = pathlib.Path(__file__).resolve().parent.parent
    for folder in ("toolpipe", "interpreters"):
        compileall.compile_dir(str(root / folder), quiet=1)
