"""``toolpipe mcp-proxy``: an MCP server over stdio that puts a pipeline in front of another.

It starts the upstream server (``COMMAND ARGS…``, over stdio), lists its tools unchanged,
and runs every ``tools/call`` through the pipeline on the asyncio interpreter: timeouts,
permission, the output cap, did-you-mean, memoize, redaction, the shield on shell-like
tools. A cancellation from the client cancels the call (and so the request upstream). When
the upstream dies, the client gets an error result saying so, and the proxy exits with a
message on stderr. With ``record``, the session is written in the trace format of
``toolpipe run --record`` (redacted), so ``toolpipe replay`` replays it.

This module performs I/O (processes, stdio): it lives with the interpreters.
"""

from __future__ import annotations

import contextlib
import itertools
import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio

from interpreters.asyncio import AsyncioInterpreter
from toolpipe.agent import CallFinished, ToolCall, TurnPlanned
from toolpipe.config import load_pipeline
from toolpipe.context import DispatchContext
from toolpipe.effects import Emit
from toolpipe.failures import ToolFailed
from toolpipe.integrations.mcp import registry_from_tools, to_mcp


@contextlib.asynccontextmanager
async def _connect(command: list[str], url: str | None) -> AsyncIterator[Any]:
    """A session with the upstream: its command over stdio, or its streamable-HTTP URL."""
    from mcp import ClientSession, StdioServerParameters

    if url is not None:
        from mcp.client.streamable_http import streamablehttp_client

        async with streamablehttp_client(url) as (read, write, _), \
                ClientSession(read, write) as session:
            yield session
        return
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=command[0], args=command[1:])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        yield session


async def serve(command: list[str], pipeline_text: str, source: str,
                record: str | None = None, url: str | None = None) -> int:
    import mcp.types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    if url is not None:
        command = [url]
    async with _connect(command, url) as upstream:
        await upstream.initialize()
        listed = await upstream.list_tools()
        registry = registry_from_tools(_Upstream(upstream, types), listed.tools)
        pipeline = load_pipeline(pipeline_text, registry, source=source).with_core(
            registry).build()
        recorder = None
        if record is not None:
            from interpreters.recording import TraceRecorder

            recorder = TraceRecorder.open(record, interpreter="asyncio",
                                          pipeline=pipeline.middleware_names(),
                                          pipeline_text=pipeline_text,
                                          tools=registry.declarations())
        interpreter = AsyncioInterpreter(recorder=recorder)
        server: Any = Server("toolpipe-mcp-proxy")
        ids = itertools.count(1)
        dead = anyio.Event()

        # the tools as the upstream lists them, but for their output schemas: the layers
        # rewrite outputs (redaction, the cap, a verdict), so the proxy answers in content
        # blocks and promises no structured shape the rewritten output may not keep
        shown = [t.model_copy(update={"outputSchema": None}) for t in listed.tools]

        @server.list_tools()  # type: ignore[untyped-decorator]
        async def list_tools() -> list[types.Tool]:
            return shown

        @server.call_tool(validate_input=False)  # type: ignore[untyped-decorator]
        async def call_tool(name: str, arguments: dict[str, Any] | None) -> Any:
            turn = next(ids)
            ctx = DispatchContext(name, arguments or {}, call_id=f"mcp-{turn}",
                                  turn_number=turn)
            result = await interpreter.run(_one_call(pipeline, ctx))
            # a failed call may mean the upstream is gone: ask it (a ping), not the text
            if isinstance(result.cause, ToolFailed) and not await _alive(upstream):
                dead.set()
                return types.CallToolResult(
                    content=[types.TextContent(type="text", text=(
                        f"the upstream MCP server ({command[0]}) exited; toolpipe's proxy "
                        "is stopping"))], isError=True)
            return types.CallToolResult(**to_mcp(result))

        try:
            async with stdio_server() as (read, write), anyio.create_task_group() as group:
                async def watch() -> None:
                    await dead.wait()
                    await anyio.sleep(0.2)  # let the answer reach the client
                    print(f"toolpipe mcp-proxy: the upstream server ({' '.join(command)}) "
                          "exited; stopping", file=sys.stderr)
                    group.cancel_scope.cancel()

                group.start_soon(watch)
                await server.run(read, write, server.create_initialization_options())
                group.cancel_scope.cancel()
        finally:
            if recorder is not None:
                recorder.close()
    return 1 if dead.is_set() else 0


class _Upstream:
    """The upstream session, with one thing the SDK's client does not do: a call cancelled
    here (the client cancelled it, or a deadline fired) is cancelled upstream too, with a
    ``notifications/cancelled`` for its request id."""

    def __init__(self, session: Any, types: Any) -> None:
        self.session = session
        self.types = types

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
        request_id = self.session._request_id  # the id the SDK gives this request
        try:
            return await self.session.call_tool(name, arguments)
        except anyio.get_cancelled_exc_class():
            types = self.types
            with anyio.CancelScope(shield=True), anyio.move_on_after(1.0):
                await self.session.send_notification(types.ClientNotification(
                    types.CancelledNotification(params=types.CancelledNotificationParams(
                        requestId=request_id, reason="cancelled through toolpipe"))))
            raise


def _one_call(pipeline: Any, ctx: DispatchContext) -> Any:
    """One proxied call, told as a turn of one call (so a recorded session replays as the
    engine's do)."""
    call = ToolCall(ctx.call_id, ctx.tool_name, ctx.input)
    yield Emit(TurnPlanned(ctx.turn_number, 1, ((0,),), (call,), None))
    result = yield from pipeline.dispatch(ctx)
    yield Emit(CallFinished(ctx.turn_number, 0, ctx.tool_name, ctx.input, result, True))
    return result


async def _alive(session: Any) -> bool:
    """Whether the upstream still answers (a ping within a second)."""
    try:
        with anyio.fail_after(1.0):
            await session.send_ping()
    except Exception:
        return False
    return True
