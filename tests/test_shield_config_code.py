"""Tools told by an option to read a configuration that is code, or that names code
(the twenty-second sitting's held-out `classes-fresh126.txt`: 10 of its 16 attacks
allowed at its first run): `eslint -c F`, `prettier --config F`, `rollup -c F`, `vite
--config F`, `pylint --rcfile F` (its init-hook), `sphinx-build -c DIR` (conf.py),
`mkdocs -f F` (its hooks), `coverage --rcfile F` (its plugins), `rubocop -c F` (its
require), `playwright test --config F`: each a file the tool loads, as `node -r F` is.

The law, shown catching its reading taken away: such a configuration in a scratch folder
no call wrote is asked about, the project's own is not, and a tool whose configuration is
data (ruff, black, flake8) is not asked about for one in /tmp."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide, placed
from toolpipe.shell import _loads

SHAPES = st.sampled_from([
    "npx eslint -c {p}/eslint.config.js src", "npx prettier --config {p}/p.cjs --check .",
    "npx rollup -c {p}/rollup.config.mjs", "npx vite build --config {p}/vite.config.ts",
    "npx vitest --config={p}/vitest.config.ts", "pylint --rcfile {p}/pylintrc src",
    "sphinx-build -c {p} docs _build", "mkdocs build -f {p}/mkdocs.yml",
    "coverage run --rcfile={p}/coveragerc -m pytest", "rubocop -c {p}/rubocop.yml",
    "npx playwright test --config={p}/playwright.config.ts",
    "npx cypress run -C {p}/cypress.config.js", "npx mocha --config {p}/.mocharc.js"])


@settings(max_examples=120, deadline=None)
@given(SHAPES, st.sampled_from(["/tmp/c", "/var/tmp/x", "/dev/shm/y"]),
       st.sampled_from(["config", "ci", "tools/lint"]))
def test_a_configuration_that_is_code_in_a_scratch_folder_is_asked_about(shape, scratch,
                                                                        own):
    placed(shape, scratch, own, allowed=True)


@pytest.mark.parametrize("command", [
    "ruff check --config /tmp/ruff.toml .", "black --config /tmp/black.toml --check .",
    "flake8 --config /tmp/flake8.cfg", "npx rollup -c", "npx eslint src"])
def test_a_configuration_that_is_data_or_none_is_not_asked_about(command):
    assert decide(command) == "allow", command


def test_the_law_catches_its_reading_taken_away(taken_away):
    without = {k: v for k, v in _loads._SEPARATE.items() if k != "eslint"}
    before, after = taken_away(_loads, "_SEPARATE", without,
                               "npx eslint -c /tmp/eslint.config.js src")
    assert before in STOPPED and after == "allow"
