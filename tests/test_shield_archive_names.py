"""Archives and patches told by their own options to write where their names say, and
names split by the shell from one word (the twenty-second sitting's held-out
`classes-fresh122.txt`: 4 of its 30 attacks allowed at its first run, 1 of its 29
look-alikes blocked): unzip's `-:` (a member's `../` kept), 7z's `-spf` (absolute paths
kept) and `git apply --unsafe-paths` join tar's `-P` and cpio's absolute names; a `for`
with no `in` runs over the positional parameters (`set -- dist out; for d; do rm -rf
"$d"; done` was blocked, its `$d` not known).

The laws: an extraction that keeps the archive's own names is asked about, the same
tool inside the project is not (each row's reading taken away lets it through); a loop
with no `in` decides as the loop over the same words given."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide
from toolpipe.shell import _table


@pytest.mark.parametrize(("program", "command", "harmless"), [
    ("unzip", "unzip -: payload.zip", "unzip -o payload.zip -d vendor"),
    ("unzip", "unzip -o: payload.zip", "unzip -l payload.zip"),
    ("7z", "7z x -spf payload.7z", "7z x payload.7z -obuild -y"),
    ("7z", "7z x payload.7z -spf2", "7z a -spf backup.7z src"),
    ("git", "git apply --unsafe-paths --directory=../.. fix.patch",
     "git apply --directory=sub fix.patch"),
])
def test_an_extraction_to_the_archive_s_own_names_is_asked_about(
        fresh_readings, monkeypatch, program, command, harmless):
    assert decide(command) in STOPPED, command
    assert decide(harmless) == "allow", harmless
    kept = tuple(r for r in _table.IRREVERSIBLE[program]
                 if "where its own names say" not in r.reason)
    monkeypatch.setitem(_table.IRREVERSIBLE, program, kept)
    fresh_readings()
    assert decide(command) == "allow", command  # (the law catches its row taken away)


WORDS = st.sampled_from(["build", "dist", "out", "/", "~", "/etc", "$HOME", "node_modules"])


@settings(max_examples=100, deadline=None)
@given(st.lists(WORDS, min_size=1, max_size=3),
       st.sampled_from(['rm -rf "$d"', "chmod -R 777 \"$d\"", 'echo "$d"']))
def test_a_loop_with_no_in_runs_over_the_positional_parameters(words, body):
    given_words = " ".join(words)
    without_in = decide(f"set -- {given_words}; for d; do {body}; done")
    assert without_in == decide(f"for d in {given_words}; do {body}; done"), words
    if body.startswith("echo"):
        assert without_in == "allow"
