"""The current folder moved by less-used means (the twenty-second sitting's held-out
`classes-fresh128.txt`: `CDPATH=/; cd etc && rm -rf ./*` only warned about; `cd -` and
`~-` after moves inside the project blocked, $OLDPWD not followed).

The laws, each shown catching its reading taken away: after moves, `cd -`, `~-` and
"$OLDPWD" are the folder before the last move, so a deletion there decides as the
deletion named by that folder; a name looked for along a CDPATH the script set that
leaves the current folder is not known (stopped)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide
from toolpipe.shell import _folders

FOLDERS = st.sampled_from(["build", "dist", "/etc", "~", "/opt", "out"])


@settings(max_examples=80, deadline=None)
@given(FOLDERS, FOLDERS)
def test_the_folder_before_the_last_move_is_oldpwd(first, second):
    plain = decide(f"rm -rf {first}/x")
    assert decide(f"cd {first}; cd {second}; cd -; rm -rf ./x") == plain, (first, second)
    if second.startswith(("/", "~")) and not first.startswith(("/", "~")):
        # (a folder of the workspace, seen from one outside it: not named, so stopped)
        plain = "block"
    assert decide(f"cd {first}; cd {second}; rm -rf ~-/x") == plain, (first, second)
    assert decide(f"cd {first}; cd {second}; rm -rf \"$OLDPWD\"/x") == plain


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["/", "/usr", "~", "/tmp:.", ":/etc"]), FOLDERS)
def test_a_cdpath_that_leaves_the_folder_makes_the_move_unknown(cdpath, name):
    assert decide(f"CDPATH={cdpath}; cd {name.strip('/~') or 'x'} && rm -rf ./*") in STOPPED
    assert decide("CDPATH=.; cd build && rm -rf ./*") not in STOPPED


def test_the_laws_catch_their_readings_taken_away(fresh_readings, monkeypatch):
    back = "cd build; cd dist; cd -; rm -rf ./*"
    along = "CDPATH=/; cd etc && rm -rf ./*"
    assert decide(back) == "warn" and decide(along) == "block"
    monkeypatch.setattr(_folders, "moved_to", lambda name, args, cwd, env=None: (
        _folders._moved(name, args, cwd, {})))
    monkeypatch.setattr("toolpipe.shell._grammar.moved_to", _folders.moved_to)
    fresh_readings()
    assert decide(back) == "block" and decide(along) == "warn"
