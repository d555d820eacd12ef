"""toolpipe in a PydanticAI agent, in one line: ``Agent(model,
toolsets=[ToolpipeToolset(toolset)])``.

``ToolpipeToolset(wrapped, pipeline=DEFAULT_PIPELINE, *, read_only=(), cacheable=(),
retry_errors=False)`` is a ``WrapperToolset``: every call to the wrapped toolset's tools
runs through the pipeline, whose core calls the wrapped toolset
(``toolpipe.integrations.wrap``). Tools are declared as PydanticAI defines them (name,
description, parameters' JSON schema). The answer is the tool's own return value (a
model, an image, anything PydanticAI serialises) when no layer changed it; otherwise the
pipeline's text. With ``retry_errors``, a refused or failed call raises ``ModelRetry`` with
the pipeline's text, so the model is asked to try again (within the tool's retries);
without it, the text is the answer. A call's turn is the run's step.

This module runs programs (on the asyncio interpreter): it lives with the interpreters, as
the MCP proxy does (``toolpipe/`` runs none). The extra ``[pydantic-ai]`` installs PydanticAI.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pydantic_ai.exceptions import ApprovalRequired, ModelRetry
from pydantic_ai.toolsets import WrapperToolset

from interpreters.asyncio import AsyncioInterpreter
from interpreters.stores import MemoryStore
from toolpipe._approval_marks import defer
from toolpipe.config import DEFAULT_PIPELINE
from toolpipe.failures import AwaitingApproval
from toolpipe.integrations.wrap import Declared, Wrapped, as_content
from toolpipe.pipeline import PipelineBuilder

__all__ = ["ToolpipeToolset"]


@dataclass
class ToolpipeToolset(WrapperToolset[Any]):
    """The wrapped toolset's calls through a toolpipe pipeline."""

    pipeline: str | PipelineBuilder = DEFAULT_PIPELINE
    read_only: Iterable[str] = ()
    cacheable: Iterable[str] = ()
    retry_errors: bool = False
    defer_questions: bool = False
    """A layer's question becomes PydanticAI's deferred approval (``ApprovalRequired``):
    the run ends with ``DeferredToolRequests``; run again with ``DeferredToolResults``,
    the approved call runs (with ``ToolApproved(override_args=...)``'s arguments) and the
    layer does not ask again."""
    _wrapped: Wrapped = field(init=False, repr=False)
    _store: MemoryStore = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._wrapped = Wrapped(self.pipeline,
                                ask_resolver=defer if self.defer_questions else None)
        self._store = MemoryStore()  # the layers' memory (the cache) across the run's calls
        self.read_only = frozenset(self.read_only)
        self.cacheable = frozenset(self.cacheable)

    async def call_tool(self, name: str, tool_args: dict[str, Any], ctx: Any,
                        tool: Any) -> Any:
        definition = tool.tool_def
        self._wrapped.declare([Declared(
            name, definition.description or "", definition.parameters_json_schema,
            read_only=name in self.read_only, cacheable=name in self.cacheable)])
        kept: dict[str, Any] = {}

        async def run(arguments: dict[str, Any]) -> Any:
            kept["value"] = await self.wrapped.call_tool(name, arguments, ctx, tool)
            return _shown(kept["value"])

        program = self._wrapped.program(name, tool_args, run,
                                         call_id=str(ctx.tool_call_id or ""),
                                         turn=max(1, int(ctx.run_step or 1)),
                                         approved=bool(getattr(ctx, "tool_call_approved",
                                                               False)))
        result = await AsyncioInterpreter(self._store).run(program)
        if isinstance(result.cause, AwaitingApproval):  # a person decides, later
            raise ApprovalRequired(metadata={"question": result.cause.prompt})
        if "value" in kept and not result.is_error and \
                as_content(_shown(kept["value"])) == result.output:
            return kept["value"]  # no layer changed it: the tool's own value
        if result.is_error and self.retry_errors:
            raise ModelRetry(result.text)
        return result.text


def _shown(value: Any) -> Any:
    """What the layers read of a tool's return value: text as it is, anything else as
    PydanticAI would show it to the model (JSON)."""
    if isinstance(value, str):
        return value
    from pydantic_core import to_json

    return to_json(value).decode()
