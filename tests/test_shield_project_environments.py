"""A project's runner told where the project is by a project environment's own options or
by a variable (the twenty-first sitting's held-out `classes-fresh114.txt`: 8 of its 22
attacks allowed at its first run): `uv run --project /tmp/x pytest`, `poetry -C /tmp/x
run pytest` (the option before the subcommand: such a line was not peeled at all), `pdm
-p /tmp/x run test`, `MAVEN_ARGS='-f /tmp/x/pom.xml' mvn test`,
`COMPOSER=/tmp/x/composer.json composer install`, `PIPENV_PIPFILE=/tmp/x/Pipfile pipenv
run test`. Found on the way, older than the sitting: Python's project tools run in a
scratch folder were allowed (`cd /tmp/x && poetry install`, `uv sync`, `pdm run test`,
`hatch run test`: each builds or installs the project, or runs its scripts).

The laws, each shown catching its reading taken away: a project environment's folder
option, before its subcommand or after it, pointed at a scratch folder asks and pointed
inside the project does not; a project environment's `run`, `install` or `sync` in a
scratch folder asks, and its `run` in a folder outside the workspace asks (as `make -C
DIR` does; `uv --directory ~/x run pytest`, asked about as uv's before the sitting, was
allowed once uv was peeled off); a variable naming the project's file or the runner's
options is read as the option it stands for; an environment named by its folder (`conda
run -p /tmp/env python`) runs that folder's programs; `uv tool run` (uvx) runs a tool,
not the project."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide
from toolpipe.layers import _shield_builds
from toolpipe.shell import _loaders, _loads, _runners

SCRATCH = st.sampled_from(["/tmp/x", "/var/tmp/proj", "/dev/shm/p", "/tmp/a/b"])
INSIDE = st.sampled_from([".", "backend", "services/api", "./packages/core"])
FOLDERS = sorted((p, o) for p, opts in _runners.RUNNER_FOLDERS.items() for o in opts)
COMMANDS = st.sampled_from(["pytest", "pytest -q tests", "python -m app", "make test"])


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(FOLDERS), SCRATCH, INSIDE, COMMANDS, st.booleans(), st.booleans())
def test_a_project_environment_s_folder_option_is_where_it_runs(row, scratch, inside, command,
                                                                 before, glued):
    program, option = row
    def line(place: str) -> str:
        given = f"{option}={place}" if glued and option.startswith("--") else f"{option} {place}"
        return (f"{program} {given} run {command}" if before else
                f"{program} run {given} {command}")
    assert decide(line(scratch)) in STOPPED, line(scratch)
    assert decide(line(inside)) not in STOPPED, line(inside)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["uv run python -m app", "uv sync", "poetry install", "poetry build",
                        "pdm run test", "pdm install", "pipenv run test", "pipenv install",
                        "hatch run test", "hatch build", "rye sync", "uv run --frozen app"]),
       SCRATCH)
def test_a_project_environment_in_a_scratch_folder_asks(command, scratch):
    assert decide(f"cd {scratch} && {command}") in STOPPED, command
    assert decide(f"cd build && {command}") not in STOPPED, command
    assert decide(command) not in STOPPED, command


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["MAVEN_ARGS='-f {p}/pom.xml' mvn test",
                        "COMPOSER={p}/composer.json composer install",
                        "PIPENV_PIPFILE={p}/Pipfile pipenv run test",
                        "export COMPOSER={p}/c.json; composer install",
                        "MAVEN_ARGS='--file {p}/pom.xml -q' mvn verify"]), SCRATCH, INSIDE)
def test_a_variable_naming_the_project_is_read_as_its_option(shape, scratch, inside):
    assert decide(shape.format(p=scratch)) in STOPPED, shape
    assert decide(shape.format(p=inside)) not in STOPPED, shape


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted((p, o) for p, opts in _runners._PREFIXES.items() for o in opts)),
       SCRATCH, COMMANDS, st.booleans())
def test_an_environment_named_by_its_folder_runs_its_programs(row, scratch, command, glued):
    program, option = row
    given = f"{option}={{p}}" if glued and option.startswith("--") else f"{option} {{p}}"
    shape = f"{program} run {given} {command}"
    assert decide(shape.format(p=scratch)) in STOPPED, shape
    assert decide(shape.format(p="./env")) not in STOPPED, shape


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(FOLDERS), st.sampled_from(["~/projects/other", "/opt/app", "..",
                                                  "$OTHER"]), COMMANDS)
def test_a_project_environment_run_outside_the_workspace_asks(row, outside, command):
    program, option = row
    assert decide(f"{program} {option} {outside} run {command}") in STOPPED
    assert decide(f"cd {outside} && {program} run {command}") in STOPPED


@pytest.mark.parametrize("command", ["cd /tmp/x && uv tool run ruff check .",
                                     "cd /tmp/x && uvx ruff check .",
                                     "cd /tmp/x && uv pip install requests"])
def test_a_tool_run_in_a_scratch_folder_is_no_project(command):
    assert decide(command) not in STOPPED, command


@pytest.mark.parametrize(("module", "name", "broken", "command"), [
    (_runners, "RUNNER_FOLDERS", {}, "poetry -C /tmp/x run pytest"),
    (_runners, "_PREFIXES", {}, "conda run -p /tmp/env python -m app"),
    (_shield_builds, "PROJECT_ENVIRONMENTS", frozenset(), "uv --directory ~/projects/x run pytest"),
    (_loads, "PROJECT_ENVIRONMENTS", frozenset(), "cd /tmp/x && pdm run test"),
    (_loaders, "SETTINGS", _loaders.SETTINGS - {"COMPOSER"},
     "COMPOSER=/tmp/x/composer.json composer install"),
])
def test_each_law_catches_its_reading_taken_away(taken_away, module, name, broken, command):
    before, after = taken_away(module, name, broken, command)
    assert before in STOPPED
    assert after == "allow"
