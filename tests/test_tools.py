"""The standard tool set over a real workspace folder, on every interpreter: real files,
a real subprocess, and paths confined to the workspace (.. and symlink escapes refused)."""

import os

import pytest

from interpreters.simulated import SimulatedInterpreter
from tests.helpers import INTERPRETERS, dispatch
from toolpipe import DispatchContext, Engine, ToolCall, ToolPipeline
from toolpipe.tools import Workspace, glob_regex, workspace_registry


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "ws"
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "src" / "main.py").write_text("import os\nprint('hello')\n")
    (root / "src" / "pkg" / "util.py").write_text("def helper():\n    return 42\n")
    (root / "notes.txt").write_text("one\ntwo\nthree\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("top secret")
    return root


def call(kind, root, tool, **input):
    pipeline = ToolPipeline.new(workspace_registry(str(root)))
    return dispatch(kind, pipeline, DispatchContext(tool, input))


@pytest.mark.parametrize("kind", INTERPRETERS)
def test_read_write_edit(kind, ws):
    assert call(kind, ws, "Read", path="notes.txt").text == "one\ntwo\nthree\n"
    assert call(kind, ws, "Read", path="notes.txt", offset=2, limit=1).text == "two\n"
    r = call(kind, ws, "Write", path="new/dir/a.txt", content="alpha beta")
    assert r.text == "Wrote 10 characters to new/dir/a.txt" and not r.is_error
    assert (ws / "new" / "dir" / "a.txt").read_text() == "alpha beta"
    r = call(kind, ws, "Edit", path="new/dir/a.txt", old_string="beta", new_string="gamma")
    assert r.text == "Replaced 1 occurrence(s) in new/dir/a.txt"
    assert (ws / "new" / "dir" / "a.txt").read_text() == "alpha gamma"


@pytest.mark.parametrize("kind", INTERPRETERS)
def test_glob_grep_ls_bash(kind, ws):
    assert call(kind, ws, "Glob", pattern="**/*.py").text == "src/main.py\nsrc/pkg/util.py"
    assert call(kind, ws, "Glob", pattern="*.py", path="src").text == "src/main.py"
    assert call(kind, ws, "Grep", pattern="return \\d+").text == "src/pkg/util.py:2:    return 42"
    assert call(kind, ws, "Grep", pattern="HELLO", ignore_case=True, glob="*.py").text == (
        "src/main.py:2:print('hello')")
    assert call(kind, ws, "LS").text == "notes.txt (14 bytes)\nsrc/"
    r = call(kind, ws, "Bash", command="echo hi && ls src")
    assert r.text == "hi\nmain.py\npkg" and not r.is_error


@pytest.mark.parametrize("kind", INTERPRETERS)
def test_escapes_are_refused(kind, ws, tmp_path):
    os.symlink(tmp_path / "outside", ws / "door")
    os.symlink(tmp_path / "outside" / "secret.txt", ws / "key.txt")
    cases = [
        ("Read", {"path": "../outside/secret.txt"}, "Path '../outside/secret.txt' is outside"),
        ("Read", {"path": "src/../../outside/secret.txt"}, "is outside the workspace"),
        ("Read", {"path": str(tmp_path / "outside" / "secret.txt")}, "is outside the workspace"),
        ("Read", {"path": "key.txt"}, "Path 'key.txt' is outside the workspace"),
        ("Read", {"path": "door/secret.txt"}, "Path 'door/secret.txt' is outside"),
        ("Write", {"path": "door/planted.txt", "content": "x"}, "is outside the workspace"),
        ("LS", {"path": "door"}, "Path 'door' is outside the workspace"),
        ("Grep", {"pattern": "secret", "path": "door"}, "is outside the workspace"),
    ]
    for tool, input, expected in cases:
        r = call(kind, ws, tool, **input)
        assert r.is_error and expected in r.text, (tool, input, r.text)
    assert not (tmp_path / "outside" / "planted.txt").exists()
    # Grep over the workspace skips what the symlinked file points to
    assert "top secret" not in call(kind, ws, "Grep", pattern="secret").text


@pytest.mark.parametrize("kind", INTERPRETERS)
def test_clear_soft_errors(kind, ws):
    cases = [
        # checked against the declared schema before the tool runs, naming the field
        ("Read", {}, "Invalid tool call: input: missing field 'path'"),
        ("Read", {"path": 3}, "Invalid tool call: input.path: expected a string, got 3"),
        ("Read", {"path": "missing.txt"}, "No such file or directory: 'missing.txt'"),
        ("Read", {"path": "src"}, "'src' is a directory, not a file"),
        ("Edit", {"path": "notes.txt", "old_string": "zzz", "new_string": "y"},
         "old_string not found in notes.txt"),
        ("Grep", {"pattern": "("}, "Invalid regular expression '('"),
        ("Bash", {"command": "echo out; echo err >&2; exit 3"}, "Exit code 3\nout\nerr"),
        ("Bash", {"command": "true", "timeout": -1}, "Argument 'timeout' must be a positive"),
    ]
    for tool, input, expected in cases:
        r = call(kind, ws, tool, **input)
        assert r.is_error and r.text.startswith(expected), (tool, r.text)


def test_edit_needs_a_unique_match_unless_replace_all(ws):
    (ws / "r.txt").write_text("a a a")
    r = call("simulated", ws, "Edit", path="r.txt", old_string="a", new_string="b")
    assert r.is_error and "occurs 3 times" in r.text
    r = call("simulated", ws, "Edit", path="r.txt", old_string="a", new_string="b",
             replace_all=True)
    assert r.text == "Replaced 3 occurrence(s) in r.txt" and (ws / "r.txt").read_text() == "b b b"


def test_bash_has_its_own_timeout(ws):
    r = call("simulated", ws, "Bash", command="sleep 5", timeout=0.05)
    assert r.is_error and r.text == "Command failed: command timed out after 0.05s"


def test_declarations_are_honest(ws):
    reg = workspace_registry(str(ws))
    safe = {d.name for d in reg.declarations() if d.concurrency_safe}
    assert safe == {"Read", "Glob", "Grep", "LS"}
    assert all(d.resource_key_from == "path" for d in reg.declarations() if d.concurrency_safe)
    assert {d.name for d in reg.declarations()} == {"Read", "Write", "Edit", "Glob", "Grep",
                                                    "LS", "Bash"}
    assert all(d.input_schema["type"] == "object" for d in reg.declarations())


def test_reads_of_one_path_never_share_a_wave(ws):
    engine = Engine(workspace_registry(str(ws)))
    sim = SimulatedInterpreter()
    calls = [ToolCall("a", "Read", {"path": "notes.txt"}), ToolCall("b", "LS", {}),
             ToolCall("c", "Read", {"path": "notes.txt"}),
             ToolCall("d", "Write", {"path": "x", "content": "y"})]
    results = sim.run(engine.dispatch_turn(calls))
    assert [r.is_error for r in results] == [False] * 4
    from toolpipe.agent import TurnPlanned

    (plan,) = [e for e in sim.events if isinstance(e, TurnPlanned)]
    assert plan.waves == ((0, 1), (2,), (3,))


@pytest.mark.parametrize(("pattern", "path", "hit"), [
    ("*.py", "a.py", True), ("*.py", "d/a.py", False), ("**/*.py", "a.py", True),
    ("**/*.py", "d/e/a.py", True), ("src/**", "src/a/b", True), ("?.txt", "a.txt", True),
    ("[ab].txt", "c.txt", False), ("[!ab].txt", "c.txt", True), ("a+b", "a+b", True),
])
def test_glob_patterns(pattern, path, hit):
    assert bool(glob_regex(pattern).match(path)) is hit


def test_workspace_arguments_are_checked():
    from toolpipe import ConfigError

    with pytest.raises(ConfigError, match="root"):
        Workspace("")
    with pytest.raises(ConfigError, match="bash_timeout"):
        Workspace("x", bash_timeout=float("nan"))


@pytest.mark.parametrize("kind", INTERPRETERS)
def test_glob_and_grep_on_a_file_path(kind, ws):
    assert call(kind, ws, "Grep", pattern="return", path="src/pkg/util.py").text == (
        "src/pkg/util.py:2:    return 42")
    assert call(kind, ws, "Glob", pattern="*.py", path="src/main.py").text == "src/main.py"
    assert call(kind, ws, "Glob", pattern="*.txt", path="src/main.py").text == (
        "No files match '*.txt'")
    assert call(kind, ws, "Grep", pattern="print", path="src/main.py",
                glob="*.py").text == "src/main.py:2:print('hello')"
