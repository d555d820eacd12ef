"""``toolpipe run --pause STATE`` and ``toolpipe resume STATE``: a run on a scripted model
stops on the shield's question with nothing run for it; resumed in a later command with
the person's answer, it goes on where it stopped (approve: the command runs; reject: it
does not); bad decisions and bad files are one line and exit 2."""

from __future__ import annotations

import json
import stat

import pytest

from toolpipe.cli import main

pytestmark = pytest.mark.process  # Bash runs for real, in the sandbox

SCRIPT = [[{"id": "c1", "name": "Bash", "input": {"command": "chmod 777 notes.txt"}},
           {"id": "c2", "name": "Read", "input": {"path": "notes.txt"}}],
          [{"id": "c3", "name": "Read", "input": {"path": "notes.txt"}}],
          "All done."]


def paused_run(tmp_path, capsys):
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "notes.txt").write_text("hello\n")
    (workspace / "notes.txt").chmod(0o644)
    script = tmp_path / "script.json"
    script.write_text(json.dumps(SCRIPT))
    state = tmp_path / "state.json"
    assert main(["run", "--model", f"scripted:{script}", "--workspace", str(workspace),
                 "--pause", str(state), "open the notes up"]) == 0
    out = capsys.readouterr().out
    assert "stopped: awaiting_approval" in out and "waiting: c1 (Bash)" in out
    assert stat.S_IMODE((workspace / "notes.txt").stat().st_mode) == 0o644  # not run
    return workspace, state


def test_a_paused_run_goes_on_with_the_approval(tmp_path, capsys):
    workspace, state = paused_run(tmp_path, capsys)
    assert main(["resume", str(state), "--approve", "c1"]) == 0
    out = capsys.readouterr().out
    assert "stopped: done" in out and "All done." in out
    assert stat.S_IMODE((workspace / "notes.txt").stat().st_mode) == 0o777


def test_a_rejected_call_does_not_run(tmp_path, capsys):
    workspace, state = paused_run(tmp_path, capsys)
    assert main(["resume", str(state), "--reject", "c1=not on my files", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["stop_reason"] == "done"
    assert stat.S_IMODE((workspace / "notes.txt").stat().st_mode) == 0o644


def test_bad_decisions_and_files_are_one_line(tmp_path, capsys):
    _, state = paused_run(tmp_path, capsys)
    broken = tmp_path / "broken.json"
    data = json.loads(state.read_text())
    del data["workspace"]
    broken.write_text(json.dumps(data))
    for argv, expected in [
        (["resume", str(state)], "decide each waiting call once: c1 (given: none)"),
        (["resume", str(state), "--approve", "c9"], "decide each waiting call once"),
        (["resume", str(state), "--edit", "c1=[1]"], "a JSON object"),
        (["resume", str(tmp_path / "script.json")], "not a state file"),
        (["resume", str(broken)], "not a state file"),
        (["run", "--pause", str(state)], "--pause goes with --model"),
    ]:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and expected in err[0], (argv, err)
