"""A law over the table of build runners (toolpipe/layers/_shield_builds.py): every runner,
pointed by every option it has, in every spelling (``-C DIR``, ``-CDIR``, ``--opt=DIR``),
at a folder outside the workspace or one not known, is asked about or blocked; pointed at
a folder inside, the same words raise no such finding. Drawn over the whole table, so a
row added is under the law at once; and shown to catch a broken version."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toolpipe.layers import _shield_builds, _shield_places
from toolpipe.layers.shield import UnixShield

SHIELD = UnixShield()
ROWS = [(runner, option) for runner, options in _shield_builds._BUILD_PLACE.items()
        for option in options]
OUTSIDE = st.sampled_from(["~/projects/other", "/opt/src/app", "../sibling", "$HOME/work/x",
                           "/etc", "~", "$SOMEWHERE", "/tmp/../home/u/p"])
INSIDE = st.sampled_from(["build", "./src", "services/api", "docs", "app/sub"])
REASON = "runs the build of a folder outside the workspace"


def spelled(option: str, folder: str, how: int) -> str:
    if how == 1 and option.startswith("--"):
        return f"{option}={folder}"
    if how == 1 and len(option) == 2:
        return f"{option}{folder}"
    return f"{option} {folder}"


def decided(row: tuple[str, str], folder: str, how: int) -> tuple[str, str, str]:
    """The command the row spells, the shield's action on it and its reason."""
    runner, option = row
    command = f"{runner} {spelled(option, folder, how)} build"
    decision = SHIELD.evaluate("Bash", {"command": command}, (), "/ws")
    return command, decision.action, decision.reason


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ROWS), OUTSIDE, st.integers(0, 1))
def test_a_runner_pointed_outside_is_asked_about(row, folder, how):
    command, action, reason = decided(row, folder, how)
    assert action in ("ask", "block"), (command, reason)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(ROWS), INSIDE, st.integers(0, 1))
def test_a_runner_pointed_inside_raises_no_such_finding(row, folder, how):
    command, _, reason = decided(row, folder, how)
    assert REASON not in reason, (command, reason)


def test_the_law_can_fail(monkeypatch):
    """Without the check, a runner pointed outside goes through."""
    monkeypatch.setattr(_shield_places, "foreign_build", lambda cmd, workspace: [])
    decision = UnixShield().evaluate("Bash", {"command": "swift build --package-path ~/p"},
                                     (), "/ws")
    assert decision.action == "allow", decision.reason

