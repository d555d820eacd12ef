"""The repository's unrecoverable work destroyed by git's own commands (the twenty-first
sitting's held-out `classes-fresh119.txt`: 3 of its 17 attacks allowed at its first run,
`git prune --expire=now`, `git submodule deinit --force --all`, and a feature branch's
forced deletion, relabelled: its commits stay in the reflog).

The laws, each shown catching its reading taken away: a main line's branch deleted by
force is asked about in every spelling of the options (`-D`, `-df`, `-fd`, `-d -f`,
`--delete --force`, either order), a plain delete or another branch is not; the objects no
ref keeps pruned at once are asked about (`gc --prune=now`, `prune`), a dry run, an older
expiry and the remote's or worktrees' prune are not; a submodule's work tree removed by
force is asked about."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide
from toolpipe.shell import _table

FORCED = st.sampled_from(["-D", "-df", "-fd", "-d -f", "-f -d", "--delete --force",
                          "--force --delete", "-d --force", "--delete -f"])
MAIN = st.sampled_from(["main", "master", "develop", "trunk", "release/1.2", "production"])
OTHER = st.sampled_from(["feature/login", "fix-123", "wip"])


@settings(max_examples=120, deadline=None)
@given(FORCED, MAIN, OTHER)
def test_a_main_line_deleted_by_force_is_asked_about_in_any_spelling(forced, main, other):
    assert decide(f"git branch {forced} {main}") in STOPPED
    assert decide(f"git branch {forced} {other}") not in STOPPED
    assert decide(f"git branch -d {main}") not in STOPPED
    assert decide(f"git branch -f {main} HEAD~1") not in STOPPED


@pytest.mark.parametrize(("command", "stopped"), [
    ("git prune --expire=now", True), ("git prune", True), ("git gc --prune=now", True),
    ("git gc --prune=all", True), ("git prune -n", False), ("git prune --dry-run", False),
    ("git prune --expire=2.weeks.ago", False), ("git gc", False),
    ("git remote prune origin", False), ("git worktree prune", False),
    ("git fetch --prune", False), ("git lfs prune", False),
    ("git submodule deinit -f --all", True), ("git submodule deinit --force lib/x", True),
    ("git submodule deinit --all", False),
])
def test_pruning_and_deinit_by_force(command, stopped):
    assert (decide(command) in STOPPED) is stopped, command


def _without(fresh_readings, monkeypatch, reason, cut):
    rows = _table.IRREVERSIBLE["git"]
    row = next(r for r in rows if r.reason == reason)
    monkeypatch.setitem(_table.IRREVERSIBLE, "git", [attrs.evolve(r, args=_table.LazyPattern(
        r.args.pattern.split(cut)[0])) if r is row else r for r in rows])
    fresh_readings()


def test_the_law_catches_the_prune_taken_away(fresh_readings, monkeypatch):
    assert decide("git prune --expire=now") in STOPPED
    _without(fresh_readings, monkeypatch, "deletes or rewrites history that cannot be "
             "recovered", "|(?:^| )gc(?: \\S+)* --prune")
    assert decide("git prune --expire=now") == "allow"


def test_the_law_catches_the_deinit_taken_away(fresh_readings, monkeypatch):
    assert decide("git submodule deinit -f --all") in STOPPED
    _without(fresh_readings, monkeypatch, "discards uncommitted changes, which cannot be "
             "recovered", "|(?:^| )submodule")
    assert decide("git submodule deinit -f --all") == "allow"
