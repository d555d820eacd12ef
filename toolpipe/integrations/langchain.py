"""toolpipe in a LangChain agent, in one line: ``create_agent(model, tools,
middleware=[ToolpipeMiddleware()])``.

``ToolpipeMiddleware(pipeline=DEFAULT_PIPELINE, *, read_only=(), cacheable=())`` is an
``AgentMiddleware``: every tool call the agent makes, async (``ainvoke``) or sync
(``invoke``), runs through the pipeline, whose core calls LangChain's own handler
(``toolpipe.integrations.wrap``). Tools are declared as LangChain describes them (name,
description, argument schema); ``read_only`` names the tools that change nothing (run
concurrently, retried after a timeout) and ``cacheable`` those whose answers memoize may
keep. The answer is LangChain's own ``ToolMessage`` (its artifact kept) when no layer
changed it; otherwise a ``ToolMessage`` with the pipeline's text, ``status="error"`` for a
refused or failed call. A call's turn is the number of the model's messages so far, as
memoize's time-to-live counts turns.

This module runs programs (on the asyncio interpreter), so it is one of toolpipe's edges,
with the command line; the extra ``[langchain]`` installs LangChain.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from langchain.agents.middleware import AgentMiddleware
from langchain_core.messages import AIMessage, ToolMessage

from interpreters.asyncio import AsyncioInterpreter
from interpreters.stores import MemoryStore
from toolpipe.config import DEFAULT_PIPELINE
from toolpipe.integrations.wrap import Declared, Wrapped, as_content
from toolpipe.pipeline import PipelineBuilder
from toolpipe.result import DispatchResult

__all__ = ["ToolpipeMiddleware"]


class ToolpipeMiddleware(AgentMiddleware):
    """Every tool call of a LangChain agent through a toolpipe pipeline."""

    def __init__(self, pipeline: str | PipelineBuilder = DEFAULT_PIPELINE, *,
                 read_only: Iterable[str] = (), cacheable: Iterable[str] = ()) -> None:
        super().__init__()
        self.wrapped = Wrapped(pipeline)
        self.store = MemoryStore()  # the layers' memory (the cache) across the agent's calls
        self.read_only = frozenset(read_only)
        self.cacheable = frozenset(cacheable)

    def _declare(self, request: Any) -> None:
        tool = request.tool
        name = request.tool_call["name"]
        schema: dict[str, Any] = {"type": "object"}
        description = ""
        if tool is not None:
            description = tool.description or ""
            call_schema = tool.tool_call_schema
            schema = call_schema if isinstance(call_schema, dict) else \
                call_schema.model_json_schema()
        self.wrapped.declare([Declared(name, description, schema,
                                       read_only=name in self.read_only,
                                       cacheable=name in self.cacheable)])

    def _program(self, request: Any, handler: Any) -> Any:
        self._declare(request)
        call = request.tool_call
        messages = request.state.get("messages", ()) if isinstance(request.state, dict) \
            else getattr(request.state, "messages", ())
        turn = max(1, sum(isinstance(m, AIMessage) for m in messages))
        kept: dict[str, Any] = {}

        def run(arguments: dict[str, Any]) -> Any:
            answer = handler(request.override(tool_call={**call, "args": arguments}))
            if asyncio.iscoroutine(answer):
                async def awaited() -> Any:
                    kept["message"] = await answer
                    return kept["message"]
                return awaited()
            kept["message"] = answer
            return answer

        program = self.wrapped.program(call["name"], call.get("args") or {}, run,
                                       call_id=str(call.get("id") or ""), turn=turn)
        return program, kept

    @staticmethod
    def _message(result: DispatchResult, call: dict[str, Any], kept: dict[str, Any]) -> Any:
        original = kept.get("message")
        if isinstance(original, ToolMessage) and not result.is_error and \
                as_content(original) == result.output:
            return original  # no layer changed it: LangChain's own, artifact and all
        return ToolMessage(content=result.text, tool_call_id=call.get("id") or "",
                           name=call["name"], status="error" if result.is_error
                           else "success")

    async def awrap_tool_call(self, request: Any, handler: Any) -> Any:
        program, kept = self._program(request, handler)
        result = await AsyncioInterpreter(self.store).run(program)
        return self._message(result, request.tool_call, kept)

    def wrap_tool_call(self, request: Any, handler: Any) -> Any:
        program, kept = self._program(request, handler)
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # the usual case: invoke() on a thread with no loop
            result = asyncio.run(AsyncioInterpreter(self.store).run(program))
        else:  # called from inside a running loop: run on a loop of its own
            import concurrent.futures

            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                running = AsyncioInterpreter(self.store).run(program)
                result = pool.submit(asyncio.run, running).result()
        return self._message(result, request.tool_call, kept)
