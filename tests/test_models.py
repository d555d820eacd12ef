"""OpenAIModel and AnthropicModel with the real SDK clients over an httpx mock transport (no
network): a tool-use round trip with parallel calls, a malformed call, a 400 with the
service's own message, and the SDK's own retry on a 429."""

from __future__ import annotations

import asyncio
import importlib.util
import json
from typing import Any

import pytest

from interpreters.asyncio import AsyncioInterpreter
from toolpipe import Agent, ToolRegistry
from toolpipe.models import AnthropicModel, OpenAIModel

pytestmark = [pytest.mark.xdist_group("sdk"), pytest.mark.skipif(
    importlib.util.find_spec("anthropic") is None or importlib.util.find_spec("openai") is None,
    reason="the provider SDKs are a test extra")]


def registry() -> ToolRegistry:
    r = ToolRegistry()
    r.tool("Read", concurrency_safe=True, input_schema={
        "type": "object", "properties": {"path": {"type": "string"}}})(
        lambda input, context: f"text of {input['path']}")
    return r


def http() -> Any:
    """The HTTP library the SDKs are built on: newer ones ship their own fork, httpx2."""
    try:
        import httpx2
    except ImportError:
        import httpx
        return httpx
    return httpx2


class Service:
    """A scripted HTTP service: answers in order, records every request body."""

    def __init__(self, *answers: tuple[int, dict[str, Any], dict[str, str]]) -> None:
        self.answers = list(answers)
        self.requests: list[dict[str, Any]] = []
        self.http: Any = http()

    def __call__(self, request: Any) -> Any:
        self.requests.append(json.loads(request.content))
        status, body, headers = self.answers.pop(0)
        return self.http.Response(status, json=body, headers=headers)


def openai_client(service: Service, retries: int = 0, cls: Any = None) -> Any:
    import openai

    lib = http()
    return (cls or openai.AsyncOpenAI)(
        api_key="sk-test", base_url="http://model.test/v1", max_retries=retries,
        http_client=lib.AsyncClient(transport=lib.MockTransport(service)))


def anthropic_client(service: Service, retries: int = 0, cls: Any = None) -> Any:
    import anthropic

    lib = http()
    return (cls or anthropic.AsyncAnthropic)(
        api_key="sk-ant-test", base_url="http://model.test", max_retries=retries,
        http_client=lib.AsyncClient(transport=lib.MockTransport(service)))


def completion(message: dict[str, Any], finish: str) -> dict[str, Any]:
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-test",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}


def message(content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
            "content": content, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5}}


def play(model: Any, prompt: str = "read a and b") -> Any:
    async def main() -> Any:
        return await AsyncioInterpreter().run(Agent(model, registry()).run(prompt))
    return asyncio.run(main())


OK: dict[str, str] = {}
PARALLEL = {"role": "assistant", "content": None, "tool_calls": [
    {"id": "call_a", "type": "function", "function": {"name": "Read",
                                                      "arguments": '{"path": "a"}'}},
    {"id": "call_b", "type": "function", "function": {"name": "Read",
                                                      "arguments": '{"path": "b"}'}},
    {"id": "call_bad", "type": "function", "function": {"name": "Read",
                                                        "arguments": '{"path": '}}]}


def test_openai_round_trip_with_parallel_and_malformed_calls():
    service = Service((200, completion(PARALLEL, "tool_calls"), OK),
                      (200, completion({"role": "assistant", "content": "Done."}, "stop"), OK))
    run = play(OpenAIModel(openai_client(service), model="gpt-test", system="be brief"))
    assert run.stop_reason == "done" and run.messages[-1].text == "Done."
    second = service.requests[1]["messages"]
    assert second[0] == {"role": "system", "content": "be brief"}
    tool_answers = {m["tool_call_id"]: m["content"] for m in second if m["role"] == "tool"}
    assert tool_answers["call_a"] == "text of a" and tool_answers["call_b"] == "text of b"
    assert tool_answers["call_bad"].startswith("Error: Invalid tool call")
    assert service.requests[0]["tools"][0]["function"]["name"] == "Read"


def test_anthropic_round_trip_with_parallel_calls():
    service = Service(
        (200, message([{"type": "thinking", "thinking": "two reads", "signature": "sig1"},
                       {"type": "tool_use", "id": "t_a", "name": "Read", "input": {"path": "a"}},
                       {"type": "tool_use", "id": "t_b", "name": "Read", "input": {"path": "b"}}],
                      "tool_use"), OK),
        (200, message([{"type": "text", "text": "Done."}], "end_turn"), OK))
    run = play(AnthropicModel(anthropic_client(service), model="claude-test", system="brief"))
    assert run.stop_reason == "done" and run.messages[-1].text == "Done."
    second = service.requests[1]
    assert second["system"] == "brief" and second["max_tokens"] == 4096
    assistant, results = second["messages"][1], second["messages"][2]
    assert assistant["content"][0] == {"type": "thinking", "thinking": "two reads",
                                       "signature": "sig1"}
    assert [b["tool_use_id"] for b in results["content"]] == ["t_a", "t_b"]


def test_a_400_ends_the_run_with_the_services_message():
    error = {"error": {"message": "Invalid 'messages': too long", "type": "invalid_request_error",
                       "code": None, "param": None}}
    service = Service((400, error, OK))
    run = play(OpenAIModel(openai_client(service), model="gpt-test"))
    assert run.stop_reason == "model_error"
    assert "openai refused the request" in run.error and "too long" in run.error


def test_the_sdks_own_retry_on_429():
    busy = {"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}
    service = Service((429, busy, {"retry-after-ms": "1"}),
                      (200, message([{"type": "text", "text": "Hello."}], "end_turn"), OK))
    run = play(AnthropicModel(anthropic_client(service, retries=2), model="claude-test"))
    assert run.stop_reason == "done" and run.messages[-1].text == "Hello."
    assert len(service.requests) == 2  # retried by the SDK, not by toolpipe


def test_a_client_that_is_not_one_is_refused():
    from toolpipe.errors import ConfigError

    with pytest.raises(ConfigError, match="openai client"):
        OpenAIModel(object(), model="gpt-test")
    with pytest.raises(ConfigError, match="max_tokens"):
        AnthropicModel(anthropic_client(Service()), model="c", max_tokens=0)


def test_the_docs_agents_run_as_written(tmp_path, monkeypatch, capsys):
    """docs/model_client.md's two complete agents, run as written: the SDK clients they
    build get a mock transport serving a Read of README.md, then an answer."""
    import pathlib

    import anthropic as anthropic_sdk
    import openai as openai_sdk

    from tests.test_docs import blocks

    page = pathlib.Path(__file__).parent.parent / "docs" / "model_client.md"
    first, second = blocks(page, needing=True)
    (tmp_path / "README.md").write_text("It says hello.")
    monkeypatch.chdir(tmp_path)
    read = {"id": "c1", "type": "function",
            "function": {"name": "Read", "arguments": '{"path": "README.md"}'}}
    openai_service = Service((200, completion({"role": "assistant", "content": None,
                                               "tool_calls": [read]}, "tool_calls"), OK),
                             (200, completion({"role": "assistant", "content": "Hello."},
                                              "stop"), OK))
    real_openai, real_anthropic = openai_sdk.AsyncOpenAI, anthropic_sdk.AsyncAnthropic
    monkeypatch.setattr(openai_sdk, "AsyncOpenAI",
                        lambda: openai_client(openai_service, cls=real_openai))
    exec(compile(first, str(page), "exec"), {"__name__": "__docs__"})
    assert capsys.readouterr().out == "Hello.\n"
    assert "It says hello." in json.dumps(openai_service.requests[1])
    anthropic_service = Service(
        (200, message([{"type": "tool_use", "id": "t1", "name": "Read",
                        "input": {"path": "README.md"}}], "tool_use"), OK),
        (200, message([{"type": "text", "text": "Hello."}], "end_turn"), OK))
    monkeypatch.setattr(anthropic_sdk, "AsyncAnthropic",
                        lambda: anthropic_client(anthropic_service, cls=real_anthropic))
    exec(compile(second, str(page), "exec"), {"__name__": "__docs__"})
    assert capsys.readouterr().out == "Hello.\n"
    assert "It says hello." in json.dumps(anthropic_service.requests[1])


def test_openai_responses_api_round_trip():
    first = {"id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-test",
             "status": "completed", "parallel_tool_calls": True, "tool_choice": "auto",
             "tools": [], "output": [
                 {"type": "reasoning", "id": "rs_1", "summary": []},
                 {"type": "function_call", "id": "fc_1", "call_id": "call_a", "name": "Read",
                  "arguments": '{"path": "a"}', "status": "completed"}]}
    second = {**first, "id": "resp_2", "output": [
        {"type": "message", "id": "m1", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "Done.", "annotations": []}]}]}
    service = Service((200, first, OK), (200, second, OK))
    run = play(OpenAIModel(openai_client(service), model="gpt-test", api="responses",
                           system="brief"))
    assert run.stop_reason == "done" and run.messages[-1].text == "Done."
    sent = service.requests[1]
    assert sent["instructions"] == "brief"
    assert [i.get("type") for i in sent["input"][1:]] == [
        "reasoning", "function_call", "function_call_output"]
    assert sent["input"][-1]["output"] == "text of a"


def run_cli(*argv: str) -> tuple[int, str]:
    import io

    from toolpipe.cli import main

    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


@pytest.mark.parametrize(("argv", "env", "problem"), [
    (["--model", "openai:gpt-test", "--workspace", ".", "hi"], {},
     "--model: openai needs your key in the environment: export OPENAI_API_KEY=…"),
    (["--model", "gemini:x", "--workspace", ".", "hi"], {},
     "--model: expected openai:MODEL or anthropic:MODEL"),
    (["--model", "openai:gpt-test", "hi"], {"OPENAI_API_KEY": "sk-test"},
     "--model needs --workspace DIR"),
    (["--model", "openai:gpt-test", "--workspace", "."], {"OPENAI_API_KEY": "sk-test"},
     "--model needs a prompt"),
    (["--workspace", ".", "hi"], {}, "--workspace and a prompt go with --model"),
    (["--model", "anthropic:c", "--workspace", "/nonexistent-dir", "hi"], {},
     "--workspace /nonexistent-dir: not a folder"),
])
def test_run_with_a_model_explains_what_is_missing(argv, env, problem, monkeypatch, capsys):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    code, _ = run_cli("run", *argv)
    err = capsys.readouterr().err
    assert code == 2 and problem in err and "Traceback" not in err


def test_run_with_a_model_and_no_extra_says_how_to_install(monkeypatch, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "anthropic" else real(name, *a))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    code, _ = run_cli("run", "--model", "anthropic:claude-test", "--workspace", ".", "hi")
    err = capsys.readouterr().err
    assert code == 2 and "pip install 'toolpipe-middleware[anthropic]'" in err


def test_run_with_a_model_on_a_real_task(tmp_path, monkeypatch):
    import openai as openai_sdk

    (tmp_path / "README.md").write_text("It says hello.")
    read = {"id": "c1", "type": "function",
            "function": {"name": "Read", "arguments": '{"path": "README.md"}'}}
    service = Service((200, completion({"role": "assistant", "content": None,
                                        "tool_calls": [read]}, "tool_calls"), OK),
                      (200, completion({"role": "assistant", "content": "It says hello."},
                                       "stop"), OK))
    real = openai_sdk.AsyncOpenAI
    monkeypatch.setattr(openai_sdk, "AsyncOpenAI",
                        lambda api_key: openai_client(service, cls=real))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    code, out = run_cli("run", "--model", "openai:gpt-test", "--workspace", str(tmp_path),
                        "What does README.md say?")
    assert code == 0
    assert f"workspace: {tmp_path}" in out and "Read" in out
    assert "model: It says hello." in out
