"""Places another program prints, handed to a deleter (the nineteenth sitting's held-out
`classes-fresh103.txt`: all its attacks were blocked, but 5 of its 21 look-alikes were
too, `for d in $(ls -d build/*/)`, `readarray -t a < <(ls -d build/*)`, `rm -rf
"$(realpath build)"` among them, each place read as not known).

The laws, each shown catching its reading taken away (and a reading too lax): the names
a listing prints (`ls ROOT`, `find ROOT`, `fd PATTERN ROOT`, `git ls-files [PATHSPEC]`)
lie under its root whichever way they reach the deleter (a loop over `$(…)`, an array
read from `<(…)`, xargs, the substitution itself), so a root outside the workspace is
stopped and a root inside is not; `realpath P` and `readlink -f P` print the place P
names.

The twentieth sitting's held-out `classes-fresh107.txt` (none of its attacks allowed, 7
of its 15 look-alikes stopped) widened the listings (`du -a ROOT | cut -f2`, `tree -fi
ROOT`, `git diff --name-only -- PATHSPEC`, `stat -c %n` of its words), the programs that
may stand between a listing and its reader (those that only pick or reorder its lines:
sort, head, grep -v…; never one that prints a line's part, `head -c 1` of `/tmp/x/a` is
`/`), the readers (a while-read loop fed by `< <(…)` or a pipe), and printf's format used
again for each round of its words (an array read from `<(printf '%s\n' a b)`).

The twenty-first sitting's held-out `classes-fresh113.txt` (its look-alike `grep -rl
'DEPRECATED' src | xargs sed -i …` asked about) added the searches that print names only
(`grep -rl`, `grep -L`, `rg -l`, `rg --files`), under the folder searched."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide
from toolpipe.shell import _expand, _hooks, _listings, _places

LISTINGS = st.sampled_from(["ls -d {r}/*", "ls {r}", "find {r} -mindepth 1 -maxdepth 1",
                            "fd . {r}", "fd -t d . {r}", "git ls-files {r}",
                            "du -a {r} | cut -f2", "tree -fi --noreport {r}",
                            "git diff --name-only -- {r}", "grep -rl TODO {r}",
                            "rg -l -e TODO {r}", "rg --files {r}", "grep -rLZ x {r}"])
# what may stand between a listing and its reader: programs that pick or reorder its lines
SELECTS = st.sampled_from(["", " | sort", " | head -n 5", " | grep -v keep", " | tail -n +2",
                           " | sort -u | tac", " | shuf -n 3", " | uniq", " | grep -e '\\.o$'"])
# how the names reach the deleter (`{l}`: the listing)
SHAPES = st.sampled_from([
    'for d in $({l}); do rm -rf "$d"; done',
    'readarray -t a < <({l}); rm -rf "${{a[@]}}"',
    'mapfile -t files < <({l}); rm -rf "${{files[@]}}"',
    "{l} | xargs rm -rf",
    "rm -rf $({l})",
    'while IFS= read -r d; do rm -rf "$d"; done < <({l})',
    '{l} | while read -r d; do rm -rf "$d"; done',
])
OUTSIDE = st.sampled_from(["~", "$HOME", "/etc", "..", "~/.ssh", "/"])
INSIDE = st.sampled_from(["build", "dist/assets", "./node_modules/.cache", "target/debug"])


@settings(max_examples=160, deadline=None)
@given(LISTINGS, SELECTS, SHAPES, OUTSIDE, INSIDE)
def test_names_a_listing_prints_lie_under_its_root(listing, selects, shape, outside, inside):
    if listing.startswith("git") and outside != "..":
        outside = ".."  # (git lists only the repository's names: a pathspec above it)
    attack = shape.format(l=listing.format(r=outside) + selects)
    assert decide(attack) in STOPPED, attack
    harmless = shape.format(l=listing.format(r=inside) + selects)
    assert decide(harmless) not in STOPPED, harmless


# between a listing and its reader: a program that prints a line's part, or reads a file
# instead, or a listing given more than its names
PARTS = st.sampled_from([" | head -c 1", " | tail -c 4", " | head -c1", " | grep -o '/.*'",
                         " | cut -c 6-", " | sed 's#^#/#'", " | sort - ~/names",
                         " | tac -s /", " | grep -vo x"])


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["find /tmp/x", "ls -d /tmp/x/*", "find build", "ls -d build/*"]),
       PARTS, st.sampled_from(["{l} | xargs rm -rf", "rm -rf $({l})",
                               '{l} | while read -r d; do rm -rf "$d"; done']))
def test_a_line_s_part_is_no_name_the_listing_printed(listing, part, shape):
    command = shape.format(l=listing + part)
    assert decide(command) in STOPPED, command


@pytest.mark.parametrize("command", [
    "git diff --name-only --line-prefix=/ | xargs rm -rf",
    "git diff --name-only --no-index /etc build | xargs rm -rf",
    "git ls-files --format=/etc/%\\(path\\) build | xargs rm -f",
    "du -a build | cut -f1 | xargs rm -rf",
    "tree -i build | xargs rm -rf",
    "rm -rf $(ls -d build/*; ls -d ~/*)",
    "ls build | while read -r a b; do rm -rf \"$b\"; done",
    "find build | while read -r f; do rm -rf \"$f\"; done < ~/list",
])
def test_a_listing_read_another_way_is_not_known(command):
    assert decide(command) in STOPPED, command


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([".*", "..*", "./.*", "build/.*", ".[a-z.]*"]),
       st.sampled_from(["ls -d {g} | xargs -I{{}} find {{}} -delete",
                        'for d in $(ls -d {g}); do rm -rf "$d"; done',
                        "echo {g} | xargs rm -rf", "printf '%s\\0' {g} | xargs -0 rm -rf",
                        "find {g} -maxdepth 0 | xargs rm -rf"]))
def test_a_pattern_given_to_a_listing_names_where_it_may_match(pattern, shape):
    # (a part that starts with a dot may match `..`: `find` deletes there, `rm` refuses;
    # any other names places in its folder, here the workspace's top)
    command = shape.format(g=pattern)
    assert decide(command) in STOPPED, command
    harmless = shape.format(g="build/*")
    assert decide(harmless) not in STOPPED, harmless


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["find {p} -delete", "rm -rf {p}", "chown -R nobody {p}",
                        "chmod -R 777 {p}", "ls -d {p} | xargs rm -rf"]),
       st.sampled_from(["", "build/", "./src/"]),
       st.sampled_from([".*", ".?", ".[.a]*", ".*/x"]))
def test_a_pattern_that_may_match_dot_dot_names_the_folder_above(command, folder, pattern):
    # (here the folder above is the workspace or its parent: a deeper one's is inside it,
    # `find dist/assets/.* -delete` deletes dist's)
    assert decide(command.format(p=folder + pattern)) in STOPPED, (command, folder, pattern)
    for harmless in (".[!.]*", "*", "*/x"):
        if not command.startswith("chmod"):  # (777 asks anywhere)
            assert decide(command.format(p="build/" + harmless)) not in STOPPED, harmless


@settings(max_examples=60, deadline=None)
@given(OUTSIDE, INSIDE, st.sampled_from(["'%s\\n'", "'%s '"]),
       st.sampled_from(['mapfile -t a < <(printf {f} {p} dist); rm -rf "${{a[@]}}"',
                        "printf {f} {p} dist | xargs rm -rf",
                        "printf '%s\\0' {p} dist | xargs -0 rm -rf",
                        "stat -c %n {p} dist | xargs rm -rf"]))
def test_printed_words_are_the_places_they_name(outside, inside, fmt, shape):
    assert decide(shape.format(f=fmt, p=outside)) in STOPPED
    assert decide(shape.format(f=fmt, p=inside)) not in STOPPED


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["realpath {p}", "realpath -s {p}", "readlink -f {p}",
                        "readlink -m {p}", "grealpath -e {p}"]), OUTSIDE, INSIDE)
def test_a_resolved_path_is_the_place_it_names(resolver, outside, inside):
    assert decide(f'rm -rf "$({resolver.format(p=outside)})"') in STOPPED
    assert decide(f'rm -rf "$({resolver.format(p=inside)})"') not in STOPPED


def test_a_link_read_without_resolving_is_not_known():
    assert decide('rm -rf "$(readlink build)"') in STOPPED  # (its text: may be anywhere)


@pytest.mark.parametrize(("module", "name", "broken", "command", "expected"), [
    # the reading taken away: names under the project's own folder read as not known
    (_expand, "listed_item", lambda cmd: None,
     'for d in $(ls -d build/*/); do rm -rf "$d"; done', "block"),
    # a reading too lax: every listing read as the project's own
    (_listings, "listed_root", lambda cmd: "build/",
     'for d in $(ls -d ~/*/); do rm -rf "$d"; done', "warn"),
    (_listings, "listed_root", lambda cmd: "build/", "fd . ~ | xargs rm -rf", "warn"),
    # the twentieth sitting's readings: the lines picked between listing and reader, a
    # while-read loop's variable, taken away; a selector too lax (a line's part a name)
    (_listings, "_selects_lines", lambda cmd: False, "ls -d build/* | sort | xargs rm -rf",
     "block"),
    (_listings, "_selects_lines", lambda cmd: cmd.name == "head",
     "ls -d build/* | head -c 1 | xargs rm -rf",
     "warn"),
    (_listings, "_glob_root", lambda pattern: "build/", "ls -d .* | xargs rm -rf", "warn"),
    (_places, "dot_parent", lambda text: None, "find build/.* -delete", "warn"),
    # the twenty-first sitting's: a search's names (`grep -rl`, `rg --files`) taken away
    (_listings, "_names_only", lambda texts: False,
     "grep -rl TODO src | xargs sed -i s/TODO/DONE/", "ask"),
    (_hooks, "read_listed", lambda cmd, listed: {},
     'while read -r d; do rm -rf "$d"; done < <(ls -d build/*)', "block"),
])
def test_the_law_catches_a_broken_reading(fresh_readings, monkeypatch, module, name, broken,
                                          command, expected):
    monkeypatch.setattr(module, name, broken)
    fresh_readings()
    assert decide(command) == expected
