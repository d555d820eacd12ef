"""A pipeline around a framework's own tool calls: the core every adapter shares.

An agent framework runs its tools itself and offers a hook around each call (LangChain's
``wrap_tool_call``, PydanticAI's wrapper toolset, the Agents SDK's ``on_invoke_tool``). In
that hook an adapter calls ``Wrapped.program(name, arguments, handler)``: the call goes
through the pipeline's layers, and the core, instead of a function of toolpipe's, calls
``handler`` (the framework's own way to run the tool, which the call carries in its
``ToolContext.state``), as a ``Request`` effect. Tools are declared as the framework
describes them (``Declared``: name, description, schema, and what toolpipe should know:
read-only, cacheable, a role); a tool first seen later is declared then, and the pipeline
is built again with it (its layers' memory, the cache and the shield's session, is kept
per ``Wrapped`` for as long as the tools do not change).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs
from returns.result import Success

from toolpipe._approval_marks import APPROVED
from toolpipe._checks import describe_failure
from toolpipe.config import DEFAULT_PIPELINE, load_pipeline
from toolpipe.context import DispatchContext, ToolContext
from toolpipe.effects import CallOutcome, Request
from toolpipe.errors import ToolError
from toolpipe.pipeline import PipelineBuilder, ToolPipeline
from toolpipe.program import Program
from toolpipe.registry import Tool, ToolRegistry
from toolpipe.result import DispatchResult, ImageContent, MultipartContent, TextContent, ToolContent

__all__ = ["HANDLER", "Declared", "Wrapped"]

HANDLER = "toolpipe.handler"
"""The key of ``ToolContext.state`` under which a call carries the framework's handler."""


@attrs.frozen
class Declared:
    """What a framework says of one of its tools, and what toolpipe should know of it."""

    name: str
    description: str = ""
    input_schema: Mapping[str, Any] = attrs.field(factory=lambda: {"type": "object"})
    read_only: bool = False
    cacheable: bool = False
    role: str | None = None


class Wrapped:
    """A pipeline (a pipeline file's text, by default the default pipeline, or a builder
    without a core) around handlers."""

    def __init__(self, pipeline: str | PipelineBuilder = DEFAULT_PIPELINE, *,
                 source: str = "the default pipeline", observe: Callable[[Any], Any]
                 | None = None, ask_resolver: Callable[[str, str], Any] | None = None
                 ) -> None:
        self._pipeline = pipeline
        self._source = source
        self._observe = observe
        self._resolver = ask_resolver
        self._declared: dict[str, Declared] = {}
        self._built: ToolPipeline | None = None

    def declare(self, tools: Iterable[Declared]) -> None:
        """Declare tools; one new or changed builds the pipeline again."""
        for tool in tools:
            if self._declared.get(tool.name) != tool:
                self._declared[tool.name] = tool
                self._built = None

    @property
    def pipeline(self) -> ToolPipeline:
        if self._built is None:
            registry = ToolRegistry()
            for tool in self._declared.values():
                registry.register(Tool.from_function(
                    tool.name, _runs_handler(tool.name), description=tool.description,
                    input_schema=dict(tool.input_schema), concurrency_safe=tool.read_only,
                    role=tool.role or ("file_read" if tool.read_only else None),
                    idempotent=tool.read_only, read_only=tool.read_only,
                    cacheable=tool.cacheable))
            builder = (load_pipeline(self._pipeline, registry, source=self._source)
                       if isinstance(self._pipeline, str) else self._pipeline)
            if self._resolver is not None:  # who answers the layers' questions
                builder = builder.with_ask_resolver(self._resolver)
            if self._observe is not None:
                builder = self._observe(builder)
            with warnings.catch_warnings():
                # tools are declared as they are first called: a shell may come later
                warnings.filterwarnings("ignore", "safety_shield watches none")
                self._built = builder.with_core(registry).build()
        return self._built

    def program(self, name: str, arguments: Mapping[str, Any],
                handler: Callable[[dict[str, Any]], Any], *, call_id: str = "",
                turn: int = 1, cwd: str = ".", approved: bool = False
                ) -> Program[DispatchResult]:
        """The call through the pipeline; the core runs ``handler(arguments)`` (a
        coroutine function's call is awaited on the loop; a plain function's result is
        taken as it is). ``approved``: a person approved this call (the framework's own
        approval, on resume), so a layer that would ask does not."""
        state: dict[str, Any] = {HANDLER: handler}
        if approved:
            state[APPROVED] = True
        ctx = DispatchContext(name, dict(arguments), call_id=call_id, turn_number=turn,
                              tool_context=ToolContext(cwd=cwd, state=state))
        return self.pipeline.dispatch(ctx)


    def question(self, name: str, arguments: Mapping[str, Any], *, cwd: str = "."
                 ) -> Program[str | None]:
        """The question a layer would put to a person before this call runs (None: none
        would), read from the layers outermost first without running anything: for a
        framework that decides approvals before it runs a call. A permission layer that
        allows or rewrites the call lets the reading go on; one that denies ends it."""
        from toolpipe.context import Allow, Ask, Modify
        from toolpipe.layers.permission import PermissionMiddleware
        from toolpipe.layers.shield import SafetyShieldMiddleware

        ctx = DispatchContext(name, dict(arguments), tool_context=ToolContext(cwd=cwd))
        for layer in self.pipeline.layers:
            layer = getattr(layer, "layer", layer)  # an observed layer: the layer itself
            if isinstance(layer, PermissionMiddleware):
                decision = layer.decide(ctx)
                if isinstance(decision, Ask):
                    return decision.prompt
                if isinstance(decision, Modify):
                    ctx = attrs.evolve(ctx, input=decision.modified_input)
                elif not isinstance(decision, Allow):
                    return None
            elif isinstance(layer, SafetyShieldMiddleware):
                asked: str | None = yield from layer.question(ctx)
                if asked is not None:
                    return asked
        return None


def _runs_handler(name: str) -> Callable[..., Program[ToolContent]]:
    def call(input: Mapping[str, Any], context: ToolContext) -> Program[ToolContent]:
        handler = context.state.get(HANDLER)
        if not callable(handler):
            raise ToolError(f"{name}: the call carries no handler to run it")
        arguments = dict(input)
        outcome: CallOutcome = yield Request(lambda: handler(arguments),
                                             label=f"handler {name}", blocking=False)
        if not isinstance(outcome.value, Success):
            raise ToolError(describe_failure(outcome.value.failure()))
        return as_content(outcome.value.unwrap())

    return call


def as_content(value: Any) -> ToolContent:
    """A handler's answer as toolpipe content: content as it is, text as text, anything
    else as its ``content`` (a framework's message) or its text."""
    if isinstance(value, (TextContent, ImageContent, MultipartContent)):
        return value
    if isinstance(value, str):
        return TextContent(value)
    content = getattr(value, "content", value)
    if isinstance(content, str):
        return TextContent(content)
    if isinstance(content, list):
        texts = [part if isinstance(part, str) else str(part.get("text", ""))
                 if isinstance(part, Mapping) else str(part) for part in content]
        return TextContent("\n".join(texts))
    return TextContent(str(content))
