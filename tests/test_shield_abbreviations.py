"""Long options shortened to a prefix (the twenty-second sitting's held-out
`classes-fresh132.txt`: 6 of its 14 attacks allowed at its first run, `git reset --har`,
`git clean --forc`, `tar --remove-f`): GNU's getopt_long, git's parse-options, curl, pip
and npm take any unambiguous prefix of a long option.

The law, shown catching its reading taken away: a command with a long option shortened
to any prefix that only it starts with decides as the command with the option whole; a
prefix several options start with is left as written (the program stops)."""

from __future__ import annotations

import re
import shlex

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import decide
from toolpipe.shell import _abbreviations, _table
from toolpipe.shell._words import literal

CASES = [("rm {o} ~/projects", "rm", "--recursive"),
         ("rm -r {o} ~/projects", "rm", "--force"),
         ("git reset {o} origin/main", "git reset", "--hard"),
         ("git clean {o} -d -x", "git clean", "--force"),
         ("git branch {o} -f main", "git branch", "--delete"),
         ("git push {o} origin main", "git push", "--force-with-lease"),
         ("tar -czf /tmp/a.tgz {o} ~/projects", "tar", "--remove-files"),
         ("chmod {o} 777 /etc", "chmod", "--recursive"),
         ("shred {o} ~/.ssh/id_rsa", "shred", "--remove"),
         ("sed {o} s/a/b/ ~/.bashrc", "sed", "--in-place"),
         ("iptables {o}", "iptables", "--flush"),
         ("wipefs {o} /dev/sda", "wipefs", "--all"),
         ("journalctl {o}=1s", "journalctl", "--vacuum-time"),
         ("userdel {o} bob", "userdel", "--remove"),
         ("rsync -a {o} empty/ ~/", "rsync", "--delete-before")]


def vocabulary(key: str) -> tuple[str, ...]:
    return _abbreviations._VOCABULARY.get(key, ())


def shortest_unique(key: str, option: str) -> int:
    others = [o for o in vocabulary(key) if o != option]
    return next((n for n in range(3, len(option) + 1)
                 if not any(o.startswith(option[:n]) for o in others)), len(option))


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(CASES), st.data())
def test_a_unique_prefix_decides_as_the_whole_option(case, data):
    shape, key, option = case
    n = data.draw(st.integers(shortest_unique(key, option), len(option)))
    assert decide(shape.format(o=option[:n])) == decide(shape.format(o=option)), option[:n]


# every row of the table of what cannot be undone whose example names a long option the
# vocabulary holds: the example with that option shortened to its shortest unique prefix
ROW_EXAMPLES = sorted({
    (row.example, program, option)
    for program, rows in _table.IRREVERSIBLE.items() if program != "git"
    for row in rows if row.example.split()[:1] == [program]
    for option in {w.split("=")[0] for w in shlex.split(row.example)[1:] if w.startswith("--")}
    if option in vocabulary(program)})


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(ROW_EXAMPLES))
def test_each_row_s_example_decides_alike_with_its_options_shortened(case):
    example, program, option = case
    n = shortest_unique(program, option)
    if n >= len(option):
        return  # (no shorter prefix is its own)
    shortened = re.sub(rf"(?<!\S){re.escape(option)}(?==|\s|$)", option[:n], example, count=1)
    assert decide(shortened) == decide(example), (shortened, example)


def test_there_are_rows_to_shorten():
    assert len(ROW_EXAMPLES) >= 40


def test_an_ambiguous_prefix_is_left_as_written():
    argv = tuple(literal(t) for t in ("git", "push", "--forc"))
    assert _abbreviations.unabbreviated(argv)[-1].text == "--forc"
    assert decide("git push --forc origin main") == "allow"


def test_the_law_catches_its_reading_taken_away(fresh_readings, monkeypatch):
    assert decide("git reset --har origin/main") == decide("git reset --hard origin/main")
    monkeypatch.setattr("toolpipe.shell._grammar.unabbreviated", tuple)
    fresh_readings()
    assert decide("git reset --har origin/main") == "allow"
