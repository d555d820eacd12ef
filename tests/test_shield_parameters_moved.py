"""Places reached through a reference or a move of the shell's parameters (the
twenty-second sitting's held-out `classes-fresh127.txt`: 2 of its 15 attacks only warned
about, `shift` not read; 5 of its 10 look-alikes blocked, their words not known): shift
and getopts, an array's negative or variable index, an associative array's key, slices
of "$@" and of an array, a nameref given by "$1".

The laws, each shown catching its reading taken away: a deletion of a word reached so
decides as the deletion of the word itself."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import decide
from toolpipe.shell import _grammar, _parameters

WORDS = st.sampled_from(["build", "dist", "out", "/", "~", "/etc", "node_modules"])


def picked(words: list[str], data: st.DataObject) -> tuple[int, str, str]:
    """A word's place among ``words``, the words as one line, and the decision on the
    deletion of that word itself."""
    k = data.draw(st.integers(0, len(words) - 1))
    return k, " ".join(words), decide(f"rm -rf {words[k]}")


@settings(max_examples=80, deadline=None)
@given(st.lists(WORDS, min_size=2, max_size=4), st.data())
def test_shift_and_slices_reach_the_word_they_name(words, data):
    k, given_words, plain = picked(words, data)
    assert decide(f"set -- {given_words}; shift {k}; rm -rf \"$1\"") == plain, (words, k)
    assert decide(f"set -- {given_words}; rm -rf \"${{@:{k + 1}:1}}\"") == plain, (words, k)
    assert decide(f"a=({given_words}); rm -rf \"${{a[@]:{k}:1}}\"") == plain, (words, k)


@settings(max_examples=80, deadline=None)
@given(st.lists(WORDS, min_size=1, max_size=4), st.data())
def test_an_element_reached_by_any_index_or_key_is_that_element(words, data):
    k, given_words, plain = picked(words, data)
    assert decide(f"a=({given_words}); rm -rf \"${{a[{k - len(words)}]}}\"") == plain
    assert decide(f"a=({given_words}); i={k}; rm -rf \"${{a[$i]}}\"") == plain
    pairs = " ".join(f"[k{i}]={w}" for i, w in enumerate(words))
    assert decide(f"declare -A m=({pairs}); rm -rf \"${{m[k{k}]}}\"") == plain
    assert decide(f"f() {{ local -n r=$1; rm -rf \"$r\"; }}; v={words[k]}; f v") == decide(
        f"f() {{ rm -rf {words[k]}; }}; f")


def test_getopts_sets_optarg_to_its_option_s_value():
    assert decide('set -- -d out; while getopts d: o; do rm -rf "$OPTARG"; done') == "warn"
    assert decide('set -- -d /etc; while getopts d: o; do rm -rf "$OPTARG"; done') == "block"


def test_the_laws_catch_their_readings_taken_away(fresh_readings, monkeypatch):
    shifted = 'set -- build /; shift; rm -rf "$1"'
    keyed = 'declare -A m=([a]=dist [b]=out); rm -rf "${m[b]}"'
    assert decide(shifted) == "block" and decide(keyed) == "warn"
    monkeypatch.setattr(_grammar, "moved_parameters", lambda cmd, positional, env: (
        positional if cmd.name != "set" else tuple(cmd.args[1:])))
    monkeypatch.setattr(_parameters, "_keyed", lambda elements: ([], elements))
    fresh_readings()
    assert decide(shifted) == "warn" and decide(keyed) == "block"
