"""The Anthropic messages shape: ``tool_use`` blocks in assistant content, ``tool_result``
blocks in the next user message, ``tools`` as ``{"name", "description", "input_schema"}``."""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from toolpipe.agent import (
    AssistantMessage,
    Message,
    ModelReply,
    ToolCall,
    ToolResultsMessage,
    UserMessage,
)
from toolpipe.formats._common import FormatError, mapping, parts_of, plain
from toolpipe.registry import ToolDeclaration
from toolpipe.result import DispatchResult, ImageContent, TextContent

__all__ = ["FormatError", "messages", "reply", "tool_calls", "tool_result_message", "tools"]


def tools(declarations: Iterable[ToolDeclaration]) -> list[dict[str, Any]]:
    """The ``tools`` request parameter."""
    return [{"name": d.name, "description": d.description,
             "input_schema": dict(d.input_schema)} for d in declarations]


def tool_calls(content: Iterable[Any]) -> tuple[ToolCall, ...]:
    """The ``tool_use`` blocks of an assistant message's content (dicts or the SDK's
    blocks), in order. A block toolpipe cannot read, or a ``tool_use`` without an id, is
    a ``FormatError`` naming it: a call is never invented for it. A readable call with bad
    arguments becomes a call with a ``problem`` (answered with a soft error)."""
    calls = []
    for i, raw in enumerate(content):
        block = plain(raw)
        if not isinstance(block, Mapping):
            raise FormatError(f"content[{i}]: a {type(raw).__name__} is not a content block")
        if block.get("type") != "tool_use":
            continue
        call_id = block.get("id")
        if not isinstance(call_id, str) or not call_id:
            raise FormatError(f"content[{i}]: a tool_use block without an id "
                              f"(name {block.get('name')!r:.40})")
        calls.append(ToolCall.parse(call_id, block.get("name"), block.get("input", {})))
    return tuple(calls)


def reply(payload: Any) -> ModelReply:
    """A ``ModelReply`` from a messages-API response: a dict, or the SDK's ``Message``.
    Usage, the stop reason and every content block (thinking and redacted thinking with
    their signatures, in order) are kept."""
    payload = mapping(payload, "response")
    content = payload.get("content")
    if isinstance(content, str):
        return ModelReply(content, usage=_usage(payload), stop_reason=_stop(payload))
    if not isinstance(content, list | tuple):
        raise FormatError(f"response: 'content' must be a list, got {type(content).__name__}")
    blocks = [plain(b) for b in content]
    text = "".join(str(b.get("text", "")) for b in blocks
                   if isinstance(b, Mapping) and b.get("type") == "text")
    return ModelReply(text, tool_calls(blocks), usage=_usage(payload),
                      stop_reason=_stop(payload),
                      content=tuple(_sendable(b) for b in blocks))


def _usage(payload: Mapping[str, Any]) -> Mapping[str, Any] | None:
    usage = payload.get("usage")
    return dict(usage) if isinstance(usage, Mapping) else None


def _stop(payload: Mapping[str, Any]) -> str | None:
    stop = payload.get("stop_reason")
    return stop if isinstance(stop, str) else None


def _sendable(block: Mapping[str, Any]) -> dict[str, Any]:
    """A response block as a request takes it back: the fields the SDK fills with None
    (``citations``, ``caller``…) left out."""
    return {k: v for k, v in block.items() if v is not None}


def _block(part: Any) -> dict[str, Any]:
    if isinstance(part, ImageContent):
        return {"type": "image", "source": {"type": "base64", "media_type": part.media_type,
                                            "data": base64.b64encode(part.data).decode()}}
    return {"type": "text", "text": part.text}


def tool_result_message(results: Iterable[DispatchResult]) -> dict[str, Any]:
    """One user message holding a ``tool_result`` block per result (images kept). Empty
    text is left out (the API refuses an empty text block); a result with nothing left
    says ``(no output)``."""
    blocks = []
    for r in results:
        parts = [_block(p) for p in parts_of(r.output)
                 if not (isinstance(p, TextContent) and not p.text)]
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": r.tool_call_id,
                                 "content": parts or [{"type": "text", "text": "(no output)"}]}
        if r.is_error:
            block["is_error"] = True
        blocks.append(block)
    return {"role": "user", "content": blocks}


def messages(history: Sequence[Message]) -> list[dict[str, Any]]:
    """The whole conversation in the messages shape (the system prompt is a separate
    request parameter there)."""
    out: list[dict[str, Any]] = []
    for message in history:
        if isinstance(message, UserMessage):
            out.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantMessage) and message.content:
            out.append({"role": "assistant", "content": [dict(b) for b in message.content]})
        elif isinstance(message, AssistantMessage):
            content: list[dict[str, Any]] = (
                [{"type": "text", "text": message.text}] if message.text else []
            )
            content += [{"type": "tool_use", "id": c.id, "name": c.name,
                         "input": dict(c.input)} for c in message.tool_calls]
            out.append({"role": "assistant", "content": content})
        elif isinstance(message, ToolResultsMessage):
            out.append(tool_result_message(message.results))
        else:
            raise FormatError(f"unknown message {message!r:.60}")
    return out
