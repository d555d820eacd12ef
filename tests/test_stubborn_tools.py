"""A tool that swallows its cancellation: the deadline still answers on time, and the value
it returns late is dropped, never reported as success (asyncio and trio)."""

from __future__ import annotations

import asyncio
import threading
import time

import trio

from interpreters.asyncio import AsyncioInterpreter
from interpreters.trio import TrioInterpreter
from toolpipe import CancelSignal, DispatchContext, TimeoutMiddleware, ToolPipeline, ToolRegistry
from toolpipe.failures import Cancelled, TimedOut

DEADLINE = 0.03


def pipeline(tool) -> ToolPipeline:
    registry = ToolRegistry()
    registry.tool("stubborn")(tool)
    return ToolPipeline.builder().with_middleware(
        TimeoutMiddleware.from_secs(DEADLINE)).with_core(registry).build()


async def asyncio_stubborn(input, context):
    try:
        await asyncio.sleep(30)
    except asyncio.CancelledError:
        # swallowed, and it keeps going: without the fix the caller waits these 30 s
        await asyncio.sleep(30)
        return "late value"
    return "on time"


async def asyncio_swallows_and_returns(input, context):
    try:
        await asyncio.sleep(30)
    except asyncio.CancelledError:
        return "late value"
    return "on time"


async def trio_swallows_and_returns(input, context):
    try:
        await trio.sleep(30)
    except trio.Cancelled:
        return "late value"
    return "on time"


def run_asyncio(tool, ctx: DispatchContext):
    async def main():
        return await AsyncioInterpreter().run(pipeline(tool).dispatch(ctx))
    return asyncio.run(main())


def test_asyncio_deadline_answers_on_time_whatever_the_tool_does():
    start = time.perf_counter()
    result = run_asyncio(asyncio_stubborn, DispatchContext("stubborn"))
    took = time.perf_counter() - start
    assert isinstance(result.cause, TimedOut) and "late value" not in result.text
    assert took < 5  # the tool would hold it 30 s; on time is DEADLINE plus a little


def test_asyncio_late_value_is_dropped():
    result = run_asyncio(asyncio_swallows_and_returns, DispatchContext("stubborn"))
    assert isinstance(result.cause, TimedOut) and result.text != "late value"


def test_trio_late_value_is_dropped():
    async def main():
        return await TrioInterpreter().run(
            pipeline(trio_swallows_and_returns).dispatch(DispatchContext("stubborn")))
    result = trio.run(main)
    assert isinstance(result.cause, TimedOut) and result.text != "late value"


def test_a_swallowed_cancel_signal_is_still_a_cancellation():
    signal = CancelSignal()
    threading.Timer(DEADLINE / 3, signal.cancel).start()
    registry = ToolRegistry()
    registry.tool("stubborn")(asyncio_swallows_and_returns)

    async def main():
        return await AsyncioInterpreter().run(
            ToolPipeline.new(registry).dispatch(DispatchContext("stubborn", cancel=signal)))
    result = asyncio.run(main())
    assert isinstance(result.cause, Cancelled) and result.text != "late value"


# --- a coroutine tool is stepped in its caller's task (no task of its own) -------------------


def test_a_cancelled_tool_finishes_a_short_cleanup_before_the_call_answers():
    """What a tool does after its cancellation (an MCP client telling its server) runs to
    its end when it is quick: the call answers after it, not in the middle."""
    steps: list[str] = []

    async def tidy(input, context):
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            steps.append("cancelled")
            await asyncio.sleep(0.005)
            steps.append("told the server")
            raise
        return "on time"

    result = run_asyncio(tidy, DispatchContext("stubborn"))
    assert isinstance(result.cause, TimedOut)
    assert steps == ["cancelled", "told the server"]


def test_a_tool_that_waits_on_after_its_grace_is_closed_where_it_stands():
    closed: list[bool] = []

    async def clinging(input, context):
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            try:
                await asyncio.sleep(30)  # swallowed, and it waits on
            finally:
                closed.append(True)
        return "late value"

    start = time.perf_counter()
    result = run_asyncio(clinging, DispatchContext("stubborn"))
    assert isinstance(result.cause, TimedOut) and "late value" not in result.text
    assert closed == [True]  # its finally ran: nothing is left running
    assert time.perf_counter() - start < 5


def test_a_closed_tool_leaves_its_callers_anyio_scopes_as_they_were():
    """A tool's anyio cancel scopes are entered in the caller's task; closing a tool that
    overstays its grace exits them there, so the caller's own scopes still work."""
    import anyio

    async def shielded(input, context):
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            with anyio.CancelScope(shield=True):
                await asyncio.sleep(30)  # a cleanup that never ends
        return "late value"

    async def main():
        async with anyio.create_task_group() as group:  # the caller's own scope
            result = await AsyncioInterpreter().run(
                pipeline(shielded).dispatch(DispatchContext("stubborn")))
            with anyio.CancelScope():
                await anyio.sleep(0)
            group.start_soon(anyio.sleep, 0)
        return result

    result = asyncio.run(main())
    assert isinstance(result.cause, TimedOut) and "late value" not in result.text


def test_memory_per_in_flight_dispatch_under_a_timeout():
    """The figure issue 30 asks for (<= 6 KB; benchmarks.peers measures it with 10,000):
    Python allocations while 2,000 dispatches wait inside a coroutine tool, each under a
    timeout and an output cap."""
    import gc
    import tracemalloc

    from toolpipe import OutputLimitMiddleware, Tool

    async def main() -> float:
        gate = asyncio.Event()

        async def gated(input, context):
            await gate.wait()
            return "x" * 2048

        registry = ToolRegistry([Tool.from_function("read", gated, inline=True)])
        p = (ToolPipeline.builder().with_middleware(TimeoutMiddleware.from_secs(30))
             .with_middleware(OutputLimitMiddleware(1024)).with_core(registry).build())
        interp = AsyncioInterpreter()

        async def call(i: int) -> str:
            return (await interp.run(p.dispatch(DispatchContext("read", {"path": f"f{i}"})))).text

        warm = [asyncio.ensure_future(call(-1 - i)) for i in range(50)]
        for _ in range(20):
            await asyncio.sleep(0)
        gc.collect()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        tasks = [asyncio.ensure_future(call(i)) for i in range(2000)]
        for _ in range(20):
            await asyncio.sleep(0)
        used = tracemalloc.get_traced_memory()[0] - base
        tracemalloc.stop()
        gate.set()
        assert len(await asyncio.gather(*tasks, *warm)) == 2050
        return used / 2000

    per_dispatch = asyncio.run(main())
    assert per_dispatch <= 6 * 1024, f"{per_dispatch:.0f} bytes per in-flight dispatch"
