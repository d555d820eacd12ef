"""The OpenAI chat-completions shape: ``tool_calls`` on assistant messages, ``role: tool``
messages for results, ``tools`` as ``{"type": "function", "function": {...}}``."""

from __future__ import annotations

import json
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
from toolpipe.formats._common import FormatError, mapping, text_of
from toolpipe.registry import ToolDeclaration
from toolpipe.result import DispatchResult

__all__ = ["FormatError", "messages", "reply", "tool_calls", "tool_messages", "tools"]


def tools(declarations: Iterable[ToolDeclaration]) -> list[dict[str, Any]]:
    """The ``tools`` request parameter."""
    return [
        {"type": "function", "function": {"name": d.name, "description": d.description,
                                           "parameters": dict(d.input_schema)}}
        for d in declarations
    ]


def tool_calls(message: Any) -> tuple[ToolCall, ...]:
    """The calls of an assistant message (a dict, or the SDK's message). An entry toolpipe
    cannot read, or one without an id, is a ``FormatError`` naming it: a call is never
    invented for it. A readable call with a bad name or arguments becomes a call with a
    ``problem`` (answered with a soft error)."""
    message = mapping(message, "message")
    raw = message.get("tool_calls") or ()
    if not isinstance(raw, list | tuple):
        raise FormatError(f"tool_calls: expected a list, got {type(raw).__name__}")
    calls = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, Mapping):
            raise FormatError(f"tool_calls[{i}]: a {type(entry).__name__} is not a tool call")
        call_id = entry.get("id")
        if not isinstance(call_id, str) or not call_id:
            raise FormatError(f"tool_calls[{i}]: a tool call without an id")
        function = entry.get("function")
        if not isinstance(function, Mapping):
            calls.append(ToolCall.parse(call_id, None, None))
            continue
        calls.append(ToolCall.parse(call_id, function.get("name"), function.get("arguments")))
    return tuple(calls)


def reply(payload: Any) -> ModelReply:
    """A ``ModelReply`` from a whole completion response (``choices[0].message``) or from
    the assistant message itself: dicts, or the SDK's ``ChatCompletion``. Usage and the
    finish reason are kept."""
    payload = mapping(payload, "response")
    finish = None
    if "choices" in payload:
        choices = payload["choices"]
        if not isinstance(choices, list | tuple) or not choices:
            raise FormatError("response: 'choices' is empty")
        first = mapping(choices[0], "choices[0]")
        finish = first.get("finish_reason")
        message = mapping(first.get("message"), "choices[0].message")
    else:
        message = payload
    content = message.get("content")
    if isinstance(content, list):  # content parts
        content = "".join(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
    usage = payload.get("usage")
    return ModelReply(content if isinstance(content, str) else "", tool_calls(message),
                      usage=dict(usage) if isinstance(usage, Mapping) else None,
                      stop_reason=finish if isinstance(finish, str) else None)


def tool_messages(results: Iterable[DispatchResult]) -> list[dict[str, Any]]:
    """One ``role: tool`` message per result, paired by ``tool_call_id``. Chat completions
    take text only, so an image is described, not sent; a soft error is marked."""
    return [
        {"role": "tool", "tool_call_id": r.tool_call_id,
         "content": ("Error: " if r.is_error else "") + text_of(r.output)}
        for r in results
    ]


def _call(call: ToolCall) -> dict[str, Any]:
    return {"id": call.id, "type": "function",
            "function": {"name": call.name, "arguments": json.dumps(dict(call.input))}}


def messages(history: Sequence[Message], *, system: str | None = None) -> list[dict[str, Any]]:
    """The whole conversation in the chat-completions shape."""
    out: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    for message in history:
        if isinstance(message, UserMessage):
            out.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantMessage):
            entry: dict[str, Any] = {"role": "assistant", "content": message.text or None}
            if message.tool_calls:
                entry["tool_calls"] = [_call(c) for c in message.tool_calls]
            out.append(entry)
        elif isinstance(message, ToolResultsMessage):
            out.extend(tool_messages(message.results))
        else:
            raise FormatError(f"unknown message {message!r:.60}")
    return out
