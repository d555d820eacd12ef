"""Programs whose name says they remove what they were installed with, run from outside
the project (the twenty-second sitting's held-out `classes-fresh142.txt`: 4 of its 13
attacks allowed at its first run: `/usr/local/bin/k3s-uninstall.sh`, `sudo
rke2-killall.sh`, flux's delete told not to ask (`--silent`), talosctl's reset).

The law, shown catching its reading taken away: a program the wing does not know, named
for removing (uninstall, killall, teardown, nuke…), run from the PATH or by an absolute
path, is asked about; the project's own script of that name, and asking such a program
for its help, are not."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide
from toolpipe.shell import _told

NAMES = st.sampled_from(["k3s-uninstall.sh", "rke2-killall.sh", "acme-teardown",
                         "product_uninstall", "nuke-all.sh", "agent-decommission"])


@settings(max_examples=60, deadline=None)
@given(NAMES, st.sampled_from(["", "/usr/local/bin/", "/opt/acme/bin/", "sudo "]))
def test_a_remover_run_from_outside_the_project_is_asked_about(name, where):
    line = f"{where}{name}"
    assert decide(line) in STOPPED, line
    assert decide(f"./scripts/{name}") == "allow"
    assert decide(f"{line} --help") == "allow"


def test_a_delete_told_not_to_ask_by_silent_is_asked_about():
    assert decide("flux delete kustomization apps --silent") in STOPPED
    # (and a site disabled without a question: classes-fresh143.txt)
    assert decide("firebase hosting:disable --force") in STOPPED
    assert decide("firebase hosting:channel:list") == "allow"


def test_the_law_catches_its_reading_taken_away(taken_away):
    never = __import__("re").compile(r"(?!)")
    before, after = taken_away(_told, "_REMOVES_ITS_OWN", never, "k3s-uninstall.sh")
    assert before in STOPPED and after == "allow"
