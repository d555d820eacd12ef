"""A command the shell prints of its own values, then reads again (the twenty-first
sitting's held-out `classes-fresh115.txt`: none of its 12 attacks allowed, but 4 of its
10 look-alikes stopped, each printing read as not known): printf's `%q` (its argument
quoted to be read again as one word), an array's operators (`${a[@]@Q}`, `${a[@],,}`, on
each element; `${a[@]:1}` picks elements, not read), `declare -p NAME` (the line that
sets it again) and `declare -f NAME` (the function's definition), each read by `eval`,
`source <(…)` or a bare expansion. What a printf in `<(…)` prints, read whole, is judged
by what it says (it had been "decoded code" whatever it said, blocked).

The laws, each shown catching its reading taken away: a command printed so and read
again is the command the values spell, stopped for a place outside the workspace and not
inside; the printing alone runs nothing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide, placed
from toolpipe.shell import _expand, _parameters, _printed

OUTSIDE = st.sampled_from(["~", "/etc", "..", "~/.ssh", "/"])
INSIDE = st.sampled_from(["build", "dist/assets", "node_modules"])
SHAPES = st.sampled_from([
    "v=$(printf '%q ' rm -rf {p}); eval \"$v\"",
    "eval \"$(printf '%q ' rm -rf {p})\"",
    "printf -v c '%q ' rm -rf {p}; eval \"$c\"",
    "set -- rm -rf {p}; eval \"$(printf '%q ' \"$@\")\"",
    "a=(rm -rf {p}); source <(printf '%q ' \"${{a[@]}}\")",
    "args=(rm -rf {p}); eval \"${{args[@]@Q}}\"",
    "args=(RM -RF {p}); eval ${{args[@],,}}",
    "x='rm -rf {p}'; eval \"$(declare -p x); \\$x\"",
    "f(){{ rm -rf \"$1\"; }}; eval \"$(declare -f f)\"; f {p}",
    "source <(printf '\\x72\\x6d -rf {p}')",
])


@settings(max_examples=150, deadline=None)
@given(SHAPES, OUTSIDE, INSIDE)
def test_a_command_printed_and_read_again_is_what_it_spells(shape, outside, inside):
    if "RM -RF" in shape:
        outside, inside = outside.upper(), inside.upper()  # (`,,` lowers them again)
    placed(shape, outside, inside)


@pytest.mark.parametrize("command", ["printf '%q\\n' \"$HOME\"", "declare -p PATH",
                                     "x='rm -rf ~'; declare -p x", "declare -f",
                                     "a=(rm -rf /); echo \"${a[@]@Q}\""])
def test_the_printing_alone_runs_nothing(command):
    assert decide(command) not in STOPPED, command


@pytest.mark.parametrize("command", ["a=(build /etc); rm -rf ${a[@]:1}",
                                     "x='rm -rf build'; source <(declare -p x; echo '$x')",
                                     "source <(printf '%s' \"$X\")"])
def test_what_is_not_read_is_not_known(command):
    assert decide(command) in STOPPED, command


@pytest.mark.parametrize(("module", "name", "broken", "command"), [
    (_printed, "_OTHER", __import__("re").compile(r"%(?![sdb%])"),
     "v=$(printf '%q ' rm -rf build); eval \"$v\""),
    (_expand, "declared", lambda ran, env, functions: None,
     "x='rm -rf build'; eval \"$(declare -p x); \\$x\""),
    (_parameters._Parameters, "_operands", lambda self, node: None,
     "args=(rm -rf dist); eval \"${args[@]@Q}\""),
])
def test_each_law_catches_its_reading_taken_away(taken_away, module, name, broken, command):
    before, after = taken_away(module, name, broken, command)
    assert before not in STOPPED
    assert after in STOPPED
