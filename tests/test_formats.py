"""OpenAI chat-completions and Anthropic messages shapes, on recorded example payloads
(no network): calls in, results out, paired by id, malformed calls answered in place."""

import json
import pathlib
import re

import pytest

from interpreters.simulated import SimulatedInterpreter
from toolpipe import (
    Agent,
    Engine,
    ImageContent,
    MultipartContent,
    TextContent,
    Tool,
    ToolRegistry,
)
from toolpipe.agent import AssistantMessage, ToolResultsMessage, UserMessage
from toolpipe.formats import anthropic, openai
from toolpipe.formats._common import FormatError

DATA = pathlib.Path(__file__).parent / "data" / "formats"


def load(name):
    return json.loads((DATA / name).read_text())


def make_registry():
    return ToolRegistry([
        Tool.from_function("Read", lambda input, context: f"contents of {input['path']}",
                           description="Read a file", concurrency_safe=True,
                           input_schema={"type": "object",
                                         "properties": {"path": {"type": "string"}},
                                         "required": ["path"]}),
        Tool.from_function("Glob", lambda input, context: "a.py\nb.py",
                           concurrency_safe=True),
        Tool.from_function("Snap", lambda input, context: MultipartContent(
            (TextContent("shot"), ImageContent(b"\x89PNG", "image/png")))),
    ])


def run_turn(calls):
    return SimulatedInterpreter().run(Engine(make_registry()).dispatch_turn(calls))


def test_openai_round_trip():
    reply = openai.reply(load("openai_response.json"))
    assert [(c.id, c.name, dict(c.input)) for c in reply.tool_calls] == [
        ("call_Read1", "Read", {"path": "notes.txt"}), ("call_Glob2", "Glob", {"pattern": "*.py"})]
    results = run_turn(reply.tool_calls)
    assert openai.tool_messages(results) == [
        {"role": "tool", "tool_call_id": "call_Read1", "content": "contents of notes.txt"},
        {"role": "tool", "tool_call_id": "call_Glob2", "content": "a.py\nb.py"},
    ]


def test_openai_malformed_calls_each_get_a_result():
    reply = openai.reply(load("openai_malformed.json"))
    assert reply.text == "Let me look." and len(reply.tool_calls) == 4
    assert reply.stop_reason == "tool_calls"
    messages = openai.tool_messages(run_turn(reply.tool_calls))
    assert len(messages) == 4
    contents = [m["content"] for m in messages]
    assert contents[0] == "contents of notes.txt"
    assert contents[1].startswith("Error: Invalid tool call: arguments are not valid JSON")
    assert contents[2].startswith("Error: Invalid tool call: duplicate id 'call_ok'")
    assert contents[3].startswith("Error: Invalid tool call: missing tool name")
    assert [m["tool_call_id"] for m in messages] == ["call_ok", "call_bad", "call_ok",
                                                      "call_nofn"]


@pytest.mark.parametrize(("entry", "problem"), [
    ({"type": "function", "function": {"name": "Read", "arguments": "{}"}},
     "tool_calls[1]: a tool call without an id"),
    ("stray text", "tool_calls[1]: a str is not a tool call"),
])
def test_openai_never_invents_a_call(entry, problem):
    message = {"role": "assistant", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "Read", "arguments": "{}"}},
        entry]}
    with pytest.raises(FormatError, match=re.escape(problem)):
        openai.reply(message)


def test_anthropic_round_trip():
    reply = anthropic.reply(load("anthropic_response.json"))
    assert reply.text == "I'll read the notes and list the Python files."
    assert [c.id for c in reply.tool_calls] == ["toolu_01A09q90qw90lq917835lq9", "toolu_01B"]
    message = anthropic.tool_result_message(run_turn(reply.tool_calls))
    assert message == {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
         "content": [{"type": "text", "text": "contents of notes.txt"}]},
        {"type": "tool_result", "tool_use_id": "toolu_01B",
         "content": [{"type": "text", "text": "a.py\nb.py"}]},
    ]}


def test_anthropic_malformed_calls_each_get_a_result():
    reply = anthropic.reply(load("anthropic_malformed.json"))
    assert reply.stop_reason == "tool_use"
    results = run_turn(reply.tool_calls)
    blocks = anthropic.tool_result_message(results)["content"]
    assert len(blocks) == 4
    texts = [b["content"][0]["text"] for b in blocks]
    assert texts[0] == "contents of notes.txt" and "is_error" not in blocks[0]
    assert texts[1].startswith("Invalid tool call: arguments: expected a JSON object")
    assert blocks[1]["is_error"] is True
    assert texts[2].startswith("Invalid tool call: duplicate id 'toolu_ok'")
    assert texts[3].startswith("Invalid tool call: missing tool name")


@pytest.mark.parametrize(("block", "problem"), [
    ({"type": "tool_use", "name": "Read", "input": {}},
     "content[1]: a tool_use block without an id"),
    ("stray text", "content[1]: a str is not a content block"),
])
def test_anthropic_never_invents_a_call(block, problem):
    message = {"role": "assistant", "content": [
        {"type": "tool_use", "id": "t1", "name": "Read", "input": {}}, block]}
    with pytest.raises(FormatError, match=re.escape(problem)):
        anthropic.reply(message)


def test_images_travel_to_anthropic_and_are_described_to_openai():
    results = run_turn(anthropic.tool_calls(
        [{"type": "tool_use", "id": "t1", "name": "Snap", "input": {}}]))
    block = anthropic.tool_result_message(results)["content"][0]
    assert block["content"][1] == {"type": "image", "source": {
        "type": "base64", "media_type": "image/png", "data": "iVBORw=="}}
    assert openai.tool_messages(results)[0]["content"] == "shot\n[image: image/png, 4 bytes]"


def test_tool_declarations_in_both_shapes():
    decls = make_registry().declarations()
    assert openai.tools(decls)[0] == {"type": "function", "function": {
        "name": "Read", "description": "Read a file",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}},
                       "required": ["path"]}}}
    assert anthropic.tools(decls)[0] == {
        "name": "Read", "description": "Read a file",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},
                         "required": ["path"]}}


class ProviderModel:
    """A host's adapter: a (fake, recorded) client behind the Model protocol."""

    def __init__(self, shape, responses):
        self.shape = shape
        self.responses = list(responses)
        self.sent = []

    def respond(self, messages, tools):
        fmt = openai if self.shape == "openai" else anthropic
        self.sent.append((fmt.messages(messages), fmt.tools(tools)))
        return fmt.reply(self.responses.pop(0))


@pytest.mark.parametrize("shape", ["openai", "anthropic"])
def test_a_whole_session_through_a_provider_shape(shape):
    final = ({"choices": [{"message": {"role": "assistant", "content": "Two files."}}]}
             if shape == "openai" else {"content": [{"type": "text", "text": "Two files."}]})
    model = ProviderModel(shape, [load(f"{shape}_response.json"), final])
    run = SimulatedInterpreter().run(Agent(model, make_registry()).run("What is here?"))
    assert run.final_text == "Two files." and run.stop_reason == "done"
    sent, tools = model.sent[1]
    assert len(tools) == 3
    if shape == "openai":
        assert [m["role"] for m in sent] == ["user", "assistant", "tool", "tool"]
        assert sent[1]["tool_calls"][0]["function"] == {"name": "Read",
                                                        "arguments": '{"path": "notes.txt"}'}
        assert sent[2]["tool_call_id"] == "call_Read1"
    else:
        assert [m["role"] for m in sent] == ["user", "assistant", "user"]
        assert sent[1]["content"][1]["type"] == "tool_use"
        assert sent[2]["content"][0]["tool_use_id"] == "toolu_01A09q90qw90lq917835lq9"


def test_openai_messages_with_a_system_prompt():
    history = [UserMessage("hi"), AssistantMessage("hello")]
    assert openai.messages(history, system="be brief") == [
        {"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello"}]
    assert anthropic.messages([*history, ToolResultsMessage(())])[-1] == {
        "role": "user", "content": []}


def test_payloads_that_are_not_the_shape_raise_format_errors():
    with pytest.raises(FormatError, match="choices"):
        openai.reply({"choices": []})
    with pytest.raises(FormatError, match="tool_calls"):
        openai.reply({"role": "assistant", "tool_calls": "Read"})
    with pytest.raises(FormatError, match="content"):
        anthropic.reply({"content": 7})
    with pytest.raises(FormatError, match="response"):
        anthropic.reply(["not", "a", "message"])
