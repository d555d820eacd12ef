"""The OpenAI Responses API shape: ``function_call`` output items in, ``function_call_output``
input items back, ``tools`` as ``{"type": "function", "name", "description", "parameters"}``.

Reasoning items a response holds are kept on the reply (``ModelReply.content``) and sent
back in order with the next request, as the API expects for reasoning models.
"""

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
from toolpipe.formats._common import FormatError, mapping, plain, text_of
from toolpipe.registry import ToolDeclaration
from toolpipe.result import DispatchResult

__all__ = ["FormatError", "inputs", "reply", "tool_calls", "tool_outputs", "tools"]


def tools(declarations: Iterable[ToolDeclaration]) -> list[dict[str, Any]]:
    """The ``tools`` request parameter."""
    return [{"type": "function", "name": d.name, "description": d.description,
             "parameters": dict(d.input_schema)} for d in declarations]


def tool_calls(output: Iterable[Any]) -> tuple[ToolCall, ...]:
    """The ``function_call`` items of a response's ``output``, in order. An item that is not
    an object, or a call without a ``call_id``, is a ``FormatError`` naming it."""
    calls = []
    for i, raw in enumerate(output):
        item = plain(raw)
        if not isinstance(item, Mapping):
            raise FormatError(f"output[{i}]: a {type(raw).__name__} is not an output item")
        if item.get("type") != "function_call":
            continue
        call_id = item.get("call_id")
        if not isinstance(call_id, str) or not call_id:
            raise FormatError(f"output[{i}]: a function_call without a call_id")
        calls.append(ToolCall.parse(call_id, item.get("name"), item.get("arguments")))
    return tuple(calls)


def reply(response: Any) -> ModelReply:
    """A ``ModelReply`` from a response (a dict, or the SDK's ``Response``): the text of its
    ``message`` items, its calls, usage, status, and every output item for sending back."""
    data = mapping(response, "response")
    output = data.get("output")
    if not isinstance(output, list | tuple):
        raise FormatError(f"response: 'output' must be a list, got {type(output).__name__}")
    items = [plain(item) for item in output]
    text = "".join(
        str(part.get("text", "")) for item in items if isinstance(item, Mapping)
        and item.get("type") == "message" for part in item.get("content") or ()
        if isinstance(part, Mapping) and part.get("type") == "output_text")
    usage = data.get("usage")
    status = data.get("status")
    return ModelReply(text, tool_calls(items),
                      usage=dict(usage) if isinstance(usage, Mapping) else None,
                      stop_reason=status if isinstance(status, str) else None,
                      content=tuple({k: v for k, v in item.items() if v is not None}
                                    for item in items))


def tool_outputs(results: Iterable[DispatchResult]) -> list[dict[str, Any]]:
    """One ``function_call_output`` item per result, paired by ``call_id`` (text only: an
    image is described; a soft error is marked)."""
    return [{"type": "function_call_output", "call_id": r.tool_call_id,
             "output": ("Error: " if r.is_error else "") + text_of(r.output)}
            for r in results]


def inputs(history: Sequence[Message]) -> list[dict[str, Any]]:
    """The whole conversation as Responses ``input`` items."""
    out: list[dict[str, Any]] = []
    for message in history:
        if isinstance(message, UserMessage):
            out.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantMessage) and message.content:
            out += [dict(item) for item in message.content]
        elif isinstance(message, AssistantMessage):
            if message.text:
                out.append({"role": "assistant", "content": message.text})
            out += [{"type": "function_call", "call_id": c.id, "name": c.name,
                     "arguments": json.dumps(dict(c.input))} for c in message.tool_calls]
        elif isinstance(message, ToolResultsMessage):
            out += tool_outputs(message.results)
        else:
            raise FormatError(f"unknown message {message!r:.60}")
    return out
