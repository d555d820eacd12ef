"""The converters with the real SDK objects (openai and anthropic, a test extra): their
responses read, thinking blocks kept in order with their signatures, usage and stop
reasons kept, and every payload toolpipe sends checked against the SDK's own request
types."""

from __future__ import annotations

import functools
import importlib.util
import json
import pathlib
from typing import Any

import pytest

from interpreters.simulated import SimulatedInterpreter
from toolpipe import (
    Agent,
    DispatchResult,
    ScriptedModel,
    TextContent,
    ToolRegistry,
    UserMessage,
)
from toolpipe.agent import AssistantMessage, ToolResultsMessage
from toolpipe.formats import anthropic, openai
from toolpipe.formats._common import FormatError

# the SDKs are imported inside the tests: collecting this module in every worker must not
# cost their import and pydantic's schema building
pytestmark = [pytest.mark.xdist_group("sdk"), pytest.mark.skipif(
    importlib.util.find_spec("anthropic") is None or importlib.util.find_spec("openai") is None,
    reason="the provider SDKs are a test extra")]
DATA = pathlib.Path(__file__).parent / "data" / "formats"


@functools.cache
def anthropic_params() -> Any:
    import pydantic
    from anthropic.types import MessageParam
    return pydantic.TypeAdapter(list[MessageParam])


@functools.cache
def openai_params() -> Any:
    import pydantic
    from openai.types.chat import ChatCompletionMessageParam
    return pydantic.TypeAdapter(list[ChatCompletionMessageParam])


def sdk_message(data: dict[str, Any]) -> Any:
    from anthropic.types import Message
    return Message.model_validate(data)


def sdk_completion(data: dict[str, Any]) -> Any:
    from openai.types.chat import ChatCompletion
    return ChatCompletion.model_validate(data)


THINKING = {
    "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
    "content": [
        {"type": "thinking", "thinking": "Read the notes first.", "signature": "EqQBCkYIAR"},
        {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"},
        {"type": "text", "text": "Reading."},
        {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {"path": "a.txt"}},
        {"type": "tool_use", "id": "toolu_2", "name": "Read", "input": {"path": "b.txt"}},
    ],
    "stop_reason": "tool_use", "stop_sequence": None,
    "usage": {"input_tokens": 412, "output_tokens": 87},
}


def test_anthropic_sdk_message_keeps_thinking_usage_and_order():
    message = sdk_message(THINKING)
    reply = anthropic.reply(message)
    assert [c.id for c in reply.tool_calls] == ["toolu_1", "toolu_2"]
    assert reply.stop_reason == "tool_use"
    assert reply.usage is not None and reply.usage["input_tokens"] == 412
    assert [b["type"] for b in reply.content] == [
        "thinking", "redacted_thinking", "text", "tool_use", "tool_use"]
    # the tool_use blocks read straight from the SDK's content list, too
    assert [c.name for c in anthropic.tool_calls(message.content)] == ["Read", "Read"]
    history = [UserMessage("read a and b"),
               AssistantMessage(reply.text, reply.tool_calls, content=reply.content),
               ToolResultsMessage([DispatchResult("toolu_1", TextContent("A"), False, 0.0,
                                                  "Read"),
                                   DispatchResult("toolu_2", TextContent(""), False, 0.0,
                                                  "Read")])]
    sent = anthropic.messages(history)
    anthropic_params().validate_python(sent)  # the SDK's own request type accepts it
    assistant = sent[1]["content"]
    assert assistant[0] == {"type": "thinking", "thinking": "Read the notes first.",
                            "signature": "EqQBCkYIAR"}
    assert assistant[1] == {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"}
    empty = sent[2]["content"][1]["content"]
    assert empty == [{"type": "text", "text": "(no output)"}]  # never an empty text block


def test_openai_sdk_completion_is_read_and_answered():
    completion = sdk_completion(json.loads((DATA / "openai_response.json").read_text()))
    reply = openai.reply(completion)
    assert [c.name for c in reply.tool_calls] == ["Read", "Glob"]
    assert reply.stop_reason == "tool_calls"
    history = [UserMessage("look"), AssistantMessage(reply.text, reply.tool_calls),
               ToolResultsMessage([DispatchResult(c.id, TextContent("ok"), False, 0.0, c.name)
                                   for c in reply.tool_calls])]
    openai_params().validate_python(openai.messages(history, system="be brief"))


def test_an_sdk_block_toolpipe_cannot_read_is_named():
    with pytest.raises(FormatError, match=r"content\[0\]: a int is not a content block"):
        anthropic.tool_calls([7])


def test_an_agent_runs_on_sdk_replies():
    registry = ToolRegistry()
    registry.tool("Read", concurrency_safe=True)(lambda input, context: f"text of {input['path']}")
    second = {**THINKING, "id": "msg_02", "stop_reason": "end_turn",
              "content": [{"type": "text", "text": "Both read."}]}
    model = ScriptedModel([anthropic.reply(sdk_message(THINKING)),
                           anthropic.reply(sdk_message(second))])
    run = SimulatedInterpreter().run(Agent(model, registry).run("read a and b"))
    assert run.stop_reason == "done"
    sent = anthropic.messages(run.messages)
    anthropic_params().validate_python(sent)
    assert sent[1]["content"][0]["type"] == "thinking"


RESPONSE = {
    "id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-test",
    "status": "completed", "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
    "output": [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "id": "fc_1", "call_id": "call_a", "name": "Read",
         "arguments": '{"path": "a"}', "status": "completed"},
        {"type": "function_call", "id": "fc_2", "call_id": "call_b", "name": "Read",
         "arguments": '{"path": ', "status": "completed"},
    ],
    "usage": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
              "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
              "output_tokens_details": {"reasoning_tokens": 2}},
}


def test_openai_responses_round_trip_on_the_sdk_types():
    import pydantic
    from openai.types.responses import Response, ResponseInputParam

    from toolpipe.formats import openai_responses

    reply = openai_responses.reply(Response.model_validate(RESPONSE))
    assert [c.id for c in reply.tool_calls] == ["call_a", "call_b"]
    assert reply.tool_calls[1].problem is not None  # bad JSON: answered, not dropped
    assert reply.stop_reason == "completed" and reply.usage["total_tokens"] == 15
    results = [DispatchResult("call_a", TextContent("A"), False, 0.0, "Read"),
               DispatchResult("call_b", TextContent("bad"), True, 0.0, "Read")]
    history = [UserMessage("read"),
               AssistantMessage(reply.text, reply.tool_calls, content=reply.content),
               ToolResultsMessage(results)]
    items = openai_responses.inputs(history)
    pydantic.TypeAdapter(ResponseInputParam).validate_python(items)
    assert [i.get("type") for i in items[1:]] == [
        "reasoning", "function_call", "function_call", "function_call_output",
        "function_call_output"]
    assert items[-1] == {"type": "function_call_output", "call_id": "call_b",
                         "output": "Error: bad"}
    with pytest.raises(FormatError, match=r"output\[0\]: a function_call without a call_id"):
        openai_responses.reply({"output": [{"type": "function_call", "name": "Read"}]})
