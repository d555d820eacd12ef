"""Names a listing prints, put where a reader's mark is (the twenty-first sitting's
held-out `classes-fresh113.txt`: 2 of its 16 attacks were only warned about, both
`… | xargs -I{} rm -rf {}/.cache`, the mark glued to a path read as a file named `{}`).

Found on the way, older than the sitting: `ls -a DIR` prints `.` and `..`, bare, so
`ls -a build | xargs -I{} rm -rf {}/x` removes `../x` (it was read as under build); and
`find .` with no name test (`-type f`, `-mindepth 1`) stands for every entry of this
folder, so `find . -type f -delete` and `find . -type f | xargs rm -f` delete the whole
workspace, as `rm -f ./*` does (read as a file named `{}`, warned about and allowed).

The laws, each shown catching its reading taken away: xargs -I puts each name it reads
wherever its mark is in a word; ls's -a and -f list the folder above; find's entries
from here, with no name test, are the whole folder."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide
from toolpipe.shell import _listings, _wrappers

MARKS = st.sampled_from(["{}", "%", "@@", "NAME"])
GLUED = st.sampled_from(["{m}/.cache", "{m}/x/y", "{m}/", "{m}/../{m}"])
OUTSIDE = st.sampled_from(["~", "/etc", "..", "/var/log", "/"])
INSIDE = st.sampled_from(["build", "dist/assets", "target/debug"])
# programs whose output names are not known here: a field of a table, a file's lines
UNKNOWN_NAMES = st.sampled_from(["cut -d: -f6 /etc/passwd", "df --output=target",
                                 "cat list.txt", "mount | cut -d' ' -f3",
                                 "awk '{print $2}' /proc/mounts"])


@settings(max_examples=120, deadline=None)
@given(MARKS, GLUED, OUTSIDE, INSIDE)
def test_xargs_puts_each_name_wherever_its_mark_is(mark, glued, outside, inside):
    word = glued.format(m=mark)
    shape = "ls -d ROOT/* | xargs -I " + mark + " rm -rf " + word
    assert decide(shape.replace("ROOT", outside)) in STOPPED, (shape, outside)
    if "../" not in glued:  # (`{}/../{}`: a name's folder's parent, maybe the root's)
        assert decide(shape.replace("ROOT", inside)) not in STOPPED, (shape, inside)


@settings(max_examples=60, deadline=None)
@given(UNKNOWN_NAMES, MARKS, GLUED)
def test_names_not_known_glued_to_a_path_are_not_known(source, mark, glued):
    command = f"{source} | xargs -I {mark} rm -rf {glued.format(m=mark)}"
    assert decide(command) in STOPPED, command


@pytest.mark.parametrize("flags", ["-a", "-la", "-al1", "--all", "-f", "-1a"])
@pytest.mark.parametrize("root", ["build", "", "dist/assets"])
def test_ls_all_lists_the_folder_above(flags, root):
    assert decide(f"ls {flags} {root} | xargs -I{{}} rm -rf {{}}/x") in STOPPED
    assert decide(f"ls -A {root or 'build'} | xargs -I{{}} rm -rf {{}}/x") not in STOPPED
    assert decide(f"ls -d {flags} {root or 'build'} | xargs rm -rf") not in STOPPED


@pytest.mark.parametrize("test", ["-type f", "-mindepth 1", "-type l", "-type f -mindepth 1"])
@pytest.mark.parametrize("shape", ["find {r} {t} -delete", "find {r} {t} | xargs rm -f",
                                   "find {r} {t} -print0 | xargs -0 rm -f",
                                   "find {r} {t} -exec rm -f {{}} +",
                                   "for f in $(find {r} {t}); do rm -f \"$f\"; done"])
def test_find_from_here_with_no_name_test_is_every_entry(test, shape):
    assert decide(shape.format(r=".", t=test)) == "block"
    assert decide(shape.format(r="./", t=test)) == "block"
    assert decide(shape.format(r=".", t=test + " -name '*.o'")) not in STOPPED
    assert decide(shape.format(r="build", t=test)) not in STOPPED
    assert decide("cd build && " + shape.format(r=".", t=test)) not in STOPPED


@pytest.mark.parametrize(("module", "name", "broken", "command"), [
    (_wrappers, "replaced", lambda w, mark, by: by if w.text == mark else w,
     "cut -d: -f6 /etc/passwd | xargs -I{} rm -rf {}/.cache"),
    (_listings, "_ALL", frozenset(), "ls -a build | xargs -I{} rm -rf {}/x"),
    (_listings, "_every_entry_here", lambda root, narrowed: False, "find . -type f -delete"),
])
def test_each_law_catches_its_reading_taken_away(taken_away, module, name, broken, command):
    before, after = taken_away(module, name, broken, command)
    assert before in STOPPED
    assert after not in STOPPED
