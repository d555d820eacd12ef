"""An EXIT trap's code runs when the script ends (the twenty-second sitting's held-out
`classes-fresh131.txt`: `trap 'rm -rf "$tmp"' EXIT; tmp=$(mktemp -d)` was blocked at its
first run, the trap's code read where it was set, before `tmp` was).

The law, shown catching its reading taken away: an EXIT trap set before an assignment
decides as the same code run after it; a trap on another signal is still read where it
is set (when it runs is not known)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import decide
from toolpipe.shell import _wrappers

PLACES = st.sampled_from(["build", "dist", "/", "~", "/etc", '"$(mktemp -d)"'])


@settings(max_examples=60, deadline=None)
@given(PLACES, st.sampled_from(["EXIT", "0", "exit"]))
def test_an_exit_trap_s_code_is_read_with_the_variables_at_the_end(place, signal):
    assert decide(f"trap 'rm -rf \"$d\"' {signal}; d={place}") == decide(
        f"d={place}; rm -rf \"$d\""), (place, signal)


def test_a_trap_on_another_signal_is_read_where_it_is_set():
    assert decide("trap 'rm -rf \"$d\"' INT; d=build") == "block"


def test_the_law_catches_its_reading_taken_away(fresh_readings, monkeypatch):
    line = "trap 'rm -rf \"$tmp\"' EXIT; tmp=$(mktemp -d)"
    assert decide(line) == "allow"
    real = _wrappers.peel

    def unlabelled(*args, **kwargs):  # every trap read where it is set
        peeled = real(*args, **kwargs)
        return peeled._replace(codes=tuple(("trap", c, p) if label == "trap on exit" else (
            label, c, p) for label, c, p in peeled.codes))

    monkeypatch.setattr("toolpipe.shell._grammar.peel", unlabelled)
    fresh_readings()
    assert decide(line) == "block"
