"""Variables that say where a program finds its code or settings (the seventeenth
sitting's held-out `classes-fresh94.txt`: `R_PROFILE_USER=/tmp/x.R Rscript …`,
`JULIA_DEPOT_PATH=/tmp/depot julia …`, `CORECLR_PROFILER_PATH=/tmp/p.so dotnet …`,
`TCLLIBPATH`, `HGRCPATH` and `HOSTALIASES` pointing into /tmp were allowed, each variable
having been named one by one).

The laws: a variable of the location class (its name ends as a path, a home, a root, a
library folder, a profile, an rc, an ini, a config, a depot or aliases do) pointing into
a folder anyone may write is asked about before any program it is given to; the same
variable pointing at the system's or the project's folders runs, and so does a variable
naming where a program puts what it makes (a temporary, a cache, an output, a build),
wherever it points. Each is shown catching the class taken away."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toolpipe.layers.shield import UnixShield

SHIELD = UnixShield()


def decide(command: str, shield: UnixShield = SHIELD) -> str:
    return shield.evaluate("Bash", {"command": command}, ()).action


NAMES = st.builds(lambda tool, end: f"{tool}_{end}",
                  st.sampled_from(["FROB", "ACME", "ZORK", "R", "TCL", "HG", "QUUX"]),
                  st.sampled_from(["PATH", "LIBPATH", "HOME", "ROOT", "PROFILE",
                                   "PROFILE_USER", "RC", "INIT", "STARTUP", "INI", "CONFIG",
                                   "CONFIG_FILE", "CONF", "DEPOT", "LIBS", "MODULES"]))
MAKES = st.builds(lambda tool, end: f"{tool}_{end}",
                  st.sampled_from(["FROB", "ACME", "ZORK"]),
                  st.sampled_from(["TMPDIR", "CACHE_HOME", "OUTPUT_PATH", "LOG_PATH",
                                   "DATA_HOME", "BUILD_ROOT", "TARGET_PATH", "REPORT_PATH"]))
SCRATCH = st.sampled_from(["/tmp/x", "/tmp/x/lib.so", "/var/tmp/cfg", "/dev/shm/d",
                           "/usr/lib/x:/tmp/y"])
OWN = st.sampled_from(["/usr/lib/frob", "/etc/frob/rc", "./conf/rc", "vendor/lib",
                       "/opt/frob"])
PROGRAMS = st.sampled_from(["frob run", "./bin/app", "python3 app.py", "make"])


@settings(max_examples=120, deadline=None)
@given(NAMES, SCRATCH, OWN, PROGRAMS)
def test_a_location_variable_into_a_scratch_folder_is_asked_about(name, bad, own, program):
    assert decide(f"{name}={bad} {program}") != "allow", (name, bad)
    assert decide(f"{name}={own} {program}") == "allow", (name, own)


@settings(max_examples=60, deadline=None)
@given(MAKES, SCRATCH, PROGRAMS)
def test_where_a_program_puts_what_it_makes_runs_wherever_it_points(name, place, program):
    assert decide(f"{name}={place} {program}") == "allow", (name, place)


def test_the_laws_catch_the_class_taken_away(fresh_readings, monkeypatch):
    import re

    from toolpipe.shell import _loaders

    monkeypatch.setattr(_loaders, "LOCATION_VAR", re.compile("(?!)"))
    assert decide("FROB_PROFILE=/tmp/x frob run", UnixShield()) == "allow"
