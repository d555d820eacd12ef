"""The environment printed into a filter: one that keeps only what names one variable (or
a few, or counts them) shows no credential; any other prints them all (the twenty-first
sitting's held-out `classes-fresh115.txt` found `export -p | grep ' PATH='` asked about,
its pattern with a space and `=`; reading it found, older, `env | grep -v PATH` and `env |
grep -e PATH -e .` allowed: every other variable, every variable).

The laws, each shown catching its reading taken away: a filter of names passes whatever
prints the environment; an inverted filter, a second pattern matching anything, patterns
from a file or a name that is a credential's are asked about."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide
from toolpipe.layers import _shield_places

DUMPERS = st.sampled_from(["env", "printenv", "export -p", "declare -x", "export"])
NAMES = st.sampled_from(["PATH", "HOME", "LANG", "VIRTUAL_ENV", "NODE_ENV"])


@settings(max_examples=120, deadline=None)
@given(DUMPERS, NAMES, NAMES, st.sampled_from([
    "grep {a}", "grep '^{a}='", "grep ' {a}='", "grep -w {a}", "grep -i {a}",
    "grep -e {a} -e {b}", "grep -E '{a}|{b}'", "grep '{a}\\|{b}'", "grep -c .",
    "grep -vc {a}", "wc -l", "grep -q {a}"]))
def test_a_filter_of_names_shows_no_credential(dumper, a, b, shape):
    command = f"{dumper} | {shape.format(a=a, b=b)}"
    assert decide(command) not in STOPPED, command


@settings(max_examples=120, deadline=None)
@given(DUMPERS, NAMES, st.sampled_from([
    "grep -v {a}", "grep --invert-match {a}", "grep -e {a} -e .", "grep -E '{a}|.'",
    "grep -f names.txt", "grep -E '{a}|TOKEN'", "grep SECRET", "grep $X", "grep -iv {a}",
    "cat", "grep ."]))
def test_any_other_filter_prints_them_all(dumper, a, shape):
    command = f"{dumper} | {shape.format(a=a)}"
    assert decide(command) in STOPPED, command


@pytest.mark.parametrize(("name", "broken", "command", "before", "after"), [
    ("_ONE_NAME", __import__("re").compile(r".*"), "env | grep .", STOPPED, ("allow",)),
    ("_ONE_NAME", __import__("re").compile(r"(?!)"), "env | grep PATH", ("allow",), STOPPED),
    ("_INVERTED", frozenset(), "env | grep -v PATH", STOPPED, ("allow",)),
])
def test_each_law_catches_its_reading_taken_away(taken_away, name, broken, command, before,
                                                 after):
    decided = taken_away(_shield_places, name, broken, command)
    assert decided[0] in before and decided[1] in after, decided
