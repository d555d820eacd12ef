"""Every Python block in docs/ and README.md, and every script in docs/examples, runs."""

import pathlib
import re
import runpy

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = sorted([*(ROOT / "docs").rglob("*.md"), ROOT / "README.md"])
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.py"))
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def blocks(page, *, needing: bool = False):
    """The page's Python blocks; one that starts with ``# needs …`` (a provider key) runs
    only in the test written for it, against a mock transport."""
    return [b for b in BLOCK.findall(page.read_text()) if b.startswith("# needs ") == needing]


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p)], ids=lambda p: p.name)
def test_page_blocks_run(page):
    namespace: dict = {"__name__": "__docs__"}
    for source in blocks(page):
        exec(compile(source, str(page), "exec"), namespace)


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(script, capsys):
    runpy.run_path(str(script), run_name="__main__")
    assert capsys.readouterr().out  # every example prints what it shows


def test_every_layer_has_a_page():
    names = ["timeout", "permission", "output_limit", "unknown_tool", "memoize", "verify",
             "redaction", "safety_shield"]
    for name in names:
        page = ROOT / "docs" / "layers" / f"{name}.md"
        assert page.exists() and blocks(page), name


TOML_BLOCK = re.compile(r"^```toml\n(.*?)^```", re.S | re.M)


@pytest.mark.parametrize("page", [p for p in PAGES if TOML_BLOCK.findall(p.read_text())],
                         ids=lambda p: p.name)
def test_page_pipeline_files_load(page):
    from toolpipe import ToolRegistry
    from toolpipe.config import load_pipeline

    for text in TOML_BLOCK.findall(page.read_text()):
        assert load_pipeline(text, ToolRegistry(), source=page.name).layers
