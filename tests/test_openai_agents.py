"""toolpipe in an OpenAI Agents SDK agent (``toolpipe_agent(Agent(...))``), on a scripted
model written against the SDK's ``Model`` interface (tests/agent_tools.py: a blocked shell
command, a redacted secret, a cache hit)."""

from __future__ import annotations

import importlib.util
import json

import pytest

from .agent_tools import CALLS, OPTIONS, check, make_tools

pytestmark = pytest.mark.skipif(importlib.util.find_spec("agents") is None,
                                reason="the OpenAI Agents SDK is a test extra")


def scripted(calls):
    from agents import Usage
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    script = iter(calls)

    class Scripted(Model):
        async def get_response(self, *args, **kwargs):
            step = next(script, None)
            if step is None:
                output = [ResponseOutputMessage(
                    id="m", type="message", role="assistant", status="completed",
                    content=[ResponseOutputText(type="output_text", text="done",
                                                annotations=[])])]
            else:
                name, arguments, key = step
                output = [ResponseFunctionToolCall(
                    type="function_call", id=f"fc-{key}", call_id=key, name=name,
                    arguments=json.dumps(arguments))]
            return ModelResponse(output=output, usage=Usage(), response_id=None)

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError

    return Scripted()


def test_an_agents_sdk_agent():
    from agents import Agent, Runner, function_tool, set_tracing_disabled
    from agents.items import ToolCallOutputItem

    from interpreters.openai_agents import toolpipe_agent

    set_tracing_disabled(True)  # the SDK's own tracing posts to OpenAI: not from a test
    ran: list[str] = []
    agent = toolpipe_agent(Agent(name="a", model=scripted(CALLS), tools=[
        function_tool(f) for f in make_tools(ran)]), **OPTIONS)
    result = Runner.run_sync(agent, "go")
    check({item.raw_item["call_id"]: item.output for item in result.new_items
           if isinstance(item, ToolCallOutputItem)}, ran)
    assert result.final_output == "done"


@pytest.mark.parametrize("approve", [True, False])
def test_a_question_is_the_sdks_own_approval(approve):
    """With ``approvals=True`` the shield's question is the SDK's ``needs_approval``: the
    run stops with the call in ``interruptions``; approved in the run state it runs (and
    the shield does not ask again), rejected it never runs."""
    from agents import Agent, Runner, function_tool, set_tracing_disabled
    from agents.items import ToolCallOutputItem

    from interpreters.openai_agents import toolpipe_agent

    set_tracing_disabled(True)
    ran: list[str] = []
    agent = toolpipe_agent(Agent(name="a", model=scripted(
        [("run_command", {"command": "chmod 777 build/out"}, "c1")]),
        tools=[function_tool(make_tools(ran)[0])]), approvals=True)
    first = Runner.run_sync(agent, "go")
    [question] = first.interruptions
    assert question.raw_item.call_id == "c1" and ran == []
    state = first.to_state()
    (state.approve if approve else state.reject)(question)
    second = Runner.run_sync(agent, state)
    outputs = [item.output for item in second.new_items
               if isinstance(item, ToolCallOutputItem)]
    if approve:
        assert ran == ["chmod 777 build/out"] and outputs == ["ran chmod 777 build/out"]
    else:
        assert ran == [] and outputs and "ran" not in outputs[0]
    assert second.final_output == "done"
