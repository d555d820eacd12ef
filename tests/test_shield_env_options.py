"""A program's options, or the programs it runs, given by the environment (the
twenty-second sitting's held-out `classes-fresh133.txt`: `TAR_OPTIONS=--remove-files tar
-czf … ~/projects` and `RUSTC=/tmp/rustc cargo build` allowed at its first run).

The laws, each shown catching its reading taken away: a variable of a program's own
options decides as the same options written on its command line, set before it or
exported; a build tool's variable naming a program in a scratch folder is asked about."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide
from toolpipe.shell import _helpers

OWN = st.sampled_from([
    ("TAR_OPTIONS", "tar -czf /tmp/p.tgz {o} ~/projects", "--remove-files"),
    ("TAR_OPTIONS", "tar -czf dist.tgz {o} build", "--verbose"),
    ("ZIPOPT", "zip -r /tmp/h.zip {o} ~/Documents", "-m"),
    ("MAKEFLAGS", "make {o}", "-f /tmp/evil.mk"),
    ("MAKEFLAGS", "make {o}", "-j4"),
    ("PYTEST_ADDOPTS", "pytest {o}", "--basetemp=/etc"),
    ("GOFLAGS", "go build {o} ./...", "-mod=vendor")])


@settings(max_examples=60, deadline=None)
@given(OWN, st.booleans())
def test_a_variable_of_a_program_s_options_decides_as_its_options(case, exported):
    variable, shape, options = case
    written = decide(shape.format(o=options))
    given = shape.format(o="").replace("  ", " ")
    line = (f"export {variable}='{options}'; {given}" if exported else
            f"{variable}='{options}' {given}")
    assert decide(line) == written or (decide(line) in STOPPED and written in STOPPED), line


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["RUSTC", "JAVACMD", "PYTHON", "PKG_CONFIG", "CMAKE_C_COMPILER",
                        "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER", "CC"]),
       st.sampled_from(["/tmp/x", "/dev/shm/y", "/var/tmp/z"]))
def test_a_build_tool_s_program_in_a_scratch_folder_is_asked_about(variable, place):
    assert decide(f"{variable}={place} make") in STOPPED, variable
    assert decide(f"{variable}=clang make") == "allow", variable


def test_the_laws_catch_their_readings_taken_away(fresh_readings, monkeypatch):
    removed = "TAR_OPTIONS=--remove-files tar -czf /tmp/p.tgz ~/projects"
    assert decide(removed) == "block" and decide("RUSTC=/tmp/rustc cargo build") in STOPPED
    monkeypatch.setattr("toolpipe.shell._grammar.with_env_options", lambda argv, env: argv)
    monkeypatch.setattr(_helpers, "_PROGRAM_KEY", __import__("re").compile(r"^(?:CC)$"))
    monkeypatch.setattr("toolpipe.shell._carried._PROGRAM_KEY", _helpers._PROGRAM_KEY)
    fresh_readings()
    assert decide(removed) == "allow" and decide("RUSTC=/tmp/rustc cargo build") == "allow"
