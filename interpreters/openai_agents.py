"""toolpipe in an OpenAI Agents SDK agent, in one line: ``agent =
toolpipe_agent(Agent(...))`` (or ``Agent(..., tools=toolpipe_tools([...]))``).

``toolpipe_tools(tools, pipeline=DEFAULT_PIPELINE, *, read_only=(), cacheable=())`` gives
the tools back with each ``FunctionTool``'s ``on_invoke_tool`` running through the
pipeline, whose core calls the tool's own (``toolpipe.integrations.wrap``); other tools
(hosted ones) pass as they are. Tools are declared as the SDK defines them (name,
description, parameters' JSON schema). The answer is the tool's own output when no layer
changed it, else the pipeline's text. A call's turn is the number of model requests so far.
``toolpipe_agent(agent, …)`` is ``agent.clone(tools=toolpipe_tools(agent.tools, …))``.

This module runs programs (on the asyncio interpreter): it lives with the interpreters, as
the MCP proxy does (``toolpipe/`` runs none). The extra ``[openai-agents]`` installs the SDK.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from typing import Any

from agents import Agent, FunctionTool

from interpreters.asyncio import AsyncioInterpreter
from interpreters.stores import MemoryStore
from toolpipe.config import DEFAULT_PIPELINE
from toolpipe.integrations.wrap import Declared, Wrapped, as_content
from toolpipe.pipeline import PipelineBuilder

__all__ = ["toolpipe_agent", "toolpipe_tools"]


def toolpipe_tools(tools: Iterable[Any], pipeline: str | PipelineBuilder = DEFAULT_PIPELINE,
                   *, read_only: Iterable[str] = (), cacheable: Iterable[str] = (),
                   approvals: bool = False) -> list[Any]:
    """The tools, each ``FunctionTool`` through one pipeline (their layers share memory:
    the cache, the shield's session). ``approvals``: a question a layer would ask is the
    SDK's own approval (``needs_approval``, read before the call runs): the run stops with
    it in ``result.interruptions``; approved in the ``RunState``, the call runs and the
    layer does not ask again; rejected, it never runs."""
    wrapped = Wrapped(pipeline)
    store = MemoryStore()
    asked: set[str] = set()  # calls put to a person: they run only once approved
    quiet, kept_names = frozenset(read_only), frozenset(cacheable)
    out: list[Any] = []
    for tool in tools:
        if not isinstance(tool, FunctionTool):
            out.append(tool)
            continue
        wrapped.declare([Declared(tool.name, tool.description or "",
                                  tool.params_json_schema, read_only=tool.name in quiet,
                                  cacheable=tool.name in kept_names)])
        changes: dict[str, Any] = {"on_invoke_tool": _invoker(tool, wrapped, store, asked)}
        if approvals:
            changes["needs_approval"] = _approval(tool.name, wrapped, store, asked)
        out.append(dataclasses.replace(tool, **changes))
    return out


def _approval(name: str, wrapped: Wrapped, store: MemoryStore, asked: set[str]) -> Any:
    async def needs_approval(context: Any, params: dict[str, Any], call_id: str) -> bool:
        question = await AsyncioInterpreter(store).run(wrapped.question(name, params))
        if question is None:
            return False
        asked.add(call_id)
        return True

    return needs_approval


def toolpipe_agent(agent: Agent[Any], pipeline: str | PipelineBuilder = DEFAULT_PIPELINE,
                   **options: Any) -> Agent[Any]:
    """The agent with its function tools through the pipeline."""
    return agent.clone(tools=toolpipe_tools(agent.tools, pipeline, **options))


def _invoker(tool: FunctionTool, wrapped: Wrapped, store: MemoryStore,
             asked: set[str]) -> Any:
    own = tool.on_invoke_tool

    async def invoke(context: Any, input: str) -> Any:
        try:
            arguments = json.loads(input) if input else {}
        except ValueError:
            arguments = None
        if not isinstance(arguments, dict):  # the SDK's own tool says what is wrong
            return await own(context, input)
        kept: dict[str, Any] = {}

        async def run(given: dict[str, Any]) -> Any:
            kept["value"] = await own(context, json.dumps(given))
            return _shown(kept["value"])

        usage = getattr(context, "usage", None)
        turn = max(1, int(getattr(usage, "requests", 1) or 1))
        call_id = str(getattr(context, "tool_call_id", "") or "")
        program = wrapped.program(tool.name, arguments, run, call_id=call_id, turn=turn,
                                  approved=call_id in asked)  # the SDK asked, and ran it
        result = await AsyncioInterpreter(store).run(program)
        if "value" in kept and not result.is_error and \
                as_content(_shown(kept["value"])) == result.output:
            return kept["value"]  # no layer changed it: the tool's own output
        return result.text

    return invoke


def _shown(value: Any) -> str:
    """What the layers read of a tool's output."""
    return value if isinstance(value, str) else str(value)
