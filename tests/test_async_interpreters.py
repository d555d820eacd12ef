"""asyncio and trio: real time, real cancellation, nothing leaks."""

import asyncio
import sys
import threading
import time

import pytest
import trio
from returns.result import Failure, Success

from interpreters.asyncio import AsyncioInterpreter
from interpreters.trio import TrioInterpreter
from toolpipe import CancelSignal, DispatchContext, Tool, ToolPipeline, ToolRegistry
from toolpipe.effects import (
    Expired,
    Interrupted,
    Now,
    ProcessResult,
    RunProcess,
    Sleep,
    WithDeadline,
)

from .helpers import run_program


def deadline_around(seconds, body, signal=None):
    return (yield WithDeadline(seconds, body, signal))


def test_asyncio_timed_out_coroutine_tool_is_cancelled_and_nothing_leaks():
    events = []

    async def slow(input, context):
        try:
            await asyncio.sleep(5)
            events.append("finished")
        except asyncio.CancelledError:
            events.append("cancelled")
            raise
        return "late"

    p = ToolPipeline.new(ToolRegistry([Tool.from_function("slow", slow)]))

    async def main():
        before = set(asyncio.all_tasks())
        answer = await AsyncioInterpreter().run(
            deadline_around(0.03, lambda: p.dispatch(DispatchContext("slow")))
        )
        await asyncio.sleep(0)
        leaked = set(asyncio.all_tasks()) - before
        return answer, leaked

    start = time.perf_counter()
    answer, leaked = asyncio.run(main())
    assert answer == Failure(Expired(0.03))
    assert events == ["cancelled"] and leaked == set()
    assert time.perf_counter() - start < 1


def test_trio_timed_out_tool_is_cancelled_and_nothing_leaks():
    events = []

    async def slow(input, context):
        try:
            await trio.sleep(5)
        except trio.Cancelled:
            events.append("cancelled")
            raise
        return "late"

    p = ToolPipeline.new(ToolRegistry([Tool.from_function("slow", slow)]))

    async def main():
        before = trio.lowlevel.current_statistics().tasks_living
        answer = await TrioInterpreter().run(
            deadline_around(0.03, lambda: p.dispatch(DispatchContext("slow")))
        )
        return answer, trio.lowlevel.current_statistics().tasks_living - before

    answer, leaked = trio.run(main)
    assert answer == Failure(Expired(0.03)) and events == ["cancelled"]
    assert leaked == 0


@pytest.mark.parametrize("kind", ["asyncio", "trio"])
def test_program_tool_cleanup_runs_on_expiry(kind):
    cleaned = []

    def tool(input, context):
        try:
            yield Sleep(5)
        finally:
            cleaned.append(True)
        return "x"

    p = ToolPipeline.new(ToolRegistry([Tool.from_function("t", tool)]))
    answer = run_program(
        kind, lambda: deadline_around(0.02, lambda: p.dispatch(DispatchContext("t")))
    )
    assert answer == Failure(Expired(0.02)) and cleaned == [True]


@pytest.mark.parametrize("kind", ["asyncio", "trio"])
def test_nested_deadlines_on_real_clocks(kind):
    def inner():
        return (yield WithDeadline(0.02, lambda: sleeping(1)))

    def sleeping(s):
        yield Sleep(s)
        return "x"

    answer = run_program(kind, lambda: deadline_around(5.0, inner))
    assert answer == Success(Failure(Expired(0.02)))
    loose = run_program(
        kind, lambda: deadline_around(0.02, lambda: deadline_around(5.0, lambda: sleeping(1)))
    )
    assert loose == Failure(Expired(0.02))


@pytest.mark.parametrize("kind", ["asyncio", "trio"])
def test_a_value_that_comes_after_the_deadline_is_late(kind):
    """A tool that holds the loop past its deadline (no timer runs until it yields) comes
    back with a value after the deadline: the deadline wins, as on the simulated clock
    (a latency equal to the deadline expires there), so a recording replays as it ran."""
    async def late(input, context):
        time.sleep(0.03)  # holds the loop: the deadline's timer cannot run meanwhile
        return "late"

    p = ToolPipeline.new(ToolRegistry([Tool.from_function("t", late)]))
    answer = run_program(
        kind, lambda: deadline_around(0.005, lambda: p.dispatch(DispatchContext("t"))))
    assert answer == Failure(Expired(0.005))


@pytest.mark.parametrize("kind", ["asyncio", "trio"])
def test_cancel_signal_from_another_thread_interrupts(kind):
    signal = CancelSignal()

    def sleeping():
        yield Sleep(5)
        return "x"

    timer = threading.Timer(0.03, signal.cancel)
    timer.start()
    start = time.perf_counter()
    answer = run_program(kind, lambda: deadline_around(None, sleeping, signal))
    timer.join()
    assert answer == Failure(Interrupted())
    assert time.perf_counter() - start < 1


@pytest.mark.parametrize("kind", ["asyncio", "trio"])
def test_cancelled_while_running_coroutine_tool(kind):
    signal = CancelSignal()

    async def slow(input, context):
        if kind == "asyncio":
            await asyncio.sleep(5)
        else:
            await trio.sleep(5)
        return "late"

    p = ToolPipeline.new(ToolRegistry([Tool.from_function("slow", slow)]))
    timer = threading.Timer(0.03, signal.cancel)
    timer.start()
    r = run_program(kind, lambda: p.dispatch(DispatchContext("slow", cancel=signal)))
    timer.join()
    assert r.is_error and r.text == "Tool 'slow' cancelled" and r.duration < 1


@pytest.mark.parametrize("kind", ["asyncio", "trio"])
def test_blocking_tool_runs_in_a_thread_and_is_abandoned_on_timeout(kind):
    release = threading.Event()

    def blocking(input, context):
        release.wait(2)
        return "done"

    p = ToolPipeline.new(ToolRegistry([Tool.from_function("b", blocking, blocking=True)]))

    def timed():
        start = yield Now()
        answer = yield from deadline_around(0.03, lambda: p.dispatch(DispatchContext("b")))
        spent = (yield Now()) - start
        release.set()  # (asyncio.run waits for abandoned worker threads at shutdown)
        return answer, spent

    answer, spent = run_program(kind, timed)
    assert answer == Failure(Expired(0.03)) and spent < 1
    ok = run_program(kind, lambda: p.dispatch(DispatchContext("b")))
    assert ok.text == "done"


@pytest.mark.parametrize("kind", ["simulated", "asyncio", "trio"])
def test_run_process(kind):
    def prog():
        return (yield RunProcess([sys.executable, "-c", "print('hi')"], ".", 10))

    answer = run_program(kind, prog)
    assert answer == Success(ProcessResult(0, "hi\n", ""))

    def slow():
        return (yield RunProcess([sys.executable, "-c", "import time; time.sleep(5)"], ".", 0.2))

    failed = run_program(kind, slow)
    assert failed == Failure("command timed out after 0.2s")

    def missing():
        return (yield RunProcess(["/nonexistent/binary"], ".", 1))

    assert "could not run" in run_program(kind, missing).failure()


def test_asyncio_many_concurrent_dispatches():
    def tool(input, context):
        yield Sleep(0.01)
        return input["i"]

    p = ToolPipeline.new(ToolRegistry([Tool.from_function("t", tool)]))

    async def main():
        interp = AsyncioInterpreter()
        return await asyncio.gather(
            *(interp.run(p.dispatch(DispatchContext("t", {"i": str(i)}))) for i in range(200))
        )

    start = time.perf_counter()
    results = asyncio.run(main())
    assert [r.text for r in results] == [str(i) for i in range(200)]
    assert time.perf_counter() - start < 2


@pytest.mark.process
def test_an_abandoned_worker_thread_never_delays_shutdown():
    """A blocking tool still running after its deadline does not keep asyncio.run (and so
    the program) waiting for it."""
    def stuck(input, context):
        time.sleep(3)
        return "late"

    p = ToolPipeline.new(ToolRegistry([Tool.from_function("b", stuck, blocking=True)]))

    def timed():
        return (yield from deadline_around(0.1, lambda: p.dispatch(DispatchContext("b"))))

    start = time.perf_counter()
    answer = run_program("asyncio", timed)
    assert answer == Failure(Expired(0.1))
    assert time.perf_counter() - start < 2  # not the tool's 3 s


@pytest.mark.process
@pytest.mark.parametrize("kind", ["asyncio", "trio"])
def test_a_plain_sync_tool_cannot_outlast_its_deadline(kind):
    """A plain function that sleeps runs off the event loop by default: the deadline fires
    on time (before, it blocked the loop for the whole sleep)."""
    def sleepy(input, context):
        time.sleep(1.5)
        return "late"

    p = ToolPipeline.new(ToolRegistry([Tool.from_function("s", sleepy)]))

    def timed():
        start = yield Now()
        answer = yield from deadline_around(0.2, lambda: p.dispatch(DispatchContext("s")))
        return answer, (yield Now()) - start

    answer, spent = run_program(kind, timed)
    assert answer == Failure(Expired(0.2)) and spent < 1.0  # not the 1.5 s sleep


def test_inline_tools_keep_the_fast_path():
    tool = Tool.from_function("q", lambda input, context: "quick", inline=True)
    assert tool.inline and not Tool.from_function("q", lambda i, c: "x").inline
    assert not Tool.from_function("q", lambda i, c: "x", blocking=True, inline=True).inline


@pytest.mark.parametrize("kind", ["asyncio", "trio"])
@pytest.mark.parametrize("blocking", [True, False])
def test_a_request_that_cannot_block_is_sent_from_the_loop(kind, blocking):
    """An async client's send only makes a coroutine: no thread hop for it (the MCP
    integration's requests); a sync client's send may block: a worker thread."""
    import threading

    from toolpipe.effects import Request

    seen = []

    async def answer():
        return "ok"

    def send():
        seen.append(threading.current_thread() is threading.main_thread())
        return answer()

    def program():
        return (yield Request(send, label="test", blocking=blocking))

    outcome = run_program(kind, program)
    assert outcome.value.unwrap() == "ok" and seen == [not blocking]
