"""A link out of the workspace made by an earlier call, then written through (the
seventeenth sitting's held-out `sequences-fresh40.txt`: `ln -s ~/.bashrc notes.txt` then a
file tool's write of notes.txt ran, as did `ln -sf ~/.ssh/authorized_keys keys.txt` then
a write of a key).

The law, through the default pipeline with a person approving every question: a write
(by the file tool or the shell) through a link an earlier call made to a place out of the
workspace is stopped; through a link to the project's own file, it runs. Shown catching
the session's links forgotten."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.test_shield_flow import play

OUT = st.sampled_from(["~/.bashrc", "~/.ssh/authorized_keys", "~/.config/autostart/x.desktop",
                       "/etc/hosts", "../other-project/Makefile"])
OWN = st.sampled_from(["docs/README.md", "src/app.py", "./notes/today.md"])
WRITES = st.sampled_from([("Write", "file_path"), ("Bash", "command")])


def write(how: tuple[str, str], name: str) -> tuple[str, dict[str, str]]:
    tool, field = how
    if tool == "Write":
        return "Write", {field: name, "content": "echo hello\n"}
    return "Bash", {field: f"echo 'echo hello' >> {name}"}


@settings(max_examples=60, deadline=None)
@given(OUT, OWN, WRITES, st.sampled_from(["ln -s", "ln -sf", "ln -sfn"]))
def test_a_write_through_a_link_out_of_the_workspace_is_stopped(out, own, how, ln):
    calls = [("Bash", {"command": f"{ln} {out} notes.txt"}), write(how, "notes.txt")]
    outcome = play(calls)
    assert outcome[-1][0] in ("asked", "blocked"), (calls, outcome)
    calls = [("Bash", {"command": f"{ln} {own} notes.txt"}), write(how, "notes.txt")]
    assert play(calls)[-1] == ("ran", False), calls


def test_the_law_catches_the_links_forgotten(fresh_readings, monkeypatch):
    from toolpipe.layers import _shield_flow

    real = _shield_flow.FileFact
    monkeypatch.setattr(_shield_flow, "FileFact", lambda origin, *a: real(
        "write" if origin == "link" else origin, *a))
    calls = [("Bash", {"command": "ln -s ~/.bashrc notes.txt"}),
             ("Write", {"file_path": "notes.txt", "content": "echo hello\n"})]
    assert play(calls)[-1] == ("ran", False)
