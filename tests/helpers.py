"""Shared test helpers: tools with known latencies and a way to run a program on every
interpreter."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import trio

from interpreters.asyncio import AsyncioInterpreter
from interpreters.simulated import SimulatedInterpreter
from interpreters.trio import TrioInterpreter
from toolpipe import DispatchContext, Tool, ToolPipeline, ToolRegistry
from toolpipe.effects import Sleep

INTERPRETERS = ("simulated", "asyncio", "trio")


def sleeper(latency: float, output: str = "done") -> Callable[..., Any]:
    """A program tool that takes ``latency`` seconds on the interpreter's clock."""

    def tool(input: Any, context: Any) -> Any:
        yield Sleep(latency)
        return output

    return tool


def registry(**tools: Callable[..., Any]) -> ToolRegistry:
    reg = ToolRegistry()
    for name, fn in tools.items():
        reg.register(Tool.from_function(name, fn))
    return reg


def echo(input: Any, context: Any) -> str:
    return str(input.get("text", ""))


def run_program(kind: str, make: Callable[[], Any], interpreter: Any = None) -> Any:
    """Run ``make()`` (a program) on the named interpreter; returns its result."""
    if kind == "simulated":
        return (interpreter or SimulatedInterpreter()).run(make())
    if kind == "asyncio":
        async def main() -> Any:
            return await (interpreter or AsyncioInterpreter()).run(make())

        return asyncio.run(main())

    async def tmain() -> Any:
        return await (interpreter or TrioInterpreter()).run(make())

    return trio.run(tmain)


def dispatch(kind: str, pipeline: ToolPipeline, ctx: DispatchContext, interpreter: Any = None
             ) -> Any:
    return run_program(kind, lambda: pipeline.dispatch(ctx), interpreter)
