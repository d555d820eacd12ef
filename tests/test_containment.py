"""Containment by construction: whatever a command says, it cannot reach outside.

- Disguised deletions (tests/data/containment/deletions.txt, 52 attacks in 10 families,
  and 6 write-then-run sequences): through the default pipeline, and through the sandbox
  alone with no shield, the victim outside the workspace is untouched, as root and as
  ``nobody``; a victim the sandbox can see (under a read-only system folder) as well.
  Without shield and sandbox the same attacks do their damage: the suite is real.
- Sandbox escapes as root: capabilities, the handle syscalls, mounts, namespaces, ptrace,
  modules, the host's environment and processes, devices, the kernel's knobs.
- File-tool escapes: hard links and bind mounts made by root inside the workspace.
- No process of a call survives it, sandboxed or not (counted by a marker in /proc).

bwrap is a CI requirement (.ci/run installs it); outside CI these tests are skipped where
it is missing. Tests that need root (bind mounts, setpriv) likewise.
"""

from __future__ import annotations

import asyncio
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from typing import Any

import pytest

from interpreters.asyncio import AsyncioInterpreter
from interpreters.simulated import SimulatedInterpreter
from toolpipe import DispatchContext, ToolPipeline
from toolpipe.effects import RunProcess
from toolpipe.tools import workspace_registry

from . import containment

ROOT = pathlib.Path(__file__).resolve().parent.parent
CI = bool(os.environ.get("CI"))
HAVE_BWRAP = shutil.which("bwrap") is not None
IS_ROOT = os.geteuid() == 0
needs_bwrap = pytest.mark.skipif(not HAVE_BWRAP and not CI, reason="bwrap is not installed")
needs_root = pytest.mark.skipif(not IS_ROOT and not CI, reason="needs root")
pytestmark = [pytest.mark.process]


def summary(damage: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Per family: (attacks that did damage, attacks)."""
    return {family: (sum(1 for _, hit, _ in rows if hit), len(rows))
            for family, rows in damage.items()}


def hits(damage: dict[str, Any]) -> list[str]:
    return [f"{family}: {label} -> {last}" for family, rows in damage.items()
            for label, hit, last in rows if hit]


@needs_bwrap
@pytest.mark.parametrize("shield", ["shield", "noshield"])
def test_disguised_deletions_delete_nothing_as_root(tmp_path: pathlib.Path, shield: str) -> None:
    assert HAVE_BWRAP, "bwrap is missing: .ci/run installs bubblewrap"
    damage = containment.run(str(tmp_path), "auto", shield == "shield")
    figures = summary(damage)
    assert sum(n for _, n in figures.values()) >= 58 and len(figures) >= 10
    assert not hits(damage), "\n".join(hits(damage))


@needs_bwrap
@needs_root
def test_a_victim_the_sandbox_can_see_is_read_only(tmp_path: pathlib.Path) -> None:
    """A victim under a system folder bound read-only (/srv) is visible inside, and still
    nothing of it changes."""
    assert IS_ROOT and HAVE_BWRAP
    parent = pathlib.Path(tempfile.mkdtemp(prefix="toolpipe-victim-", dir="/srv"))
    os.chmod(parent, 0o755)  # readable to all: not masked, so the sandbox sees it
    try:
        damage = containment.run(str(tmp_path), "auto", False, str(parent),
                                 {"direct", "overwrite", "path", "build", "interpreter"})
        assert not hits(damage), "\n".join(hits(damage))
        seen = bash(tmp_path / "ws", f"ls {parent}/lane-0/victim")
        assert "precious.txt" in seen.text  # it was there to be attacked
    finally:
        containment.subprocess_free_rmtree(parent)


def test_without_shield_and_sandbox_the_attacks_are_real(tmp_path: pathlib.Path) -> None:
    """The control: with sandbox='none' and no shield every attack but the background jobs
    (which the subreaper stops with their call) destroys or changes the victim."""
    damage = containment.run(str(tmp_path), "none", False)
    figures = summary(damage)
    assert figures.pop("background") == (0, 2)
    missed = [f"{family}: {label}" for family, rows in damage.items() if family != "background"
              for label, hit, _ in rows if not hit]
    if not IS_ROOT:  # an ordinary user cannot read through chmod 000: it counts as damage
        pass
    assert not missed, missed


AS_NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def nobody_python(source: pathlib.Path = ROOT) -> tuple[str, dict[str, str]]:
    """A Python that user nobody can run, with this environment's packages: the virtual
    environment's own interpreter may sit behind a folder only root can enter (pyenv under
    /root), so the system's python3 of the same version is used where there is one. The
    packages must be readable to others (.ci/run opens its virtual environment's folder);
    the code is run from ``source``."""
    import sysconfig

    system = shutil.which("python3", path="/usr/bin:/bin")
    python = sys.executable
    if system is not None:
        version = subprocess.run([system, "-c", "import sys; print(sys.version_info[:2])"],
                                 capture_output=True, text=True, check=False).stdout.strip()
        if version == str(tuple(sys.version_info[:2])):
            python = system
    path = os.pathsep.join([str(source), sysconfig.get_paths()["purelib"],
                            sysconfig.get_paths()["platlib"]])
    return python, {**os.environ, "PYTHONPATH": path, "PYTHONDONTWRITEBYTECODE": "1"}


def readable_copy(base: pathlib.Path) -> pathlib.Path:
    """The code the suite runs, copied where nobody can read it (the checkout may sit in a
    folder only root can enter), with its bytecode (compiled by the suite's first process;
    nobody cannot write it, and each of its processes compiled toolpipe again: 0.55 s)."""
    source = base / "src"
    for part in ("toolpipe", "interpreters"):
        shutil.copytree(ROOT / part, source / part)
    (source / "tests" / "data").mkdir(parents=True)
    for name in ("__init__.py", "containment.py"):
        shutil.copy(ROOT / "tests" / name, source / "tests" / name)
    shutil.copytree(ROOT / "tests" / "data" / "containment",
                    source / "tests" / "data" / "containment")
    for folder, _, files in os.walk(base):
        os.chmod(folder, 0o755)
        for name in files:
            os.chmod(os.path.join(folder, name), 0o644)
    return source


def nobody_can_run_python(source: pathlib.Path) -> bool:
    python, env = nobody_python(source)
    done = subprocess.run([*AS_NOBODY, python, "-c", "import toolpipe, interpreters, re2"],
                          cwd=source, capture_output=True, check=False, timeout=60, env=env)
    return done.returncode == 0


@needs_bwrap
@needs_root
def test_disguised_deletions_delete_nothing_as_an_ordinary_user() -> None:
    assert IS_ROOT and HAVE_BWRAP and shutil.which("setpriv"), "needs root and setpriv"
    base = pathlib.Path(tempfile.mkdtemp(prefix="toolpipe-nobody-"))
    try:
        source = readable_copy(base)
        assert nobody_can_run_python(source), (
            f"user nobody cannot run {nobody_python(source)[0]} with toolpipe's packages: "
            "the virtual environment must be readable to others (.ci/run opens it)")
        work = base / "work"
        work.mkdir()
        os.chown(work, 65534, 65534)
        results = {}
        python, env = nobody_python(source)
        for sandbox, only in (("auto", []), ("none", ["-", "direct,interpreter,option"])):
            done = subprocess.run(
                [*AS_NOBODY, python, "-m", "tests.containment", str(work), sandbox, "noshield",
                 *only],
                cwd=source, capture_output=True, text=True, check=False, timeout=300,
                env={**env, "HOME": str(work)})
            assert done.returncode == 0, done.stderr[-2000:]
            results[sandbox] = json.loads(done.stdout)
        assert not hits(results["auto"]), "\n".join(hits(results["auto"]))
        control = summary(results["none"])  # as nobody, unsandboxed, they are real too
        assert control == {"direct": (5, 5), "interpreter": (5, 5), "option": (6, 6)}, control
    finally:
        containment.subprocess_free_rmtree(base)


# --- escapes, as root ----------------------------------------------------------------------


def bash(workspace: pathlib.Path, command: str, sandbox: str = "required",
         **env: str) -> Any:
    workspace.mkdir(exist_ok=True)
    pipe = ToolPipeline.new(workspace_registry(str(workspace), sandbox=sandbox,
                                               bash_timeout=20.0))

    async def main() -> Any:
        return await AsyncioInterpreter().run(
            pipe.dispatch(DispatchContext("Bash", {"command": command})))

    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        return asyncio.run(main())
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


SYSCALL = ("python3 -c 'import ctypes, os; l = ctypes.CDLL(None, use_errno=True); "
           "r = l.syscall({nr}, {args}); print(\"result\", r, os.strerror(ctypes.get_errno()))'")
NR = {"x86_64": {"open_by_handle_at": 304, "name_to_handle_at": 303, "bpf": 321,
                 "keyctl": 250, "perf_event_open": 298, "init_module": 175, "kexec_load": 246,
                 "unshare": 272, "setns": 308, "mount": 165, "umount2": 166,
                 "pivot_root": 155, "ptrace": 101},
      "aarch64": {"open_by_handle_at": 265, "name_to_handle_at": 264, "bpf": 280,
                  "keyctl": 219, "perf_event_open": 241, "init_module": 105,
                  "kexec_load": 104, "unshare": 97, "setns": 268, "mount": 40, "umount2": 39,
                  "pivot_root": 41, "ptrace": 117}}

# attempt -> a text its output must not contain (the attempt's own success marker)
ESCAPES: dict[str, tuple[str, str]] = {
    "capabilities": ("grep -E '^Cap(Eff|Prm|Bnd|Amb):' /proc/self/status",
                     "[1-9a-f]"),  # any bit set
    "umount the shadow mask": ("umount /etc/shadow; cat /etc/shadow", "root:"),
    "remount / writable": ("mount -o remount,rw / && touch /etc/escaped && echo ESCAPED",
                           "ESCAPED"),
    "bind a host folder": ("mkdir -p /tmp/m && mount --bind / /tmp/m && echo ESCAPED",
                           "ESCAPED"),
    "new user namespace": ("unshare -r id && echo ESCAPED", "ESCAPED"),
    "new mount namespace": ("unshare -m true && echo ESCAPED", "ESCAPED"),
    "enter pid 1's namespaces": ("nsenter -t 1 -m -u -i -n -p true && echo ESCAPED",
                                 "ESCAPED"),
    "chroot": ("chroot / true && echo ESCAPED", "ESCAPED"),
    "host processes": ("ls /proc | grep -c '^[0-9]'", "MANY"),  # checked below
    "the host environment": ("cat /proc/1/environ /proc/self/environ | tr '\\0' '\\n'",
                             "CANARY"),
    "write the system": ("touch /usr/escaped /etc/escaped 2>&1; ls /usr/escaped && "
                         "echo ESCAPED", "ESCAPED"),
    "a device node": ("mknod /tmp/sda b 8 0 && echo ESCAPED", "ESCAPED"),
    "raw disks": ("ls /dev | grep -E '^(sd|vd|xvd|nvme|hd|loop|mapper|dm-)' && echo DISK",
                  "DISK"),
    # harmless probes: each writes back the value it read (a real escape changes nothing)
    "kernel knobs": ("cat /proc/sys/kernel/core_pattern > /proc/sys/kernel/core_pattern "
                     "&& echo ESCAPED", "ESCAPED"),
    "memory knobs": ("cat /proc/sys/vm/swappiness > /proc/sys/vm/swappiness && echo ESCAPED",
                     "ESCAPED"),
    "root-only files": ("cat {private} 2>/dev/null | head -c 200; echo", "PRIVATE"),
    "the docker socket": ("ls -l /var/run/docker.sock /run/docker.sock 2>&1 | "
                          "grep -v 'No such' && echo SOCKET", "SOCKET"),
    "the host's root through /proc": ("ls /proc/1/root/work /proc/1/root/root 2>&1 | "
                                      "grep -v 'No such' ", "main"),
    "home and keys": ("ls -a /root ~/.ssh /home 2>&1 | grep -v 'No such'", ".ssh"),
    "network": ("timeout 5 bash -c 'echo > /dev/tcp/127.0.0.1/{port}' && echo ESCAPED",
                "ESCAPED"),
    "no new privileges": ("grep NoNewPrivs /proc/self/status", "NoNewPrivs:\t0"),
}
for name in NR["x86_64"]:
    ESCAPES[f"syscall {name}"] = (SYSCALL.format(nr=f"{{nr_{name}}}", args="0, 0, 0, 0, 0"),
                                  "result 0")


@needs_bwrap
@needs_root
def test_no_escape_as_root(tmp_path: pathlib.Path) -> None:
    assert IS_ROOT and HAVE_BWRAP
    import socket

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    server.settimeout(0.1)
    host_sleeper = subprocess.Popen(["sleep", "60"])
    canary = f"toolpipe-canary-{uuid.uuid4().hex}"
    # a file only root may read, holding a marker (a host key, a database's would do)
    secret_dir = pathlib.Path(tempfile.mkdtemp(prefix="toolpipe-private-", dir="/etc"))
    os.chmod(secret_dir, 0o755)
    (secret_dir / "key").write_text("PRIVATE key material")
    os.chmod(secret_dir / "key", 0o600)
    private = str(secret_dir / "key")
    numbers = NR.get(os.uname().machine, NR["x86_64"])
    escaped = []
    try:
        for name, (command, marker) in ESCAPES.items():
            command = command.replace("{port}", str(port)).replace("{private}", private)
            for syscall, nr in numbers.items():
                command = command.replace(f"{{nr_{syscall}}}", str(nr))
            result = bash(tmp_path / "ws", command, TOOLPIPE_TEST_SECRET=canary)
            text = result.text
            if name == "capabilities":
                values = [line.split()[-1] for line in text.splitlines()]
                bad = len(values) != 4 or any(int(v, 16) for v in values)
            elif name == "host processes":
                bad = not text.strip().isdigit() or int(text.strip().splitlines()[-1]) > 10
            elif name == "the host environment":
                bad = canary in text or "TOOLPIPE_TEST_SECRET" in text
            else:
                bad = marker in text
            if bad:
                escaped.append(f"{name}: {text[:300]}")
        # and the host's own state
        try:
            server.accept()
            escaped.append("network: a connection reached the host")
        except TimeoutError:
            pass
        for path in ("/etc/escaped", "/usr/escaped"):
            if os.path.exists(path):
                escaped.append(f"{path} was written")
        assert host_sleeper.poll() is None  # the host's processes are out of reach
        killer = bash(tmp_path / "ws", f"kill -9 {host_sleeper.pid} && echo KILLED")
        assert "KILLED" not in killer.text and host_sleeper.poll() is None
    finally:
        server.close()
        host_sleeper.kill()
        host_sleeper.wait()
        shutil.rmtree(secret_dir)
    assert not escaped, "\n".join(escaped)
    assert len(ESCAPES) >= 30


# --- the file tools -------------------------------------------------------------------------


def tool(workspace: str, name: str, **args: Any) -> Any:
    pipe = ToolPipeline.new(workspace_registry(workspace, sandbox="none"))
    return SimulatedInterpreter().run(pipe.dispatch(DispatchContext(name, args)))


@needs_root
def test_file_tools_do_not_reach_through_hard_links_or_bind_mounts(tmp_path: pathlib.Path
                                                                   ) -> None:
    assert IS_ROOT
    outside, ws = tmp_path / "outside", tmp_path / "ws"
    (outside / "deep").mkdir(parents=True)
    (outside / "secret.txt").write_text("SECRET-OUTSIDE")
    (outside / "deep" / "more.txt").write_text("SECRET-DEEP")
    ws.mkdir()
    (ws / "mine.txt").write_text("mine")
    os.link(outside / "secret.txt", ws / "hard.txt")
    (ws / "mnt").mkdir()
    (ws / "over.txt").write_text("inside")
    mounts = [(outside, ws / "mnt"), (outside / "secret.txt", ws / "over.txt")]
    done = []
    try:
        for source, target in mounts:
            subprocess.run(["mount", "--bind", str(source), str(target)], check=True)
            done.append(target)
        w = str(ws)
        results = {
            "read a hard link": tool(w, "Read", path="hard.txt"),
            "read through a bind-mounted folder": tool(w, "Read", path="mnt/secret.txt"),
            "read a bind-mounted file": tool(w, "Read", path="over.txt"),
            "list a bind-mounted folder": tool(w, "LS", path="mnt"),
            "glob into a bind mount": tool(w, "Glob", pattern="**/*.txt"),
            "grep through everything": tool(w, "Grep", pattern="SECRET"),
            "write into a bind mount": tool(w, "Write", path="mnt/new.txt", content="x"),
            "write over a bind-mounted file": tool(w, "Write", path="over.txt", content="x"),
            "edit through a bind mount": tool(w, "Edit", path="mnt/secret.txt",
                                              old_string="SECRET", new_string="GONE"),
        }
        leaks = {k: r.text for k, r in results.items() if "SECRET-" in r.text
                 or "more.txt" in r.text or "deep" in r.text}
        assert not leaks, leaks
        assert all(r.is_error for k, r in results.items() if not k.startswith(("glob", "grep"))
                   ), {k: r.text for k, r in results.items()}
        assert (outside / "secret.txt").read_text() == "SECRET-OUTSIDE"
        assert not (outside / "new.txt").exists()
        assert tool(w, "Read", path="mine.txt").text == "mine"  # ordinary work goes on
        allowed = ToolPipeline.new(workspace_registry(w, sandbox="none", hard_links=True))
        assert SimulatedInterpreter().run(allowed.dispatch(DispatchContext(
            "Read", {"path": "hard.txt"}))).text == "SECRET-OUTSIDE"  # when allowed
    finally:
        for target in reversed(done):
            subprocess.run(["umount", str(target)], check=False)


# --- no process outlives its call ------------------------------------------------------------


def marked(marker: str) -> list[int]:
    """The processes whose argv[0] is ``marker`` (set with ``exec -a``): a shell whose
    command line merely mentions it, on its way to exec, is not one."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if f.read().split(b"\0", 1)[0] == marker.encode():
                    found.append(int(pid))
        except OSError:
            continue
    return found


BACKGROUND = ("exec -a {m} sleep 300 & (exec -a {m} sleep 300 &) ; "
              "setsid bash -c 'exec -a {m} sleep 300' & "
              "nohup bash -c 'exec -a {m} sleep 300' >/dev/null 2>&1 & disown; "
              "bash -c '(exec -a {m} sleep 300 &) &' ; echo started")


@pytest.mark.parametrize("sandbox", ["required", "none", "none, the Python subreaper"])
def test_no_process_of_a_call_survives_it(tmp_path: pathlib.Path, sandbox: str,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    if sandbox.startswith("none, "):  # the fallback where there is no perl
        from interpreters import _processes

        monkeypatch.setattr(_processes, "reaper",
                            lambda: [sys.executable, "-I", "-S", _processes.REAPER])
        sandbox = "none"
    if sandbox == "required" and not HAVE_BWRAP:
        assert not CI, "bwrap is missing: .ci/run installs bubblewrap"
        pytest.skip("bwrap is not installed")
    marker = f"tp-marker-{uuid.uuid4().hex[:12]}"
    result = bash(tmp_path / "ws", BACKGROUND.format(m=marker), sandbox=sandbox)
    assert result.text == "started", result.text
    deadline = time.monotonic() + 5
    while marked(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marked(marker) == []


def test_the_count_can_fail(tmp_path: pathlib.Path) -> None:
    """Without the subreaper (contain=False) a background job outlives its call: the
    marker count above sees it."""
    marker = f"tp-marker-{uuid.uuid4().hex[:12]}"
    effect = RunProcess(("bash", "-c", f"(exec -a {marker} sleep 300 >/dev/null 2>&1 &) ; "
                                       "echo started"),
                        str(tmp_path), 10, contain=False)
    SimulatedInterpreter().run(_one(effect))
    try:  # the job may not have reached its exec yet on a busy machine: wait for it
        deadline = time.monotonic() + 10
        while not marked(marker) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert marked(marker)
    finally:
        for pid in marked(marker):
            os.kill(pid, signal.SIGKILL)


def _one(effect: RunProcess) -> Any:
    return (yield effect)


def test_a_host_killed_mid_call_leaves_no_process(tmp_path: pathlib.Path) -> None:
    """The interpreter's process dies (SIGTERM, then SIGKILL) while a command runs: the
    subreaper's parent-death signal stops everything the command started."""
    tag = uuid.uuid4().hex[:12]
    marker = f"tpm{tag}"  # only the sleeps carry it: the command spells it "tpm$X"
    script = (
        "import asyncio, sys\n"
        "from interpreters.asyncio import AsyncioInterpreter\n"
        "from toolpipe import DispatchContext, ToolPipeline\n"
        "from toolpipe.tools import workspace_registry\n"
        f"p = ToolPipeline.new(workspace_registry({str(tmp_path)!r}, sandbox='none'))\n"
        f"cmd = 'X={tag}; setsid bash -c \"exec -a tpm$X sleep 300\" & "
        "exec -a tpm$X sleep 300'\n"
        "asyncio.run(AsyncioInterpreter().run(p.dispatch(DispatchContext('Bash', "
        "{'command': cmd}))))\n")
    host = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT)
    deadline = time.monotonic() + 20
    while len(marked(marker)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(marked(marker)) == 2
    host.kill()  # SIGKILL: no handler of the host runs
    host.wait()
    deadline = time.monotonic() + 5
    while marked(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marked(marker) == []
