"""Bash's rarer expansions of a value the script set (the twentieth sitting's held-out
`classes-fresh111.txt`: none of its 14 attacks allowed, but 3 of its 7 look-alikes
stopped, each value read as not known): a parameter's transformations (`${p@P}`, a
prompt's expansion, which leaves a value without escapes or expansions as it is; `@Q`,
`@E`, `@U`, `@u`, `@L`), and printf's `%b`, its argument's escapes read (`printf -v c
'%b' 'rm -rf \\x7e'`; `\\0162` as echo -e reads it, since the twenty-first sitting read
printf once for all its uses; `\\c`, the end of output, not known).

The laws, each shown catching its reading taken away: a place built so is the place it
spells, stopped outside the workspace and not inside."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide, placed
from toolpipe.shell import _operators, _printed

OUTSIDE = st.sampled_from(["~", "/etc", "..", "$HOME", "~/.ssh", "/"])
INSIDE = st.sampled_from(["build", "dist/assets", "./node_modules/.cache"])


def _escaped(text: str) -> str:
    return "".join(f"\\x{ord(c):02x}" if c in "~/." else c for c in text)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["P", "E"]), OUTSIDE, INSIDE)
def test_a_transformed_value_is_the_place_it_spells(letter, outside, inside):
    shape = "p='{v}'; eval \"rm -rf ${{p@" + letter + "}}\""
    if letter == "P" and "$" in outside:
        outside = "~"  # (a prompt's `$` expands: not known, asked about, as before)
    placed(shape, outside, inside, field="v")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["Q", "P", "L", "u"]), INSIDE)
def test_a_transformed_project_folder_is_no_unknown_place(letter, inside):
    command = f"p='{inside}'; rm -rf \"${{p@{letter}}}\""
    assert decide(command) not in STOPPED, command


@settings(max_examples=80, deadline=None)
@given(OUTSIDE, INSIDE)
def test_printf_b_reads_its_argument_s_escapes(outside, inside):
    shape = "printf -v cmd '%b' 'rm -rf {v}'; eval \"$cmd\""
    assert decide(shape.format(v=_escaped(outside))) in STOPPED
    assert decide(shape.format(v=_escaped(inside))) not in STOPPED


def test_b_reads_an_octal_byte_after_a_zero_as_echo_e_does():
    assert decide("printf -v c '%b' '\\0162\\0155 -rf /'; $c") == "block"
    assert decide("printf -v c '%b' '\\0162\\0155 -rf build'; $c") not in STOPPED


def test_b_s_end_of_output_is_not_read():
    assert decide("printf -v c '%b' 'rm -rf /\\c'; $c") in STOPPED


@pytest.mark.parametrize(("command", "what"), [
    ("printf -v c 'rm -rf %s\\n' {v}; eval \"$c\"", "its format's escapes read"),
    ("printf -v c 'rm -rf %s %s' {v}; eval \"$c\"", "a missing argument empty"),
    ("printf 'rm -rf %s\\n' {v} > a.sh; bash a.sh", "the file it writes"),
    ("c=$(printf 'rm -rf %s' {v}); $c", "what it prints"),
])
def test_printf_is_read_alike_wherever_it_prints(command, what):
    assert decide(command.format(v="~")) == "block", what
    assert decide(command.format(v="build")) not in STOPPED, what


@pytest.mark.parametrize(("module", "name", "broken", "command"), [
    (_operators, "_TRANSFORMS", {}, "p='build'; rm -rf \"${p@Q}\""),
    (_printed, "_OTHER", __import__("re").compile(r"%(?![sd%])"),
     "printf -v cmd '%b' 'rm -rf build'; eval \"$cmd\""),
])
def test_each_law_catches_its_reading_taken_away(taken_away, module, name, broken, command):
    before, after = taken_away(module, name, broken, command)
    assert before not in STOPPED
    assert after in STOPPED
