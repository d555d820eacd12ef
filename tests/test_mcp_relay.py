"""The MCP proxy's routing without I/O (toolpipe.integrations.mcp_relay): every answer
reaches whoever asked, under the id they asked with, whatever ids the two sides and the
proxy use; a cancellation follows its request across; only tools/call is taken out."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpipe.integrations.mcp_relay import (
    Answered,
    CancelCall,
    Relay,
    Send,
    StartCall,
    ToolsChanged,
)

IDS = st.one_of(st.integers(0, 4), st.sampled_from(["1", "a", "toolpipe-1"]))


def request(key: Any, method: str = "resources/read", **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": key, "method": method, "params": params}


def answer(key: Any, value: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": key, "result": {"value": value}}


def check_routing(relay: Relay, client_ids: list[Any], upstream_ids: list[Any],
                  own: int, seed: int) -> None:
    """Requests from both sides and the proxy's own, answered in a random order by the
    side they went to: each answer comes back once, to its asker, under its own id."""
    outstanding: list[tuple[str, dict[str, Any], tuple[str, Any]]] = []
    for n, key in enumerate(dict.fromkeys(client_ids)):
        [send] = relay.from_client(request(key, n=n))
        outstanding.append((send.to, send.message, ("client", key)))
    for n, key in enumerate(dict.fromkeys(upstream_ids)):
        [send] = relay.from_upstream(request(key, "sampling/createMessage", n=n))
        outstanding.append((send.to, send.message, ("upstream", key)))
    for n in range(own):
        token, send = relay.request("upstream" if n % 2 else "client", "ping", {})
        outstanding.append((send.to, send.message, ("own", token)))
    random.Random(seed).shuffle(outstanding)
    got = []
    for side, message, asker in outstanding:
        read = relay.from_client if side == "client" else relay.from_upstream
        actions = read(answer(message["id"], repr(asker)))
        assert len(actions) == 1, (asker, actions)
        [action] = actions
        if isinstance(action, Answered):
            got.append((("own", action.token), action.message["result"]["value"]))
        else:
            assert isinstance(action, Send) and action.to == asker[0], (asker, action)
            got.append(((action.to, action.message["id"]),
                        action.message["result"]["value"]))
    assert sorted(map(repr, got)) == sorted(repr((a, repr(a))) for _, _, a in outstanding)
    assert relay.waiting == 0


@settings(max_examples=150, deadline=None)
@given(st.lists(IDS, max_size=6), st.lists(IDS, max_size=6), st.integers(0, 4),
       st.integers(0, 1 << 16))
def test_every_answer_reaches_its_asker_under_its_own_id(client, upstream, own, seed):
    check_routing(Relay(), client, upstream, own, seed)


class SameIds(Relay):
    """Deliberately broken: forwards requests under the ids they came with."""

    def _request(self, side, method, key, message):  # type: ignore[no-untyped-def]
        actions = super()._request(side, method, key, message)
        for action in actions:
            if isinstance(action, Send):
                new = action.message["id"]
                other = action.to
                self._pending[other][key] = self._pending[other].pop(new)  # type: ignore[index]
                action.message["id"] = key
        return actions


def test_the_routing_property_catches_a_relay_that_keeps_the_ids():
    with pytest.raises(AssertionError):  # the client's id 2 and the proxy's own id 2 meet
        check_routing(SameIds(), [2], [], 2, 0)


def test_a_tools_call_goes_to_the_pipeline_and_its_cancellation_with_it():
    relay = Relay()
    [start] = relay.from_client(request(7, "tools/call", name="echo", arguments={}))
    assert start == StartCall(7, {"name": "echo", "arguments": {}})
    [again] = relay.from_client(request(7, "tools/call", name="echo"))
    assert isinstance(again, Send) and "already in use" in again.message["error"]["message"]
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled",
              "params": {"requestId": 7, "reason": "stop"}}
    assert relay.from_client(cancel) == [CancelCall(7)]
    relay.cancelled(7)
    assert relay.answer(7, {"content": []}) == []  # a cancelled request gets no answer


def test_a_cancellation_of_a_forwarded_request_is_translated_and_others_dropped():
    relay = Relay()
    [send] = relay.from_client(request("r", "prompts/get", name="p"))
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled",
              "params": {"requestId": "r", "reason": "stop"}}
    [note] = relay.from_client(cancel)
    assert note.to == "upstream" and note.message["params"] == {
        "requestId": send.message["id"], "reason": "stop"}
    relay.from_upstream(answer(send.message["id"], 1))
    assert relay.from_client(cancel) == []  # answered already: nothing to cancel


def test_notifications_pass_as_they_came_and_a_changed_tool_list_is_noticed():
    relay = Relay()
    progress = {"jsonrpc": "2.0", "method": "notifications/progress",
                "params": {"progressToken": "t", "progress": 1}}
    assert relay.from_upstream(progress) == [Send("client", progress)]
    changed = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
    assert relay.from_upstream(changed) == [Send("client", changed), ToolsChanged()]
    roots = {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}
    assert relay.from_client(roots) == [Send("upstream", roots)]


def test_what_the_client_says_of_itself_is_learned():
    relay = Relay()
    relay.from_client(request(0, "initialize", capabilities={"elicitation": {}}))
    assert "elicitation" in relay.client_capabilities and relay.handshake == 1
    relay.from_upstream(answer(1, "ok"))
    assert relay.handshake is None
    envelope = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {"sampling": {}}, "other": 1}
    relay.from_client(request(1, "resources/list", _meta=envelope))
    _, send = relay.request("upstream", "tools/list", {})
    meta = send.message["params"]["_meta"]
    assert meta["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"
    assert "other" not in meta and relay.client_capabilities == {"sampling": {}}


def test_bad_messages_get_errors_and_batches_are_read_one_by_one():
    relay = Relay()
    [bad] = relay.from_client(42)
    assert bad.to == "client" and bad.message["error"]["code"] == -32600
    [odd] = relay.from_client({"jsonrpc": "2.0", "id": 3})
    assert odd.message["id"] == 3 and odd.message["error"]["code"] == -32600
    [float_id] = relay.from_client(request(1.5))
    assert float_id.message["error"]["code"] == -32600
    batch = relay.from_client([request(1), request(2)])
    assert [a.message["id"] for a in batch] == [1, 2]  # type: ignore[union-attr]
    assert relay.from_upstream(answer(99, "stray")) == []


def test_an_upstream_that_ends_answers_everything_waiting_on_it():
    relay = Relay()
    relay.from_client(request("a"))
    token, _ = relay.request("upstream", "tools/list", {})
    actions = relay.upstream_gone("gone")
    assert Send("client", {"jsonrpc": "2.0", "id": "a", "error": {
        "code": -32603, "message": "gone"}}) in actions
    assert any(isinstance(a, Answered) and a.token == token for a in actions)
    assert relay.waiting == 0
