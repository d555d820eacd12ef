"""``redact_messages``: scrub what goes to the model, not only what tools print.

A user's prompt, an assistant's earlier text, tool-call arguments and tool results can all
carry a secret to the provider. The helper takes toolpipe's messages or the plain dicts of
the OpenAI and Anthropic shapes and returns new ones with every text scrubbed by a
``SecretPatternSet``. Structure is kept: roles, ids, names, types and the blocks a
provider signs (``thinking``, ``redacted_thinking``: changing them would void the
signature) pass through untouched.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from toolpipe.agent._calls import ToolCall
from toolpipe.agent._conversation import AssistantMessage, ToolResultsMessage, UserMessage
from toolpipe.layers.redaction import redact_content
from toolpipe.secrets import SecretPatternSet

# Keys whose values are structure, not content.
_KEEP = frozenset({"role", "type", "id", "tool_call_id", "tool_use_id", "call_id", "name",
                   "model", "signature", "media_type", "mime_type", "index", "status",
                   "stop_reason", "finish_reason", "cache_control"})
_SIGNED = frozenset({"thinking", "redacted_thinking"})
MAX_DEPTH = 64


def _scrub(value: Any, patterns: SecretPatternSet, depth: int = 0, key: Any = None) -> Any:
    if depth > MAX_DEPTH:
        return value
    if isinstance(value, str):
        return patterns.redact_value(key, value)
    if isinstance(value, Mapping):
        if value.get("type") in _SIGNED:
            return value
        return {k: v if k in _KEEP else _scrub(v, patterns, depth + 1, k)
                for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_scrub(v, patterns, depth + 1) for v in value)
    return value


def _scrub_call(call: ToolCall, patterns: SecretPatternSet) -> ToolCall:
    return attrs.evolve(call, input=_scrub(dict(call.input), patterns))


def redact_messages(messages: Iterable[Any], patterns: SecretPatternSet | None = None
                    ) -> list[Any]:
    """New messages with every secret replaced by ``[REDACTED:<kind>]``: toolpipe's
    ``UserMessage``/``AssistantMessage``/``ToolResultsMessage`` and provider dicts alike.
    The originals are not changed."""
    chosen = patterns if patterns is not None else SecretPatternSet.default_common()
    out: list[Any] = []
    for message in messages:
        if isinstance(message, UserMessage):
            out.append(attrs.evolve(message, text=chosen.redact(message.text)))
        elif isinstance(message, AssistantMessage):
            out.append(attrs.evolve(message, text=chosen.redact(message.text), tool_calls=[
                _scrub_call(c, chosen) for c in message.tool_calls]))
        elif isinstance(message, ToolResultsMessage):
            out.append(attrs.evolve(message, results=[
                attrs.evolve(r, output=redact_content(chosen, r.output))
                for r in message.results]))
        else:
            out.append(_scrub(message, chosen))
    return out
