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

This module runs programs (on the asyncio interpreter): it lives with the interpreters, as
the MCP proxy does (``toolpipe/`` runs none). The extra ``[langchain]`` installs LangChain.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from langchain.agents.middleware import AgentMiddleware
from langchain_core.messages import AIMessage, ToolMessage

from interpreters.asyncio import AsyncioInterpreter
from interpreters.stores import MemoryStore
from interpreters.wrap import run_sync
from toolpipe._approval_marks import defer
from toolpipe.config import DEFAULT_PIPELINE
from toolpipe.failures import AwaitingApproval
from toolpipe.integrations.wrap import Declared, Wrapped, as_content
from toolpipe.pipeline import PipelineBuilder
from toolpipe.result import DispatchResult

__all__ = ["ToolpipeMiddleware"]


class ToolpipeMiddleware(AgentMiddleware):
    """Every tool call of a LangChain agent through a toolpipe pipeline."""

    def __init__(self, pipeline: str | PipelineBuilder = DEFAULT_PIPELINE, *,
                 read_only: Iterable[str] = (), cacheable: Iterable[str] = (),
                 interrupts: bool = False) -> None:
        super().__init__()
        # interrupts: a layer's question pauses the graph (LangGraph's interrupt, which
        # needs a checkpointer); resumed with Command(resume=...) the call goes on
        self.interrupts = interrupts
        self.wrapped = Wrapped(pipeline, ask_resolver=defer if interrupts else None)
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

    def _program(self, request: Any, handler: Any, *, approved: bool = False,
                 arguments: dict[str, Any] | None = None) -> Any:
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

        given = arguments if arguments is not None else (call.get("args") or {})
        program = self.wrapped.program(call["name"], given, run, approved=approved,
                                       call_id=str(call.get("id") or ""), turn=turn)
        return program, kept

    def _decided(self, request: Any, result: DispatchResult) -> tuple[bool, Any]:
        """A layer's question, put to the person by LangGraph's ``interrupt`` (the graph
        stops here the first time; on resume it returns the answer): (run it again
        approved, with these arguments) or (no, the refusal's message)."""
        from langgraph.types import interrupt

        call = request.tool_call
        cause = result.cause
        assert isinstance(cause, AwaitingApproval)
        answer = interrupt({"tool": call["name"], "call_id": call.get("id"),
                            "args": call.get("args") or {}, "question": cause.prompt})
        kind = answer.get("type") if isinstance(answer, dict) else answer
        if kind in (True, "approve", "accept"):
            return True, None
        if kind == "edit" and isinstance(answer, dict) and isinstance(answer.get("args"), dict):
            return True, answer["args"]
        reason = answer.get("reason") if isinstance(answer, dict) else None
        return False, ToolMessage(
            content=f"Permission denied by a person: {reason or 'a person refused it'} "
                    f"for tool '{call['name']}'", tool_call_id=call.get("id") or "",
            name=call["name"], status="error")

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
        if self.interrupts and isinstance(result.cause, AwaitingApproval):
            go, detail = self._decided(request, result)
            if not go:
                return detail
            program, kept = self._program(request, handler, approved=True, arguments=detail)
            result = await AsyncioInterpreter(self.store).run(program)
        return self._message(result, request.tool_call, kept)

    def wrap_tool_call(self, request: Any, handler: Any) -> Any:
        program, kept = self._program(request, handler)
        result = self._run_sync(program)
        if self.interrupts and isinstance(result.cause, AwaitingApproval):
            go, detail = self._decided(request, result)
            if not go:
                return detail
            program, kept = self._program(request, handler, approved=True, arguments=detail)
            result = self._run_sync(program)
        return self._message(result, request.tool_call, kept)

    def _run_sync(self, program: Any) -> DispatchResult:
        result: DispatchResult = run_sync(program, store=self.store)  # real time, blocking
        return result
