"""Places another program prints, handed to a deleter (the nineteenth sitting's held-out
`classes-fresh103.txt`: all its attacks were blocked, but 5 of its 21 look-alikes were
too, `for d in $(ls -d build/*/)`, `readarray -t a < <(ls -d build/*)`, `rm -rf
"$(realpath build)"` among them, each place read as not known).

The laws, each shown catching its reading taken away (and a reading too lax): the names
a listing prints (`ls ROOT`, `find ROOT`, `fd PATTERN ROOT`, `git ls-files [PATHSPEC]`)
lie under its root whichever way they reach the deleter (a loop over `$(…)`, an array
read from `<(…)`, xargs, the substitution itself), so a root outside the workspace is
stopped and a root inside is not; `realpath P` and `readlink -f P` print the place P
names."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpipe.layers.shield import UnixShield
from toolpipe.shell import _expand, _items

STOPPED = ("block", "ask")

LISTINGS = st.sampled_from(["ls -d {r}/*", "ls {r}", "find {r} -mindepth 1 -maxdepth 1",
                            "fd . {r}", "fd -t d . {r}", "git ls-files {r}"])
# how the names reach the deleter (`{l}`: the listing)
SHAPES = st.sampled_from([
    'for d in $({l}); do rm -rf "$d"; done',
    'readarray -t a < <({l}); rm -rf "${{a[@]}}"',
    'mapfile -t files < <({l}); rm -rf "${{files[@]}}"',
    "{l} | xargs rm -rf",
    "rm -rf $({l})",
])
OUTSIDE = st.sampled_from(["~", "$HOME", "/etc", "..", "~/.ssh", "/"])
INSIDE = st.sampled_from(["build", "dist/assets", "./node_modules/.cache", "target/debug"])


def decide(command: str) -> str:
    return UnixShield().evaluate("Bash", {"command": command}, ()).action


@settings(max_examples=120, deadline=None)
@given(LISTINGS, SHAPES, OUTSIDE, INSIDE)
def test_names_a_listing_prints_lie_under_its_root(listing, shape, outside, inside):
    if listing.startswith("git") and outside != "..":
        outside = ".."  # (git lists only the repository's names: a pathspec above it)
    attack = shape.format(l=listing.format(r=outside))
    assert decide(attack) in STOPPED, attack
    harmless = shape.format(l=listing.format(r=inside))
    assert decide(harmless) not in STOPPED, harmless


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
    (_expand, "listed_root", lambda cmd: None,
     'for d in $(ls -d build/*/); do rm -rf "$d"; done', "block"),
    # a reading too lax: every listing read as the project's own
    (_expand, "listed_root", lambda cmd: "build/",
     'for d in $(ls -d ~/*/); do rm -rf "$d"; done', "warn"),
    (_items, "listed_root", lambda cmd: "build/", "fd . ~ | xargs rm -rf", "warn"),
])
def test_the_law_catches_a_broken_reading(fresh_readings, monkeypatch, module, name, broken,
                                          command, expected):
    monkeypatch.setattr(module, name, broken)
    fresh_readings()
    assert decide(command) == expected
