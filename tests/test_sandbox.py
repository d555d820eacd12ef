"""Bash in the bubblewrap sandbox: the system read-only, the workspace writable, no secrets,
no network; ordinary work in the workspace still works. Skipped where bwrap is missing,
except under CI (.ci/run installs it), where its absence fails."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import threading

import pytest

from interpreters.asyncio import AsyncioInterpreter
from toolpipe import DispatchContext, ToolPipeline
from toolpipe.errors import ConfigError
from toolpipe.sandbox import SECCOMP_FD, bwrap_argv
from toolpipe.tools import Workspace, workspace_registry

HAVE_BWRAP = shutil.which("bwrap") is not None
needs_bwrap = pytest.mark.skipif(not HAVE_BWRAP and not os.environ.get("CI"),
                                 reason="bwrap (bubblewrap) is not installed")


def bash(root, command, sandbox="bwrap"):
    pipeline = ToolPipeline.new(workspace_registry(str(root), sandbox=sandbox,
                                                   bash_timeout=20.0))

    async def main():
        ctx = DispatchContext("Bash", {"command": command})
        return await AsyncioInterpreter().run(pipeline.dispatch(ctx))

    return asyncio.run(main())


def test_options_are_checked():
    with pytest.raises(ConfigError, match="sandbox must be one of auto, required, none, bwrap"):
        Workspace("/w", sandbox="docker")
    assert Workspace("/w").sandbox == "auto"  # the default
    assert Workspace("/w", sandbox="bwrap").sandbox == "required"  # the old name
    relative = Workspace("w")
    assert relative.sandbox_root == os.path.join(os.getcwd(), "w")
    with pytest.raises(ConfigError, match="env: 'A=B' is not an environment variable name"):
        Workspace("/w", env=["A=B"])
    argv = bwrap_argv("/w", ("bash", "-c", "true"))
    assert "--unshare-net" in argv and argv[-3:] == ("bash", "-c", "true")
    for hardening in ("--unshare-user", "--disable-userns", "--unshare-pid",
                      "--die-with-parent", "--new-session"):
        assert hardening in argv
    assert argv[argv.index("--cap-drop") + 1] == "ALL"
    assert argv[argv.index("--seccomp") + 1] == SECCOMP_FD
    assert "--seccomp" not in bwrap_argv("/w", ("true",), seccomp=False)
    assert "--unshare-net" not in bwrap_argv("/w", ("true",), network=True)


@pytest.mark.process
@needs_bwrap
def test_secrets_the_system_and_outside_are_out_of_reach(tmp_path):
    assert HAVE_BWRAP, "bwrap is missing: .ci/run installs bubblewrap"
    shadow = bash(tmp_path, "cat /etc/shadow")
    assert shadow.is_error and "root:" not in shadow.text
    assert "Read-only file system" in bash(tmp_path, "echo x > /etc/toolpipe-test").text
    assert bash(tmp_path, "ls /root ~/.ssh").is_error
    assert not os.path.exists("/etc/toolpipe-test")


@pytest.mark.process
@needs_bwrap
def test_no_network_unless_allowed(tmp_path):
    assert HAVE_BWRAP, "bwrap is missing: .ci/run installs bubblewrap"
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    accepted = []
    thread = threading.Thread(target=lambda: accepted.append(server.accept()), daemon=True)
    thread.start()
    try:
        inside = bash(tmp_path, f"echo hi > /dev/tcp/127.0.0.1/{port}")
        assert inside.is_error and "Connection refused" in inside.text
        outside = bash(tmp_path, f"echo hi > /dev/tcp/127.0.0.1/{port}", sandbox="none")
        assert not outside.is_error  # the same command reaches the server unsandboxed
        thread.join(5)
        assert accepted
    finally:
        server.close()


@pytest.mark.process
@needs_bwrap
def test_ordinary_work_in_the_workspace(tmp_path):
    assert HAVE_BWRAP, "bwrap is missing: .ci/run installs bubblewrap"
    (tmp_path / "app.py").write_text("print(6 * 7)\n")
    done = bash(tmp_path, "python3 app.py > out.txt && cat out.txt && mkdir -p build && "
                          "cp app.py build/ && ls build && echo tmp > /tmp/x && cat /tmp/x")
    assert not done.is_error, done.text
    assert done.text == "42\napp.py\ntmp"
    assert (tmp_path / "out.txt").read_text() == "42\n"


def test_the_tools_table_of_a_pipeline_file():
    from toolpipe.config import DEFAULT_PIPELINE, PipelineFileError, tools_options

    assert tools_options(DEFAULT_PIPELINE).sandbox == "auto"
    chosen = tools_options(DEFAULT_PIPELINE + '\n[tools]\nsandbox = "bwrap"\nnetwork = true\n')
    assert chosen.sandbox == "bwrap" and chosen.network
    with pytest.raises(PipelineFileError, match=r"p.toml:\d+: \[tools\]: option 'sandbox'"):
        tools_options('[tools]\nsandbox = "docker"\n', source="p.toml")
    with pytest.raises(PipelineFileError,
                       match=r"p.toml:2: \[tools\]: option 'env': 'A=B' is not an environment"):
        tools_options('[tools]\nenv = ["PATH", "A=B"]\n', source="p.toml")
    assert tools_options('[tools]\nenv = ["GH_TOKEN"]\n').env == ["GH_TOKEN"]
    with pytest.raises(PipelineFileError, match="'bash_timeout': must be in"):
        tools_options("[tools]\nbash_timeout = 0\n", source="p.toml")


@pytest.mark.process
@needs_bwrap
def test_the_bundled_session_in_the_sandbox(tmp_path, capsys):
    from toolpipe.cli import main
    from toolpipe.config import DEFAULT_PIPELINE

    assert HAVE_BWRAP, "bwrap is missing: .ci/run installs bubblewrap"
    path = tmp_path / "p.toml"
    path.write_text(DEFAULT_PIPELINE.replace("timeout = 30", "timeout = 0.5")
                    + '\n[tools]\nsandbox = "bwrap"\n')
    assert main(["run", "--pipeline", str(path), "--interpreter", "simulated"]) == 0
    assert "tests passed" in capsys.readouterr().out


def helper_wheel(folder) -> None:
    """A wheel made on the spot: the local wheel cache a build inside would install from."""
    import base64
    import hashlib
    import zipfile

    files = {"helper/__init__.py": "def double(x):\n    return 2 * x\n",
             "helper-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: helper\n"
                                               "Version: 1.0\n",
             "helper-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\n"
                                           "Root-Is-Purelib: true\nTag: py3-none-any\n"}
    record = []
    with zipfile.ZipFile(folder / "helper-1.0-py3-none-any.whl", "w") as wheel:
        for name, text in files.items():
            data = text.encode()
            wheel.writestr(name, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            record.append(f"{name},sha256={digest.decode()},{len(data)}")
        record.append("helper-1.0.dist-info/RECORD,,")
        wheel.writestr("helper-1.0.dist-info/RECORD", "\n".join(record) + "\n")


@pytest.mark.process
@needs_bwrap
def test_harmless_builds_work_inside(tmp_path):
    """In the default sandbox, with the network off: a virtual environment and pip from a
    local wheel cache, the tests, git commit, make and npm test."""
    assert HAVE_BWRAP, "bwrap is missing: .ci/run installs bubblewrap"
    (tmp_path / "cache").mkdir()
    helper_wheel(tmp_path / "cache")
    (tmp_path / "test_app.py").write_text(
        "import unittest\nimport helper\n\nclass T(unittest.TestCase):\n"
        "    def test_double(self):\n        self.assertEqual(helper.double(21), 42)\n")
    (tmp_path / "Makefile").write_text("all:\n\techo made\n")
    (tmp_path / "package.json").write_text(
        '{"name": "app", "version": "1.0.0", "scripts": {"test": "node -e '
        '\\"console.log(40 + 2)\\""}}')
    steps = {
        "venv and pip": "python3 -m venv --without-pip v && PIP_CONFIG_FILE=/dev/null "
                        "python3 -m pip --python v/bin/python install -q --no-index "
                        "--find-links cache helper && echo installed",
        "tests": "v/bin/python -m unittest -q test_app 2>&1 | tail -1",
        "git commit": "git init -q . && git add test_app.py && git -c user.email=a@b.c "
                      "-c user.name=a commit -q -m first && git log --oneline | wc -l",
        "make": "make -s",
        "npm test": "npm test --offline --silent",
    }
    out = {name: bash(tmp_path, command, sandbox="auto") for name, command in steps.items()}
    texts = {name: result.text for name, result in out.items()}
    assert not any(r.is_error for r in out.values()), texts
    assert texts == {"venv and pip": "installed", "tests": "OK", "git commit": "1",
                     "make": "made", "npm test": "42"}, texts


@needs_bwrap
def test_a_mask_removed_before_bubblewrap_starts_costs_one_more_start(tmp_path):
    """A root-only file found by the scan and removed before bubblewrap mounts over it made
    bubblewrap fail to start (a race another test's clean-up hit): the call starts it once
    more, with a fresh scan; remembered masks whose path is gone are dropped."""
    from returns.result import Success

    from interpreters import _processes
    from interpreters.simulated import SimulatedInterpreter
    from toolpipe.effects import ProcessResult

    assert HAVE_BWRAP, "bwrap is missing: .ci/run installs bubblewrap"
    runs = []

    def runner(effect):
        runs.append(effect.argv[0])
        if len(runs) == 1:
            return Success(ProcessResult(1, "", "bwrap: Can't mkdir parents for /etc/x/key: "
                                                "Read-only file system\n"))
        return Success(ProcessResult(0, "done\n", ""))

    pipeline = ToolPipeline.new(workspace_registry(str(tmp_path), sandbox="required"))
    result = SimulatedInterpreter(process_runner=runner).run(
        pipeline.dispatch(DispatchContext("Bash", {"command": "echo done"})))
    assert result.text == "done" and runs == ["bwrap", "bwrap"]
    kept = tmp_path / "kept"
    kept.write_text("x")
    remembered = ("--tmpfs", str(tmp_path / "gone"), "--ro-bind", "/dev/null", str(kept),
                  "--ro-bind", "/dev/null", str(tmp_path / "gone.txt"))
    assert _processes._still_there(remembered) == ["--ro-bind", "/dev/null", str(kept)]


def test_a_sandbox_check_that_cannot_run_never_means_unsandboxed(tmp_path):
    """With every worker thread stuck, the check cannot run: "auto" must not take that for
    "no sandbox here" and run the command bare (it did, before)."""
    from interpreters.workers import WorkerPool

    pool = WorkerPool(1)
    release = threading.Event()
    pool.abandon(pool.submit(lambda: release.wait(10), (), lambda outcome: None))
    marker = tmp_path / "ran"
    pipeline = ToolPipeline.new(workspace_registry(str(tmp_path), sandbox="auto"))

    async def main():
        return await AsyncioInterpreter(pool=pool).run(pipeline.dispatch(
            DispatchContext("Bash", {"command": f"touch {marker}"})))

    try:
        result = asyncio.run(main())
    finally:
        release.set()
    assert result.is_error and "could not check the sandbox" in result.text, result.text
    assert "worker threads are held" in result.text and not marker.exists()
