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
from toolpipe.formats._common import FormatError, mapping, parts_of
from toolpipe.registry import ToolDeclaration
from toolpipe.result import DispatchResult, ImageContent

__all__ = ["FormatError", "messages", "reply", "tool_calls", "tool_result_message", "tools"]


def tools(declarations: Iterable[ToolDeclaration]) -> list[dict[str, Any]]:
    """The ``tools`` request parameter."""
    return [{"name": d.name, "description": d.description,
             "input_schema": dict(d.input_schema)} for d in declarations]


def tool_calls(content: Iterable[Any]) -> tuple[ToolCall, ...]:
    """The ``tool_use`` blocks of an assistant message's content, in order. A malformed
    block becomes a call with a ``problem`` (answered with a soft error)."""
    calls = []
    for i, block in enumerate(content):
        if isinstance(block, Mapping) and block.get("type") == "tool_use":
            calls.append(ToolCall.parse(block.get("id"), block.get("name"),
                                        block.get("input", {})))
        elif not isinstance(block, Mapping):
            calls.append(ToolCall("", "", {}, f"content[{i}] is not an object"))
    return tuple(calls)


def reply(payload: Mapping[str, Any]) -> ModelReply:
    """A ``ModelReply`` from a messages-API response (or any message with ``content``)."""
    payload = mapping(payload, "response")
    content = payload.get("content")
    if isinstance(content, str):
        return ModelReply(content)
    if not isinstance(content, list | tuple):
        raise FormatError(f"response: 'content' must be a list, got {type(content).__name__}")
    text = "".join(str(b.get("text", "")) for b in content
                   if isinstance(b, Mapping) and b.get("type") == "text")
    return ModelReply(text, tool_calls(content))


def _block(part: Any) -> dict[str, Any]:
    if isinstance(part, ImageContent):
        return {"type": "image", "source": {"type": "base64", "media_type": part.media_type,
                                            "data": base64.b64encode(part.data).decode()}}
    return {"type": "text", "text": part.text}


def tool_result_message(results: Iterable[DispatchResult]) -> dict[str, Any]:
    """One user message holding a ``tool_result`` block per result (images kept)."""
    blocks = []
    for r in results:
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": r.tool_call_id,
                                 "content": [_block(p) for p in parts_of(r.output)]}
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
