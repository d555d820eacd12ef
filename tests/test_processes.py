"""A command always ends: its own process group, stopped whole on a timeout or a
cancellation (no process of ours is left), and output capped as it is read."""

from __future__ import annotations

import os
import pathlib
import shutil
import time

import pytest
from returns.result import Failure, Success

from interpreters import _processes as processes
from toolpipe.effects import RunProcess, WithDeadline

from .helpers import run_program

pytestmark = pytest.mark.process
KINDS = ("asyncio", "trio", "simulated")


def alive(pid: int) -> bool:
    """Is the process there and not a zombie (a zombie is dead, only not reaped yet)?"""
    try:
        state = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


def pids(folder: pathlib.Path) -> list[int]:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # the files are written by the command itself
        try:
            return [int((folder / name).read_text()) for name in ("leader", "child")]
        except (FileNotFoundError, ValueError):
            time.sleep(0.01)
    raise AssertionError("the command did not start")


def settled(pid_list: list[int]) -> bool:
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        if not any(alive(p) for p in pid_list):
            return True
        time.sleep(0.02)
    return False


SCRIPT = "echo $$ > leader; sleep 300 & echo $! > child; wait; echo never"


@pytest.mark.parametrize("kind", KINDS)
def test_a_timed_out_command_leaves_no_process(kind, tmp_path):
    def program():
        return (yield RunProcess(("bash", "-c", SCRIPT), str(tmp_path), 0.5))

    answer = run_program(kind, program)
    assert answer == Failure("command timed out after 0.5s")
    assert settled(pids(tmp_path))


@pytest.mark.parametrize("kind", ["asyncio", "trio"])
def test_a_cancelled_command_leaves_no_process(kind, tmp_path):
    def program():
        return (yield WithDeadline(0.5, lambda: inner()))

    def inner():
        return (yield RunProcess(("bash", "-c", SCRIPT), str(tmp_path), 60.0))

    answer = run_program(kind, program)
    assert not isinstance(answer, Success) or not isinstance(answer.unwrap(), Success)
    assert settled(pids(tmp_path))


@pytest.mark.parametrize("kind", KINDS)
def test_endless_output_is_capped_and_the_command_still_ends(kind, tmp_path):
    def program():
        return (yield RunProcess(("bash", "-c", "head -c 6000000 /dev/zero | tr '\\0' x"),
                                 str(tmp_path), 30.0))

    answer = run_program(kind, program)
    assert isinstance(answer, Success)
    out = answer.unwrap().stdout
    dropped = 6_000_000 - processes.MAX_OUTPUT
    assert out.startswith("x" * 1000)
    assert out.endswith(f"\n[… {dropped:,} bytes of output dropped]")
    assert len(out) < processes.MAX_OUTPUT + 100


@pytest.mark.parametrize("kind", KINDS)
def test_yes_under_a_deadline_ends_on_time(kind, tmp_path):
    def program():
        return (yield RunProcess(("bash", "-c", "yes"), str(tmp_path), 0.2))

    start = time.monotonic()
    assert run_program(kind, program) == Failure("command timed out after 0.2s")
    assert time.monotonic() - start < 5  # generous: the deadline is 0.2 s, the grace 0.5 s
    # (it times out whatever the speed: 'yes' never ends; a short deadline, less CPU burnt)


@pytest.mark.parametrize("kind", KINDS)
def test_no_standard_input(kind, tmp_path):
    def program():
        return (yield RunProcess(("bash", "-c", "cat; echo done"), str(tmp_path), 5.0))

    answer = run_program(kind, program)
    assert isinstance(answer, Success) and answer.unwrap().stdout == "done\n"


def test_the_checks_can_fail():
    assert alive(os.getpid())
    assert not alive(2**22 + 12345)


def test_a_call_cancelled_at_any_moment_of_its_start_ends_and_leaves_nothing(tmp_path):
    """Cancelled between the fork and the pipes' connection, asyncio's subprocess
    transport killed the process alone and waited for its pipes; a child of it holding
    them (bubblewrap's PID 1) made that wait endless: the suite hung twice. The interpreter
    now starts processes itself (no await before the code that stops the group). The
    window was a millisecond wide, so this is a property over cancellation points rather
    than a replay: whenever the cancellation lands, the call ends and nothing survives."""
    import asyncio
    import uuid

    from interpreters.asyncio import AsyncioInterpreter

    marker = f"299.{uuid.uuid4().int % 10**9:09d}"
    script = f"sleep {marker} & sleep {marker} & wait"

    async def once(yields: int, delay: float) -> None:
        interp = AsyncioInterpreter()
        effect = RunProcess(("bash", "-c", script), str(tmp_path), 60.0, contain=False)
        task = asyncio.ensure_future(interp._process(effect))
        for _ in range(yields):
            await asyncio.sleep(0)
        if delay:
            await asyncio.sleep(delay)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    async def all_points() -> None:
        for yields in range(4):
            for delay in (0.0, 0.001, 0.003, 0.01, 0.03):
                await asyncio.wait_for(once(yields, delay), 10)

    asyncio.run(all_points())

    def survivors() -> list[int]:
        found = []
        for entry in pathlib.Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    if marker.encode() in (entry / "cmdline").read_bytes() \
                            and alive(int(entry.name)):
                        found.append(int(entry.name))
                except OSError:
                    continue
        return found

    deadline = time.monotonic() + 3
    while survivors() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert survivors() == []


# A command that ignores SIGTERM and leaves a descendant in a session of its own, both
# writing to a file as fast as they can: once its call has answered (timed out or
# cancelled), the file must not grow. Killing the group and answering at once let the
# rest of the tree run on for a moment (a sandbox's PID namespace dies after its
# bubblewrap; a descendant outside the group dies when the reaper gets to it): the demo
# session's workspace was deleted under a command still writing into it (a CI failure).
STUBBORN = ("trap '' TERM; (setsid bash -c 'trap \"\" TERM; "
            "while :; do echo x >> log; done' &); while :; do echo y >> log; done")


def stubborn(folder: pathlib.Path, sandboxed: bool, timeout: float) -> RunProcess:
    argv: tuple[str, ...] = ("bash", "-c", STUBBORN)
    if not sandboxed:
        return RunProcess(argv, str(folder), timeout)
    from toolpipe import sandbox

    if shutil.which("bwrap") is None and not os.environ.get("CI"):
        pytest.skip("bwrap is not installed")
    return RunProcess(sandbox.bwrap_argv(str(folder), argv, seccomp=False), str(folder),
                      timeout)  # as the workspace's Bash runs it: under the subreaper


def _yielding(effect: RunProcess):  # a program that runs the one effect
    return (yield effect)


def still(log: pathlib.Path) -> bool:
    """Nothing writes to ``log`` any more (it exists: the command did run)."""
    assert log.exists(), "the command did not start"
    size = log.stat().st_size
    time.sleep(0.2)
    return log.stat().st_size == size


@pytest.mark.parametrize("sandboxed", [False, True], ids=["reaper", "bwrap"])
@pytest.mark.parametrize("kind", KINDS)
def test_nothing_of_a_timed_out_command_runs_once_it_has_answered(kind, sandboxed, tmp_path):
    # 0.3 s to start and write, doubled while it had not started by then (a loaded
    # machine took longer once): what is asserted needs a command that did run
    for timeout in (0.3, 0.6, 1.2, 2.4, 4.8):
        effect = stubborn(tmp_path, sandboxed, timeout)
        assert run_program(kind, lambda e=effect: _yielding(e)) == Failure(
            f"command timed out after {timeout:g}s")
        if (tmp_path / "log").exists():
            break
    assert still(tmp_path / "log")


@pytest.mark.parametrize("sandboxed", [False, True], ids=["reaper", "bwrap"])
@pytest.mark.parametrize("kind", ["asyncio", "trio"])
def test_nothing_of_a_cancelled_command_runs_once_it_has_answered(kind, sandboxed, tmp_path):
    """Cancelled from outside once the command is writing (not at a fixed time: the first
    sandboxed start scans the system folders, which takes a while on a slow machine)."""
    import asyncio

    import trio

    from interpreters.asyncio import AsyncioInterpreter
    from interpreters.trio import TrioInterpreter

    effect = stubborn(tmp_path, sandboxed, 60.0)
    log = tmp_path / "log"

    def program():
        return (yield effect)

    async def on_asyncio() -> None:
        task = asyncio.ensure_future(AsyncioInterpreter().run(program()))
        for _ in range(1000):
            if log.exists() or task.done():
                break
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    async def on_trio() -> None:
        with trio.CancelScope() as scope:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(TrioInterpreter().run, program())
                for _ in range(1000):
                    if log.exists():
                        break
                    await trio.sleep(0.01)
                scope.cancel()
        assert scope.cancelled_caught

    if kind == "asyncio":
        asyncio.run(on_asyncio())
    else:
        trio.run(on_trio)
    assert still(log)


@pytest.mark.parametrize("kind", ["asyncio", "trio"])
def test_the_sandbox_masks_are_found_off_the_event_loop(kind, tmp_path, monkeypatch):
    """Finding what a root caller's sandbox masks runs ``find`` over the system folders
    (milliseconds each call; a large part of a second the first time): on the loop it
    stalled every other call. It runs on a worker; the command gets what it found."""
    import threading

    from toolpipe.sandbox import ROOT_MASKS

    seen: list[int] = []

    def masks() -> tuple[str, ...]:
        seen.append(threading.get_ident())
        return ("x",)

    monkeypatch.setattr(processes, "root_masks", masks)

    def program():
        return (yield RunProcess(("bash", "-c", 'echo "$0"', ROOT_MASKS), str(tmp_path), 10))

    answer = run_program(kind, program)
    assert answer == Success(processes.ProcessResult(0, "x\n", ""))
    assert seen and seen[0] != threading.get_ident()  # the loop runs on this thread


def test_waiting_for_a_command_s_end_does_not_spin_once_its_leader_exited():
    """The leader has exited (its pidfd stays readable from then on) while a child still
    holds the pipes for a while: the wait watches the pipes alone, it does not spin on
    the pidfd (the first version of the bounded wait burnt a core for its whole length)."""
    import asyncio
    import subprocess

    from interpreters.asyncio import _ended

    async def main() -> tuple[bool, float]:
        proc = subprocess.Popen(["bash", "-c", "sleep 0.3 & sleep 0.05"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL)
        before = time.process_time()
        ended = await _ended(asyncio.get_running_loop(), proc)  # within GRACE: 0.5 s
        return ended, time.process_time() - before

    ended, cpu = asyncio.run(main())
    assert ended
    assert cpu < 0.1  # a spin for the child's 0.3 s would take about all of it
