"""toolpipe mcp-proxy's lifetime and defaults, against a server written on the wire
(tests/data/mcp/raw_server.py): tools in pages and a list that changes; the default
pipeline answers a slow tool once and never runs a write twice; a busy upstream is not a
dead one; a 50 MB result; back-pressure under many calls; an upstream that hangs in the
handshake or writes garbage; stdin closed, SIGTERM and SIGINT end the proxy and the
upstream's whole process group (orphans counted); start-up errors are one line, exit 2."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import subprocess
import sys
import time
from typing import Any

import pytest

from toolpipe.cli import main

# each test starts its own proxy and server: they spread over the workers
pytestmark = [pytest.mark.process]

ROOT = pathlib.Path(__file__).resolve().parent.parent
RAW = str(ROOT / "tests" / "data" / "mcp" / "raw_server.py")
INIT = {"protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}


class Client:
    """A client on the wire, line by line, for a proxy started as a process."""

    def __init__(self, tmp_path: pathlib.Path, mode: str = "paged", *options: str) -> None:
        self.work = tmp_path
        self.process = subprocess.Popen(
            [sys.executable, "-m", "toolpipe", "mcp-proxy", *options, "--", sys.executable,
             RAW, mode, str(tmp_path)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=ROOT)
        self.ids = iter(range(1, 1 << 30))
        self.notes: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
        self.process.stdin.flush()

    def read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, f"the proxy closed its stdout: {self.stderr()}"
        return json.loads(line)

    def ask(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        key = next(self.ids)
        self.send({"id": key, "method": method, "params": params})
        while True:
            message = self.read()
            if message.get("id") == key:
                return message
            self.notes.append(message)

    def start(self) -> dict[str, Any]:
        answer = self.ask("initialize", INIT)
        self.send({"method": "notifications/initialized"})
        return answer

    def call(self, name: str, **arguments: Any) -> dict[str, Any]:
        return self.ask("tools/call", {"name": name, "arguments": arguments})["result"]

    def stderr(self) -> str:
        if self.process.poll() is None:
            return ""
        assert self.process.stderr is not None
        return self.process.stderr.read().decode()

    def wait(self, seconds: float) -> tuple[int, float]:
        start = time.monotonic()
        code = self.process.wait(timeout=seconds)
        return code, time.monotonic() - start

    def pid(self, name: str) -> int:
        return int((self.work / name).read_text())


def text(result: dict[str, Any]) -> str:
    return "\n".join(c["text"] for c in result["content"] if c["type"] == "text")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is dead but for its parent's wait; only a live one counts as an orphan
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(")")[-1].split()[0] != "Z"


def test_one_session_through_the_default_pipeline(tmp_path):
    """One proxy (each costs a start): every page of tools is listed and a changed list is
    listed again; a 2.5 s tool answers once (the demo's old 1 s default timed it out); a
    busy upstream is not a dead one; 50 MB is capped, not a crash; 400 calls at once wait
    for one of 4 slots and none is lost; a question for a person, with a client that takes
    no elicitations, is refused with the reason."""
    client = Client(tmp_path, "paged", "--max-calls", "4")
    try:
        assert client.start()["result"]["serverInfo"]["name"] == "raw"
        first = client.ask("tools/list", {})["result"]  # the client pages as it likes
        assert [t["name"] for t in first["tools"]] == ["t1", "t2"] and first["nextCursor"]
        assert text(client.call("t5")) == "t5 ran"  # on the third page: the proxy read all
        assert text(client.call("grow")) == "grown"
        assert {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"} in \
            client.notes  # passed on
        assert text(client.call("t6")) == "t6 ran"  # and the proxy listed the tools again

        slow = client.call("sleep", seconds=2.5)
        assert not slow.get("isError") and text(slow) == "slept"
        assert text(client.call("t1")) == "t1 ran"  # busy for 2.5 s is not dead
        big = client.call("big")
        assert not big.get("isError") and len(text(big)) < 100_000

        count = 400
        for key in range(1000, 1000 + count):
            client.send({"id": key, "method": "tools/call",
                         "params": {"name": f"t{key % 5 + 1}", "arguments": {}}})
        answers = {}
        while len(answers) < count:
            message = client.read()
            answers[message["id"]] = text(message["result"])
        assert answers == {k: f"t{k % 5 + 1} ran" for k in range(1000, 1000 + count)}

        asked = client.call("run_command", command="chmod 777 build/out")
        assert asked["isError"] and "nobody can be asked: 'chmod 777'" in text(asked)
    finally:
        client.process.kill()
        client.process.wait()


def test_a_write_that_times_out_never_runs_twice_and_requests_from_a_file(tmp_path):
    """A tool with no annotations is not safe to run again: when the pipeline's timeout
    (retries allowed) fires, it is not retried. The requests come from a regular file
    (stdin read by a thread, not the loop): each is answered before the proxy ends."""
    pipeline = tmp_path / "p.toml"
    pipeline.write_text('[[layer]]\nname = "timeout"\ntimeout = 0.3\n'
                        'retry_on_timeout = true\nmax_retries = 2\n')
    requests = tmp_path / "requests.jsonl"
    requests.write_text("\n".join(json.dumps(m) for m in [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "t1", "arguments": {}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
         "params": {"name": "append", "arguments": {}}}]) + "\n")
    start = time.monotonic()
    with open(requests, "rb") as stdin:
        done = subprocess.run(
            [sys.executable, "-m", "toolpipe", "mcp-proxy", "--pipeline", str(pipeline),
             "--", sys.executable, RAW, "paged", str(tmp_path)],
            stdin=stdin, capture_output=True, timeout=20, cwd=ROOT)
    answers = {a["id"]: a for a in map(json.loads, done.stdout.splitlines())}
    assert done.returncode == 0 and sorted(answers) == [1, 2, 3]
    assert text(answers[2]["result"]) == "t1 ran"
    appended = answers[3]["result"]
    assert appended["isError"] and "timed out" in text(appended)
    # the server takes one call at a time: a retry would run once the first ends, at
    # 0.8 s, and write at once (the proxy waited for the server before ending, and ended
    # its process group: nothing runs after this)
    time.sleep(max(0.0, start + 1.2 - time.monotonic()))
    assert (tmp_path / "ledger").read_text() == "ran\n"


@pytest.mark.parametrize("mode", ["hang", "garbage"])
def test_an_upstream_that_never_answers_the_handshake_ends_the_proxy(tmp_path, mode):
    client = Client(tmp_path, mode, "--init-timeout", "0.5")
    answer = client.ask("initialize", INIT)
    assert "did not answer the handshake" in answer["error"]["message"]
    code, _ = client.wait(5)
    lines = client.stderr().strip().splitlines()
    assert code == 2 and any("did not answer the handshake within 0.5 s" in x for x in lines)
    if mode == "garbage":
        assert any("not JSON-RPC" in x for x in lines)
    assert not alive(client.pid("server.pid"))


@pytest.mark.parametrize("how", ["stdin closed", "SIGTERM", "SIGINT"])
def test_the_proxy_ends_with_its_upstream_group_and_leaves_no_orphan(tmp_path, how):
    client = Client(tmp_path)
    client.start()
    client.call("child")  # the server starts a process of its own
    pids = [client.pid("server.pid"), client.pid("child.pid")]
    client.send({"id": 99, "method": "tools/call",
                 "params": {"name": "sleep", "arguments": {"seconds": 30}}})
    time.sleep(0.3)  # the upstream is busy in that call
    if how == "stdin closed":
        assert client.process.stdin is not None
        client.process.stdin.close()
    else:
        client.process.send_signal(signal.SIGTERM if how == "SIGTERM" else signal.SIGINT)
    code, took = client.wait(10)
    assert code == 0 and took < 3.5, (code, took, client.stderr())
    orphans = [pid for pid in pids if alive(pid)]
    assert orphans == []


def test_a_proxy_whose_stdin_is_dev_null_ends_at_once(tmp_path):
    """As under a supervisor or `nohup`: no client, so the proxy ends with its upstream.
    (asyncio took /dev/null as a pipe, epoll refused it in a callback, and the proxy
    waited forever with a traceback on stderr.)"""
    proxy = subprocess.Popen(
        [sys.executable, "-m", "toolpipe", "mcp-proxy", "--", sys.executable, RAW, "paged",
         str(tmp_path)], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, cwd=ROOT)
    out, err = proxy.communicate(timeout=10)
    assert proxy.returncode == 0 and out == b"" and b"Traceback" not in err, err
    server = tmp_path / "server.pid"
    assert not server.exists() or not alive(int(server.read_text()))


def test_start_up_errors_are_one_line_and_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[layer]]\nname = "no_such_layer"\n')
    cases = [
        (["mcp-proxy", "--", str(tmp_path / "no-such-server")], "cannot start the upstream"),
        (["mcp-proxy", "--pipeline", str(bad), "--", "true"], "no_such_layer"),
        (["mcp-proxy", "--env", "NOEQUALS", "--", "true"], "give NAME=VALUE"),
        (["mcp-proxy", "--header", "X: 1", "--", "true"], "for an upstream given by --url"),
        (["mcp-proxy", "--url", "http://127.0.0.1:9/mcp", "--bearer-env",
          "TOOLPIPE_NO_SUCH_VARIABLE"], "that variable is not set"),
        (["mcp-proxy", "--init-timeout", "0", "--", "true"], "a positive number"),
    ]
    for argv, expected in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert expected in err and len(err.strip().splitlines()) == 1, (argv, err)


def test_an_upstream_that_dies_ends_the_proxy_though_its_child_holds_the_pipe(tmp_path):
    client = Client(tmp_path)
    client.start()
    client.call("child")  # a process of its own, which inherited the server's stdout
    server, child = client.pid("server.pid"), client.pid("child.pid")
    client.send({"id": 99, "method": "tools/call",
                 "params": {"name": "sleep", "arguments": {"seconds": 30}}})
    time.sleep(0.3)
    os.kill(server, signal.SIGKILL)
    answer = client.read()  # the call in flight is answered, not left hanging
    assert answer["id"] == 99 and "exited" in text(answer["result"])
    code, took = client.wait(10)
    assert code == 1 and took < 3.5
    assert "exited; stopping" in client.stderr()
    assert not alive(child)  # the group went with the proxy


def test_an_http_upstream_that_is_not_there_is_one_line_and_exit_2():
    proxy = subprocess.Popen(
        [sys.executable, "-m", "toolpipe", "mcp-proxy", "--url", "http://127.0.0.1:9/mcp"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    _, err = proxy.communicate(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                           "params": INIT}).encode() + b"\n", timeout=20)
    assert proxy.returncode == 2
    assert err.decode().strip().splitlines() == [
        "toolpipe: the upstream (http://127.0.0.1:9/mcp) failed: ConnectError: All "
        "connection attempts failed"]
