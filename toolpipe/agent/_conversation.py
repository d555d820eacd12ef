"""The conversation: messages, what a model replies, the ``Model`` protocol and
``ScriptedModel`` (a model that plays a script, for tests and demos)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, Protocol

import attrs

from toolpipe.agent._calls import ToolCall
from toolpipe.errors import ConfigError
from toolpipe.registry import ToolDeclaration
from toolpipe.result import DispatchResult


def _calls(value: Iterable[ToolCall]) -> tuple[ToolCall, ...]:
    return tuple(value)


def _results(value: Iterable[DispatchResult]) -> tuple[DispatchResult, ...]:
    return tuple(value)


def _blocks(value: Iterable[Mapping[str, Any]]) -> tuple[Mapping[str, Any], ...]:
    return tuple(value)


@attrs.frozen
class UserMessage:
    text: str
    role: Literal["user"] = "user"


@attrs.frozen
class AssistantMessage:
    text: str = ""
    tool_calls: tuple[ToolCall, ...] = attrs.field(default=(), converter=_calls)
    role: Literal["assistant"] = "assistant"
    # the provider's own blocks of this turn, in order (Anthropic thinking blocks and
    # their signatures must go back exactly as they came); empty: rebuilt from the above
    content: tuple[Mapping[str, Any], ...] = attrs.field(default=(), converter=_blocks,
                                                        kw_only=True)


@attrs.frozen
class ToolResultsMessage:
    """The results of one turn's calls, in the model's order."""

    results: tuple[DispatchResult, ...] = attrs.field(converter=_results)
    role: Literal["tool"] = "tool"


Message = UserMessage | AssistantMessage | ToolResultsMessage


@attrs.frozen
class ModelReply:
    """What a model answers: text, and the tool calls it wants run (none: it is done)."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = attrs.field(default=(), converter=_calls)
    usage: Mapping[str, Any] | None = attrs.field(default=None, kw_only=True)
    stop_reason: str | None = attrs.field(default=None, kw_only=True)
    content: tuple[Mapping[str, Any], ...] = attrs.field(default=(), converter=_blocks,
                                                        kw_only=True)


class Model(Protocol):
    """``respond`` may be a plain function, a coroutine function (asyncio/trio) or return a
    program; it must give a ``ModelReply``."""

    def respond(
        self, messages: Sequence[Message], tools: Sequence[ToolDeclaration]
    ) -> Any: ...


class ScriptedModel:
    """Replies from a script, one per turn; then a final text reply. For tests and demos.

    A script entry is a ``ModelReply``, a text, or a list of ``ToolCall``. Every request
    is kept in ``requests`` so a test can check what the model was shown.
    """

    def __init__(self, script: Iterable[ModelReply | str | Sequence[ToolCall]],
                 *, final: str = "Done.") -> None:
        self.script = [_reply(entry, i) for i, entry in enumerate(script)]
        self.final = final
        self.requests: list[tuple[tuple[Message, ...], tuple[ToolDeclaration, ...]]] = []

    def respond(
        self, messages: Sequence[Message], tools: Sequence[ToolDeclaration]
    ) -> ModelReply:
        self.requests.append((tuple(messages), tuple(tools)))
        turn = len(self.requests) - 1
        return self.script[turn] if turn < len(self.script) else ModelReply(self.final)


def _reply(entry: object, index: int) -> ModelReply:
    if isinstance(entry, ModelReply):
        return entry
    if isinstance(entry, str):
        return ModelReply(entry)
    if isinstance(entry, list | tuple) and all(isinstance(c, ToolCall) for c in entry):
        return ModelReply("", tuple(entry))
    raise ConfigError(
        f"script[{index}]: expected a ModelReply, a text or a list of ToolCall, got {entry!r:.60}"
    )
