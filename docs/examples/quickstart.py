"""The README tour: a registry, a pipeline, and the same call on two interpreters."""

import asyncio

from interpreters.asyncio import AsyncioInterpreter
from interpreters.simulated import SimulatedInterpreter
from toolpipe import (
    DispatchContext,
    OutputLimitMiddleware,
    PermissionCheck,
    PermissionMiddleware,
    TimeoutMiddleware,
    ToolPipeline,
    ToolRegistry,
)
from toolpipe.effects import Sleep

registry = ToolRegistry()


@registry.tool("Read", concurrency_safe=True)
def read(input, context):
    """Read a (pretend) file."""
    return "line\n" * 1000


@registry.tool("Slow")
def slow(input, context):
    yield Sleep(300)  # a program tool: five minutes on whatever clock runs it
    return "finally"


def policy(ctx):
    if ctx.tool_name == "rm":
        return PermissionCheck.deny("destructive in this session")
    return PermissionCheck.allow()


pipeline = (
    ToolPipeline.builder()
    .with_middleware(PermissionMiddleware.from_context().with_check(policy))
    .with_middleware(TimeoutMiddleware.from_secs(30))
    .with_middleware(OutputLimitMiddleware(200))
    .with_core(registry)
    .build()
)
print(pipeline.middleware_names())

# Production: asyncio.
result = asyncio.run(AsyncioInterpreter().run(pipeline.dispatch(DispatchContext("Read"))))
print(len(result.text), repr(result.text[-12:]))

# Tests: the same pipeline on a virtual clock; the 30 s timeout costs microseconds.
sim = SimulatedInterpreter()
timed_out = sim.run(pipeline.dispatch(DispatchContext("Slow")))
print(timed_out.text, "at virtual t =", sim.now)
denied = sim.run(pipeline.dispatch(DispatchContext("rm")))
print(denied.text)

assert len(result.text) == 200 and result.text.endswith("\n[truncated]")
assert timed_out.text == "Tool 'Slow' timed out after 30s" and sim.now == 30
assert denied.text == "Permission destructive in this session for tool 'rm'"
