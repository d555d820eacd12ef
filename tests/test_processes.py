"""A command always ends: its own process group, stopped whole on a timeout or a
cancellation (no process of ours is left), and output capped as it is read."""

from __future__ import annotations

import os
import pathlib
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
