"""Files destroyed by programs whose job is something else (the twenty-first sitting's
held-out `classes-fresh116.txt`: 1 of its 20 attacks allowed at its first run, `kioclient
move ~/Documents trash:/`): archivers that remove what they pack, movers into nowhere or
into the trash, writers that empty a file.

The laws, each shown catching its reading taken away: each such program destroys what it
is given, stopped outside the workspace and not inside (KDE's kioclient now read as gio
is: its removals, trash and moves, a move's sources taken whole)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide, placed
from toolpipe.shell import _effects

OUTSIDE = st.sampled_from(["~/Documents", "~/.bashrc", "/etc/hosts", "../other"])
INSIDE = st.sampled_from(["build/old", "dist/app.log", "logs/run.txt"])
SHAPES = st.sampled_from([
    "zip -rm /tmp/x.zip {p}", "7z a -sdel /tmp/x.7z {p}", "tar --remove-files -czf x.tgz {p}",
    "rsync -a --remove-source-files {p} /tmp/x/", "mv {p} /dev/null", "gio trash {p}",
    "gio move {p} /tmp/y", "kioclient move {p} trash:/", "kioclient5 remove {p}",
    "kioclient6 mv {p} trash:/", "trash-put {p}", ": > {p}", "tee {p} < /dev/null",
    "truncate -s 0 {p}", "cp /dev/null {p}", "shred -u {p}", "srm -r {p}",
])


@settings(max_examples=150, deadline=None)
@given(SHAPES, OUTSIDE, INSIDE)
def test_a_program_of_another_job_destroys_what_it_is_given(shape, outside, inside):
    placed(shape, outside, inside)


def test_the_law_catches_kioclient_taken_away(fresh_readings, monkeypatch):
    command = "kioclient move ~/Documents trash:/"
    assert decide(command) in STOPPED
    monkeypatch.delitem(_effects._HANDLERS, "kioclient")
    fresh_readings()
    assert decide(command) == "allow"
