"""What a user installs: a typed package (a user's mypy --strict has no import-untyped), a
licence, a version the command line reports."""

from __future__ import annotations

import importlib.metadata
import pathlib
import shutil
import subprocess
import sys

import pytest

import toolpipe
from toolpipe.cli import main

ROOT = pathlib.Path(__file__).resolve().parent.parent
USER_CODE = '''\
from interpreters.simulated import SimulatedInterpreter
from toolpipe import (DispatchContext, DispatchResult, OutputLimitMiddleware,
                      RedactingMiddleware, ToolPipeline, ToolRegistry, redact_messages)

registry = ToolRegistry()


@registry.tool("Read", concurrency_safe=True, role="file_read")
def read(input: dict[str, object], context: object) -> str:
    return "line\\n" * 10


pipeline = (ToolPipeline.builder().with_middleware(OutputLimitMiddleware(20))
            .with_middleware(RedactingMiddleware()).with_core(registry).build())
result: DispatchResult = SimulatedInterpreter().run(pipeline.dispatch(DispatchContext("Read")))
text: str = result.text
cleaned: list[object] = redact_messages([{"role": "user", "content": text}])
'''


def test_the_version_is_one_and_the_cli_reports_it(capsys):
    assert toolpipe.__version__ == importlib.metadata.version("toolpipe-middleware")
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"toolpipe {toolpipe.__version__}"


def test_licence_and_typing_markers_ship():
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert (ROOT / "toolpipe" / "py.typed").exists()
    assert (ROOT / "interpreters" / "py.typed").exists()
    meta = importlib.metadata.metadata("toolpipe-middleware")
    assert "Typing :: Typed" in meta.get_all("Classifier")
    assert meta["License-Expression"] == "MIT"


@pytest.mark.process
@pytest.mark.skipif(shutil.which("mypy") is None and not (
    pathlib.Path(sys.executable).parent / "mypy").exists(), reason="mypy not installed")
def test_a_users_mypy_strict_sees_types(tmp_path):
    """Run from a folder outside the repository, so mypy finds toolpipe as an installed
    package (PEP 561): without py.typed it reports import-untyped."""
    (tmp_path / "agent.py").write_text(USER_CODE)
    # the repository's own cache: CI's mypy run on toolpipe has filled it, so this run
    # checks only the user's file against what is already analysed
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir",
                           str(ROOT / ".mypy_cache"), "agent.py"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "import-untyped" not in done.stdout
