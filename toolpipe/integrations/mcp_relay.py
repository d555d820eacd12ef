"""The MCP proxy's routing, sans-IO: which message goes where, under which id.

``toolpipe mcp-proxy`` sits between a client and an upstream server and forwards every
JSON-RPC message both ways, as it came, so that everything MCP offers passes whatever it
is (resources, prompts, completions, logging, progress, sampling, elicitation, roots,
``listChanged``, pagination, instructions, and features added after this was written):
the proxy is transparent by construction, not by a list of features. Only ``tools/call``
is taken out, to run through the pipeline (``StartCall``); the pipeline's own requests
upstream (the tools list, each call) and the proxy's own requests to the client (an
elicitation when a layer asks a person) are made with ``Relay.request``.

Each side has its own id space: a request forwarded gets a fresh id on the other side,
and its answer gets the original one back, so the client's ids, the upstream's and the
proxy's own never collide. A ``notifications/cancelled`` is translated the same way; one
for a call in the pipeline becomes ``CancelCall``. This class does no I/O and keeps no
clock: ``interpreters/mcp_proxy.py`` reads and writes the lines, runs the pipeline and
times the handshake.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any, Literal

import attrs

__all__ = ["Answered", "CancelCall", "Relay", "Send", "StartCall", "ToolsChanged",
           "envelope_keys"]

Side = Literal["client", "upstream"]
JsonId = int | str

INVALID_REQUEST = -32600
INTERNAL_ERROR = -32603
ENVELOPE_PREFIX = "io.modelcontextprotocol/"
"""``_meta`` keys of the 2026 wire's per-request envelope (protocol version, client
info, capabilities): the proxy's own requests upstream carry the client's."""


@attrs.frozen
class Send:
    """Write ``message`` to ``to``."""

    to: Side
    message: dict[str, Any]


@attrs.frozen
class StartCall:
    """Run the client's ``tools/call`` (request ``key``) through the pipeline, then
    ``Relay.answer``."""

    key: JsonId
    params: dict[str, Any]


@attrs.frozen
class CancelCall:
    """The client cancelled its call ``key``, which is in the pipeline."""

    key: JsonId


@attrs.frozen
class Answered:
    """The answer (a response message) to the proxy's own request ``token``."""

    token: int
    message: dict[str, Any]


@attrs.frozen
class ToolsChanged:
    """The upstream's tools changed (``notifications/tools/list_changed``): list again."""


Action = Send | StartCall | CancelCall | Answered | ToolsChanged


def envelope_keys(meta: object) -> dict[str, Any]:
    """The envelope part of a request's ``_meta``."""
    if not isinstance(meta, Mapping):
        return {}
    return {k: v for k, v in meta.items() if isinstance(k, str)
            and k.startswith(ENVELOPE_PREFIX)}


def _error(key: JsonId | None, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": key, "error": {"code": code, "message": message}}


def _is_id(value: object) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


class Relay:
    """The routing tables of one proxied connection."""

    def __init__(self) -> None:
        self._ids = {"client": itertools.count(1), "upstream": itertools.count(1)}
        # by side, the id a request was given there → who asked, and under which id:
        # ("peer", original id) for a forwarded request, ("own", token) for the proxy's
        self._pending: dict[Side, dict[int, tuple[str, JsonId]]] = {
            "client": {}, "upstream": {}}
        # a forwarded request's original id → the id it was given (for a cancellation)
        self._forwarded: dict[Side, dict[JsonId, int]] = {"client": {}, "upstream": {}}
        self._tokens = itertools.count(1)
        self.calls: set[JsonId] = set()
        self.client_capabilities: dict[str, Any] = {}
        self.envelope: dict[str, Any] = {}
        self.handshake: int | None = None
        """The upstream id of the client's initialize (or discover) while it is unanswered."""

    # --- messages read from a side ------------------------------------------------------

    def from_client(self, message: object) -> list[Action]:
        return self._read("client", message)

    def from_upstream(self, message: object) -> list[Action]:
        return self._read("upstream", message)

    def _read(self, side: Side, message: object) -> list[Action]:
        if isinstance(message, list):  # a batch (the 2025-03-26 wire): each on its own
            return [a for item in message for a in self._read(side, item)]
        if not isinstance(message, dict):
            return [Send(side, _error(None, INVALID_REQUEST,
                                      "a JSON-RPC message is a JSON object"))]
        method, key = message.get("method"), message.get("id")
        if isinstance(method, str):
            if "id" in message:
                return self._request(side, method, key, message)
            return self._notification(side, method, message)
        if isinstance(key, (int, str)) and _is_id(key) and (
                "result" in message or "error" in message):
            return self._response(side, key, message)
        return [Send(side, _error(key if _is_id(key) else None, INVALID_REQUEST,
                                  "not a JSON-RPC request, notification or response"))]

    def _request(self, side: Side, method: str, key: object,
                 message: dict[str, Any]) -> list[Action]:
        if not _is_id(key):
            return [Send(side, _error(None, INVALID_REQUEST, "a request id is a string "
                                      "or an integer"))]
        assert isinstance(key, (int, str))
        params = message.get("params")
        if side == "client":
            self._learn(method, params)
            if method == "tools/call" and isinstance(params, dict):
                if key in self.calls:
                    return [Send("client", _error(key, INVALID_REQUEST,
                                                  f"request id {key!r} is already in use"))]
                self.calls.add(key)
                return [StartCall(key, params)]
        other: Side = "upstream" if side == "client" else "client"
        new = next(self._ids[other])
        self._pending[other][new] = ("peer", key)
        self._forwarded[side][key] = new
        if side == "client" and method in ("initialize", "server/discover"):
            self.handshake = new
        return [Send(other, {**message, "id": new})]

    def _learn(self, method: str, params: object) -> None:
        """What the client says about itself: its capabilities and its envelope."""
        if not isinstance(params, Mapping):
            return
        if method == "initialize" and isinstance(params.get("capabilities"), Mapping):
            self.client_capabilities = dict(params["capabilities"])
        envelope = envelope_keys(params.get("_meta"))
        if envelope:
            self.envelope = envelope
            caps = envelope.get(ENVELOPE_PREFIX + "clientCapabilities")
            if isinstance(caps, Mapping):
                self.client_capabilities = dict(caps)

    def _notification(self, side: Side, method: str,
                      message: dict[str, Any]) -> list[Action]:
        other: Side = "upstream" if side == "client" else "client"
        if method == "notifications/cancelled":
            params = message.get("params")
            key = params.get("requestId") if isinstance(params, Mapping) else None
            if side == "client" and key in self.calls:
                return [CancelCall(key)]
            new = self._forwarded[side].get(key) if isinstance(key, (int, str)) else None
            if new is None:
                return []  # already answered, or never asked: nothing to cancel
            assert isinstance(params, Mapping)
            return [Send(other, {**message, "params": {**params, "requestId": new}})]
        actions: list[Action] = [Send(other, message)]
        if side == "upstream" and method == "notifications/tools/list_changed":
            actions.append(ToolsChanged())
        return actions

    def _response(self, side: Side, key: JsonId, message: dict[str, Any]) -> list[Action]:
        if not isinstance(key, int) or key not in self._pending[side]:
            return []  # an answer to nothing asked (or to a cancelled request): dropped
        kind, original = self._pending[side].pop(key)
        if kind == "own":
            assert isinstance(original, int)
            return [Answered(original, message)]
        other: Side = "upstream" if side == "client" else "client"
        self._forwarded[other].pop(original, None)
        if key == self.handshake and side == "upstream":
            self.handshake = None
        return [Send(other, {**message, "id": original})]

    # --- the proxy's own traffic --------------------------------------------------------

    def request(self, to: Side, method: str, params: dict[str, Any]) -> tuple[int, Send]:
        """A request of the proxy's own: its token (``Answered`` carries it) and the
        message. Requests upstream carry the client's envelope, when it sent one."""
        if to == "upstream" and self.envelope:
            meta = params.get("_meta")
            merged = {**self.envelope, **(meta if isinstance(meta, Mapping) else {})}
            params = {**params, "_meta": merged}
        token, new = next(self._tokens), next(self._ids[to])
        self._pending[to][new] = ("own", token)
        return token, Send(to, {"jsonrpc": "2.0", "id": new, "method": method,
                                "params": params})

    def forget(self, to: Side, token: int, reason: str) -> list[Send]:
        """The proxy gave up its request ``token`` (its call was cancelled): the side is
        told, and an answer arriving later is dropped."""
        for new, (kind, original) in list(self._pending[to].items()):
            if kind == "own" and original == token:
                del self._pending[to][new]
                return [Send(to, {"jsonrpc": "2.0", "method": "notifications/cancelled",
                                  "params": {"requestId": new, "reason": reason}})]
        return []

    def answer(self, key: JsonId, result: dict[str, Any] | None = None,
               error: dict[str, Any] | None = None) -> list[Send]:
        """The pipeline's answer to the client's call ``key`` (none once it was
        cancelled: a cancelled request gets no answer)."""
        if key not in self.calls:
            return []
        self.calls.discard(key)
        body: dict[str, Any] = {"error": error} if error is not None else {"result": result}
        return [Send("client", {"jsonrpc": "2.0", "id": key, **body})]

    def cancelled(self, key: JsonId) -> None:
        """The client's call ``key`` ended unanswered (it cancelled it)."""
        self.calls.discard(key)

    def upstream_gone(self, reason: str) -> list[Action]:
        """The upstream ended: every request still waiting on it is answered with an
        error (the client's with its own id; the proxy's as ``Answered``)."""
        actions: list[Action] = []
        for kind, original in self._pending["upstream"].values():
            error = _error(original, INTERNAL_ERROR, reason)
            if kind == "own":
                assert isinstance(original, int)
                actions.append(Answered(original, error))
            else:
                actions.append(Send("client", error))
        self._pending["upstream"].clear()
        self._forwarded["client"].clear()
        return actions

    @property
    def waiting(self) -> int:
        """Requests forwarded or made that are not answered yet (both sides)."""
        return sum(len(p) for p in self._pending.values())
