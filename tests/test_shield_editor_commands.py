"""An editor's command glued to its `-c` (`ex -sc '…' -cx ~/.bash_aliases`, `vim -cwq F`:
vim reads the rest of the word as -c's value), and the start files the twentieth
sitting's held-out `classes-fresh112.txt` found missing among the persistence points
(`~/.bash_aliases`, which Debian's and Ubuntu's .bashrc source; `~/.config/environment.d`,
systemd's user session's variables): 1 of its 13 attacks allowed at its first run.

The laws, each shown catching its reading taken away: an editor's command glued to `-c`
is read as the same command given apart; a write to those start files is one to a
persistence point."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import decide
from toolpipe.shell import _editors

EDITORS = st.sampled_from(["ex", "vim", "nvim", "vim -es", "ex -s"])
COMMANDS = st.sampled_from(["x", "wq", "w", "update", "q", "set ft=sh"])
FILES = st.sampled_from(["~/.bashrc", "~/.bash_aliases", "~/.vimrc", "README.md",
                         "~/.config/environment.d/50-x.conf", "notes.txt"])


@settings(max_examples=120, deadline=None)
@given(EDITORS, COMMANDS, FILES)
def test_a_command_glued_to_c_is_read_as_one_given_apart(editor, command, file):
    if " " in command:
        return  # (a glued word has no blank)
    assert decide(f"{editor} -c{command} {file}") == decide(f"{editor} -c {command} {file}")


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["~/.bash_aliases", "~/.config/environment.d/90-x.conf"]),
       st.sampled_from(["echo 'alias sudo=/tmp/x/s' >> {f}", "printf 'A=1\\n' > {f}",
                        "tee -a {f} < payload"]))
def test_the_start_files_are_persistence_points(file, shape):
    assert decide(shape.format(f=file)) == "block"
    assert decide(shape.format(f="notes/aliases.txt")) == "allow"


def test_the_law_catches_the_reading_taken_away(fresh_readings, monkeypatch):
    assert decide("ex -cx ~/.bashrc") == "block"
    monkeypatch.setattr(_editors, "_glued_command", lambda option: "")
    fresh_readings()
    assert decide("ex -cx ~/.bashrc") == "allow"
