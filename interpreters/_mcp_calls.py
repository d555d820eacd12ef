"""The MCP proxy's calls: the state of one that waits on the client's answer (the 2026
wire), and the client's answer built from the pipeline's result and the upstream's own."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from typing import Any

from toolpipe.agent import CallFinished, ToolCall, TurnPlanned
from toolpipe.context import DispatchContext
from toolpipe.effects import Emit
from toolpipe.errors import ToolError
from toolpipe.integrations.mcp import from_mcp, to_mcp
from toolpipe.layers.redaction import RedactingMiddleware, redact_content
from toolpipe.result import DispatchResult, TextContent, ToolContent

ASK_TIMEOUT = 600.0
"""Seconds a call waits for the client's answer to a layer's question on the 2026 wire."""
CLIENT_PARAMS: ContextVar[dict[str, Any] | None] = ContextVar("toolpipe_mcp_params",
                                                               default=None)


class Asking:
    """A call's pipeline run (``runner``), and its question to the client, if a layer
    asks one on the 2026 wire (``question``, answered through ``reply``)."""

    def __init__(self) -> None:
        self.runner: asyncio.Future[dict[str, Any]] | None = None
        self.question: asyncio.Future[dict[str, Any]] = \
            asyncio.get_running_loop().create_future()
        self.reply: asyncio.Future[dict[str, Any]] | None = None
        self.raw: dict[str, Any] | None = None
        """The upstream's answer to this call, when the pipeline called it."""


CALL: ContextVar[Asking | None] = ContextVar("toolpipe_mcp_call", default=None)


def shaped(result: DispatchResult, raw: dict[str, Any] | None, fresh: bool,
           redactors: list[RedactingMiddleware], modern: bool) -> dict[str, Any]:
    """The client's answer: the upstream's own result (``raw``: of this call, ``fresh``,
    or of the same call earlier, which the cache answered from) when no layer changed
    what the layers saw of it, else the pipeline's content; structured content
    scrubbed."""
    if fresh and raw is not None and raw.get("resultType") not in (None, "complete"):
        return raw  # the 2026 wire's input_required: the client answers and retries
    if raw is not None and result.is_error == bool(raw.get("isError")) and \
            result.output == seen(raw):
        answer = dict(raw)
    else:
        answer = to_mcp(result)
        if raw is not None and not result.is_error and "structuredContent" in raw:
            answer["structuredContent"] = raw["structuredContent"]
    if "structuredContent" in answer and redactors:
        answer["structuredContent"] = scrubbed(answer["structuredContent"], redactors)
    if modern:  # the 2026 wire: every result says what it is
        answer.setdefault("resultType", "complete")
    return answer


def scrubbed(value: Any, redactors: list[RedactingMiddleware], depth: int = 0) -> Any:
    """``value`` with every string in it redacted by each of ``redactors``."""
    if isinstance(value, str):
        for layer in redactors:
            out = redact_content(layer.patterns, TextContent(value))
            value = out.text if isinstance(out, TextContent) else value
        return value
    if depth > 64:
        return value
    if isinstance(value, dict):
        return {k: scrubbed(v, redactors, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [scrubbed(v, redactors, depth + 1) for v in value]
    return value


async def all_tools(ask: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
                    ) -> list[Any]:
    """Every page of the upstream's ``tools/list`` (``ask`` sends one request)."""
    tools: list[Any] = []
    cursor: Any = None
    for _ in range(1000):
        page = await ask({"cursor": cursor} if cursor else {})
        tools += page.get("tools") or []
        cursor = page.get("nextCursor")
        if not cursor:
            break
    return tools


def question(prompt: str, tool: str) -> dict[str, Any]:
    """A layer's question as an elicitation: a yes or no."""
    return {"message": prompt, "requestedSchema": {"type": "object", "properties": {
        "allow": {"type": "boolean", "title": f"Allow {tool}?"}}, "required": ["allow"]}}


def allowed(answer: Mapping[str, Any]) -> bool:
    """Whether the person's answer to ``question`` is yes."""
    content = answer.get("content")
    return answer.get("action") == "accept" and isinstance(content, Mapping) and \
        content.get("allow") is True


def key_of(name: str, arguments: Mapping[str, Any]) -> str:
    return name + "\0" + json.dumps(arguments, sort_keys=True, default=str)


def seen(raw: Mapping[str, Any]) -> ToolContent:
    """What the layers saw of an upstream result (``from_mcp``, an error as its text)."""
    try:
        return from_mcp(raw)
    except ToolError as exc:
        return TextContent(str(exc))


def one_call(pipeline: Any, ctx: DispatchContext) -> Any:
    """One proxied call, told as a turn of one call (so a recorded session replays as the
    engine's do)."""
    call = ToolCall(ctx.call_id, ctx.tool_name, ctx.input)
    yield Emit(TurnPlanned(ctx.turn_number, 1, ((0,),), (call,), None))
    result = yield from pipeline.dispatch(ctx)
    yield Emit(CallFinished(ctx.turn_number, 0, ctx.tool_name, ctx.input, result, True))
    return result
