"""A project file read from the folder a runner's option names (the thirteenth sitting's
held-out sequences: `ninja -C gen` ran a build.ninja written earlier with `rm -rf ~` in a
rule, unread; `rake -C`, `scons -C`, `task -d` and `invoke -r` read their file here, not
there); and `.env` written by a file tool in the workspace is warned about, as a shell's
write of it is (`Write .env.sh`, `export GIT_PAGER=cat`, had been blocked)."""

from __future__ import annotations

import pytest

from tests.test_shield_flow import play
from toolpipe.layers import _shield_projects, _shield_runs
from toolpipe.layers.shield import UnixShield

# runner, its folder option, its file, the file's text running X
FOLDERED = [
    ("ninja -C", "build.ninja", "rule go\n  command = {x}\nbuild out: go\n"),
    ("samu -C", "build.ninja", "rule go\n  command = {x}\nbuild out: go\n"),
    ("rake -C", "Rakefile", "task :default do\n  sh '{x}'\nend\n"),
    ("rake --directory", "Rakefile", "task :default do\n  sh '{x}'\nend\n"),
    ("scons -C", "SConstruct", "import os\nos.system('{x}')\n"),
    ("task -d", "Taskfile.yml", "version: '3'\ntasks:\n  default:\n    cmds:\n      - {x}\n"),
    ("invoke -r", "tasks.py", "from invoke import task\n@task\ndef go(c):\n    c.run('{x}')\n"),
]


def outcome(runner: str, name: str, text: str, x: str, folder: str = "gen") -> str:
    return play([("Write", {"file_path": f"{folder}/{name}", "content": text.format(x=x)}),
                 ("Bash", {"command": f"{runner} {folder}" + (" go" if "invoke" in runner
                                                               else "")})])[-1][0]


@pytest.mark.parametrize(("runner", "name", "text"), FOLDERED,
                         ids=[r for r, _, _ in FOLDERED])
def test_a_project_file_in_the_folder_named_is_judged_when_run(runner, name, text):
    assert outcome(runner, name, text, "rm -rf ~") == "blocked"
    assert outcome(runner, name, text, "echo built") == "ran"


def test_the_law_catches_a_shield_that_reads_the_file_here(monkeypatch):
    monkeypatch.setattr(_shield_runs, "PROJECT_FOLDER", {})
    # (judged only as a file the runner may load, since the seventeenth sitting read a
    # Rakefile's `sh '…'` as Ruby's: asked about, not blocked as the file run is)
    assert outcome("rake -C", "Rakefile", FOLDERED[2][2], "rm -rf ~") == "asked"
    assert _shield_projects.PROJECT_FOLDER  # (the table the shield reads)


@pytest.mark.parametrize("path", [".env", ".env.sh", "/ws/.env.local", "config/.env"])
@pytest.mark.parametrize("tool", ["Write", "Edit"])
def test_a_file_tool_s_env_file_in_the_workspace_is_warned_as_a_shell_s(path, tool):
    shield = UnixShield()
    call = {"file_path": path, "content": "DEBUG=1\n", "old_string": "0", "new_string": "1"}
    assert shield.evaluate(tool, call, (), "/ws").action == "warn"
    if not path.startswith("/"):  # (a shell's absolute path into the workspace is not
        # read as inside by its spelling: blocked, left)
        assert shield.evaluate("Bash", {"command": f"echo DEBUG=1 > {path}"}, (), "/ws"
                               ).action == "warn"
    out = {"file_path": "~/" + path.rsplit("/", 1)[-1], "content": "X=1\n"}
    assert shield.evaluate("Write", out, (), "/ws").action == "block"  # (outside: a secret)
