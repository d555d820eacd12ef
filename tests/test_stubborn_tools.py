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
