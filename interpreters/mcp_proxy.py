"""``toolpipe mcp-proxy``: an MCP server over stdio that puts a pipeline in front of another.

Every JSON-RPC message passes both ways as it came (``toolpipe.integrations.mcp_relay``
decides where, under which id), so whatever the upstream offers and the client supports
works through the proxy. Each ``tools/call`` runs through the pipeline on the asyncio
interpreter; its answer keeps the upstream's own result (structured content, annotations,
resource links) unless a layer changed it, and structured content is scrubbed by the
pipeline's redaction layers either way. A layer that asks a person (the shield, the
permission layer) asks the client by an elicitation when the client offers them; when it
does not, the call is refused with the reason.

The proxy manages its lifetime: the upstream runs in a process group of its own, which
ends with the proxy (stdin closed, SIGINT, SIGTERM) within about two seconds; an upstream
that does not answer the handshake within ``init_timeout`` or exits ends the proxy with
one line on stderr; at most ``max_calls`` calls run at once, and past that the proxy
stops reading until one ends (back-pressure, not a crash).

This module performs I/O (processes, stdio, HTTP): it lives with the interpreters.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import signal
import subprocess
import sys
import threading
import warnings
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextvars import ContextVar
from typing import Any

import anyio
import attrs

from interpreters.asyncio import AsyncioInterpreter
from toolpipe.agent import CallFinished, ToolCall, TurnPlanned
from toolpipe.config import load_pipeline
from toolpipe.context import DispatchContext
from toolpipe.effects import Emit
from toolpipe.errors import ToolError, ToolpipeError
from toolpipe.integrations.mcp import from_mcp, registry_from_tools, to_mcp
from toolpipe.integrations.mcp_relay import (
    Answered,
    CancelCall,
    Relay,
    Send,
    StartCall,
    ToolsChanged,
)
from toolpipe.layers.redaction import RedactingMiddleware, redact_content
from toolpipe.result import DispatchResult, TextContent, ToolContent

__all__ = ["ProxyError", "ProxyOptions", "serve"]

PROTOCOL_ERRORS_SHOWN = 5
"""Lines of an upstream's stdout that are not JSON-RPC are reported, up to this many."""
_CLIENT_META: ContextVar[Any] = ContextVar("toolpipe_mcp_client_meta", default=None)


class ProxyError(ToolpipeError):
    """The proxy cannot start (or its upstream cannot): one line for stderr, exit 2."""


@attrs.frozen
class ProxyOptions:
    """What ``toolpipe mcp-proxy`` was told."""

    command: tuple[str, ...] = attrs.field(converter=tuple)
    pipeline_text: str
    source: str
    record: str | None = None
    url: str | None = None
    env: Mapping[str, str] = attrs.field(factory=dict)
    """Variables set for the upstream, over the proxy's own environment."""
    unset_env: tuple[str, ...] = attrs.field(default=(), converter=tuple)
    """Variables of the proxy's environment the upstream does not get."""
    headers: Mapping[str, str] = attrs.field(factory=dict)
    """HTTP headers for ``url`` (a bearer token from ``--bearer-env`` among them)."""
    init_timeout: float = 30.0
    max_calls: int = 256

    def upstream_env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in self.unset_env}
        env.update(self.env)
        return env

    @property
    def name(self) -> str:
        return self.url if self.url is not None else " ".join(self.command)


def _say(text: str) -> None:
    print(f"toolpipe mcp-proxy: {text}", file=sys.stderr, flush=True)


async def serve(options: ProxyOptions) -> int:
    """Run the proxy until its client or its upstream goes; the exit status."""
    # a pipeline file with a mistake is a start-up error, before anything runs
    from toolpipe.registry import ToolRegistry

    load_pipeline(options.pipeline_text, ToolRegistry(), source=options.source)
    proxy = _Proxy(options)
    async with _upstream(options) as upstream:
        return await proxy.run(upstream)


# --- the two ends ---------------------------------------------------------------------------


class _Upstream:
    """The upstream end: ``send`` a message, ``messages`` as they come (None for a line
    that is not JSON), ``close``."""

    async def send(self, message: dict[str, Any]) -> None:
        raise NotImplementedError

    def messages(self) -> AsyncIterator[Any]:
        raise NotImplementedError


async def _lines(receive: Callable[[], Awaitable[bytes]]) -> AsyncIterator[bytes]:
    """Newline-delimited lines of any length from a byte stream, until it ends."""
    pending: list[bytes] = []
    while True:
        try:
            chunk = await receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError,
                OSError):
            break
        if not chunk:
            break
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            pending.append(chunk[start:end])
            line = b"".join(pending)
            pending.clear()
            if line.strip():
                yield line
            start = end + 1
        if start < len(chunk):
            pending.append(chunk[start:])
    line = b"".join(pending)
    if line.strip():
        yield line


def _parsed(line: bytes) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None


def _dumped(message: Mapping[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


class _ProcessUpstream(_Upstream):
    """A command over stdio, in a process group of its own."""

    def __init__(self, process: anyio.abc.Process) -> None:
        self.process = process
        self._lock = anyio.Lock()

    async def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        async with self._lock:
            await self.process.stdin.send(_dumped(message))

    async def messages(self) -> AsyncIterator[Any]:
        stdout = self.process.stdout
        assert stdout is not None
        async for line in _lines(lambda: stdout.receive(1 << 16)):
            yield _parsed(line)

    async def stop(self) -> None:
        """Its stdin closed, half a second to go; then the whole group is ended."""
        process = self.process
        with contextlib.suppress(Exception):
            if process.stdin is not None:
                await process.stdin.aclose()
        with anyio.move_on_after(0.5):
            await process.wait()
        for sig, grace in ((signal.SIGTERM, 1.0), (signal.SIGKILL, 0.0)):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, sig)  # the group: what the server started too
            if process.returncode is None:
                with anyio.move_on_after(grace):
                    await process.wait()


class _HttpUpstream(_Upstream):
    """A streamable-HTTP endpoint, through the SDK's client transport."""

    def __init__(self, read: Any, write: Any) -> None:
        from mcp.shared.message import SessionMessage
        from mcp_types.jsonrpc import jsonrpc_message_adapter

        self._read, self._write = read, write
        self._session_message: Any = SessionMessage
        self._adapter = jsonrpc_message_adapter

    async def send(self, message: dict[str, Any]) -> None:
        await self._write.send(self._session_message(self._adapter.validate_python(message)))

    async def messages(self) -> AsyncIterator[Any]:
        async for item in self._read:
            if isinstance(item, Exception):
                _say(f"the upstream's HTTP transport failed: {item}")
                continue
            yield item.message.model_dump(by_alias=True, mode="json", exclude_unset=True)


@contextlib.asynccontextmanager
async def _upstream(options: ProxyOptions) -> AsyncIterator[_Upstream]:
    if options.url is not None:
        import httpx2
        from mcp.client.streamable_http import streamable_http_client

        client = httpx2.AsyncClient(headers=dict(options.headers),
                                    timeout=httpx2.Timeout(30.0, read=None))
        async with client, streamable_http_client(options.url, http_client=client) as (
                read, write):
            yield _HttpUpstream(read, write)
        return
    try:
        process = await anyio.open_process(
            list(options.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=None, env=options.upstream_env(), start_new_session=True)
    except OSError as exc:
        raise ProxyError(f"cannot start the upstream server {options.command[0]!r}: "
                         f"{exc.strerror or exc}") from None
    upstream = _ProcessUpstream(process)
    try:
        yield upstream
    finally:
        with anyio.CancelScope(shield=True):
            await upstream.stop()


class _Stdio:
    """The client end: the proxy's own stdin (read by a thread, so a full queue stops
    the reading: back-pressure) and stdout."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=64)
        self._lock = anyio.Lock()

    def start(self) -> None:
        loop = asyncio.get_running_loop()

        def read() -> None:
            while True:
                try:
                    chunk = os.read(0, 1 << 16)
                except OSError:
                    chunk = b""
                try:
                    asyncio.run_coroutine_threadsafe(self.queue.put(chunk), loop).result()
                except Exception:  # the loop is gone: the proxy is ending
                    return
                if not chunk:
                    return

        threading.Thread(target=read, name="toolpipe-mcp-stdin", daemon=True).start()

    async def messages(self) -> AsyncIterator[Any]:
        async for line in _lines(self.queue.get):
            yield _parsed(line)

    async def send(self, message: dict[str, Any]) -> None:
        data = _dumped(message)
        async with self._lock:
            if len(data) <= 1 << 15:  # a pipe takes it at once
                _write_all(data)
            else:
                await anyio.to_thread.run_sync(_write_all, data)


def _write_all(data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(1, view):]


# --- the proxy ------------------------------------------------------------------------------


class _Proxy:
    def __init__(self, options: ProxyOptions) -> None:
        self.options = options
        self.relay = Relay()
        self.client = _Stdio()
        self.interpreter: AsyncioInterpreter | None = None
        self.futures: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.scopes: dict[Any, anyio.CancelScope] = {}
        self.slots = anyio.Semaphore(options.max_calls)
        self.turns = itertools.count(1)
        self.pipeline: Any = None
        self.redactors: list[RedactingMiddleware] = []
        self.stale = True
        self.listing = anyio.Lock()
        self.raws: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.recorder: Any = None
        self.status = 0
        self.shown = 0
        self.warned: set[str] = set()

    async def run(self, upstream: _Upstream) -> int:
        self.upstream = upstream
        try:
            async with anyio.create_task_group() as group:
                self.group = group
                self.client.start()
                group.start_soon(self._watch_signals)
                group.start_soon(self._read_upstream)
                await self._read_client()
                # the client closed stdin: what it asked last is answered if that takes
                # under a second (a script that pipes its requests in gets its answers)
                with anyio.move_on_after(1.0):
                    while self.relay.waiting or self.relay.calls:
                        await anyio.sleep(0.01)
                group.cancel_scope.cancel()
        finally:
            if self.recorder is not None:
                self.recorder.close()
        return self.status

    def _stop(self, status: int) -> None:
        self.status = status
        self.group.cancel_scope.cancel()

    async def _watch_signals(self) -> None:
        with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async for _ in signals:
                self._stop(0)
                return

    async def _read_client(self) -> None:
        async for message in self.client.messages():
            if message is None:
                await self.client.send({"jsonrpc": "2.0", "id": None, "error": {
                    "code": -32700, "message": "parse error: a line that is not JSON"}})
                continue
            for action in self.relay.from_client(message):
                await self._perform(action)

    async def _read_upstream(self) -> None:
        async for message in self.upstream.messages():
            if message is None:
                self.shown += 1
                if self.shown <= PROTOCOL_ERRORS_SHOWN:
                    _say(f"the upstream ({self.options.name}) wrote a line that is not "
                         "JSON-RPC; ignored")
                continue
            for action in self.relay.from_upstream(message):
                await self._perform(action)
        # the upstream is gone: whatever waits on it is answered, then the proxy ends
        for action in self.relay.upstream_gone(
                f"the upstream MCP server ({self.options.name}) exited; toolpipe's proxy "
                "is stopping"):
            await self._perform(action)
        with anyio.move_on_after(2.0):
            while self.relay.calls:
                await anyio.sleep(0.01)
        _say(f"the upstream server ({self.options.name}) exited; stopping")
        self._stop(1)

    async def _perform(self, action: Any) -> None:
        if isinstance(action, Send):
            if action.to == "client":
                await self.client.send(action.message)
            else:
                watch = self.relay.handshake
                await self.upstream.send(action.message)
                if watch is not None and action.message.get("id") == watch:
                    self.group.start_soon(self._time_handshake, watch)
        elif isinstance(action, StartCall):
            await self.slots.acquire()  # back-pressure: no reading past max_calls
            self.group.start_soon(self._call, action.key, action.params)
        elif isinstance(action, CancelCall):
            scope = self.scopes.get(action.key)
            if scope is not None:
                scope.cancel()
        elif isinstance(action, Answered):
            future = self.futures.get(action.token)
            if future is not None and not future.done():
                future.set_result(action.message)
        elif isinstance(action, ToolsChanged):
            self.stale = True

    async def _time_handshake(self, watch: int) -> None:
        await anyio.sleep(self.options.init_timeout)
        if self.relay.handshake == watch:
            _say(f"the upstream ({self.options.name}) did not answer the handshake within "
                 f"{self.options.init_timeout:g} s; stopping")
            for action in self.relay.upstream_gone("the upstream MCP server did not answer "
                                                   "the handshake"):
                await self._perform(action)
            self._stop(2)

    # --- the proxy's own requests -----------------------------------------------------

    async def ask(self, to: Any, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """The answer (``result``) to a request of the proxy's own; its error raises."""
        token, send = self.relay.request(to, method, params)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.futures[token] = future
        try:
            await self._perform(send)
            answer = await future
        except BaseException:
            with anyio.CancelScope(shield=True):
                for note in self.relay.forget(to, token, "cancelled through toolpipe"):
                    await self._perform(note)
            raise
        finally:
            self.futures.pop(token, None)
        error = answer.get("error")
        if error is not None:
            message = error.get("message") if isinstance(error, Mapping) else error
            raise ToolError(f"{method}: {message}")
        result = answer.get("result")
        return result if isinstance(result, dict) else {}

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """A tool call upstream (the registry's tools call this), with the client's
        ``_meta`` (its progress token): the answer is kept to answer the client with."""
        params: dict[str, Any] = {"name": name, "arguments": arguments}
        meta = _CLIENT_META.get()
        if isinstance(meta, Mapping):
            params["_meta"] = dict(meta)
        result = await self.ask("upstream", "tools/call", params)
        key = _key(name, arguments)
        self.raws[key] = result
        self.raws.move_to_end(key)
        while len(self.raws) > 1024:
            self.raws.popitem(last=False)
        return result

    async def _pipeline(self) -> Any:
        async with self.listing:
            if self.stale or self.pipeline is None:
                self.stale = False
                tools: list[Any] = []
                cursor: Any = None
                for _ in range(1000):  # pages
                    page = await self.ask("upstream", "tools/list",
                                          {"cursor": cursor} if cursor else {})
                    tools += page.get("tools") or []
                    cursor = page.get("nextCursor")
                    if not cursor:
                        break
                registry = registry_from_tools(self, tools)
                builder = load_pipeline(self.options.pipeline_text, registry,
                                        source=self.options.source).with_core(registry)
                if "elicitation" in self.relay.client_capabilities:
                    builder = builder.with_ask_resolver(self._resolver())
                with warnings.catch_warnings(record=True) as said:
                    warnings.simplefilter("always")
                    self.pipeline = builder.build()
                for warning in said:  # once each, one line (not a warning's two)
                    if str(warning.message) not in self.warned:
                        self.warned.add(str(warning.message))
                        _say(str(warning.message))
                self.redactors = [m for m in self.pipeline.layers
                                  if isinstance(m, RedactingMiddleware)]
                self._open_recorder(registry)
        return self.pipeline

    def _open_recorder(self, registry: Any) -> None:
        if self.options.record is not None and self.recorder is None:
            from interpreters.recording import TraceRecorder

            self.recorder = TraceRecorder.open(
                self.options.record, interpreter="asyncio",
                pipeline=self.pipeline.middleware_names(),
                pipeline_text=self.options.pipeline_text, tools=registry.declarations())
        if self.interpreter is None:
            self.interpreter = AsyncioInterpreter(recorder=self.recorder)

    def _resolver(self) -> Callable[[str, str], bool]:
        """A person decides through the client: an elicitation (a yes or no), asked from
        the worker thread the interpreter runs resolvers on."""
        loop = asyncio.get_running_loop()

        async def elicit(prompt: str, tool: str) -> bool:
            answer = await self.ask("client", "elicitation/create", {
                "message": prompt,
                "requestedSchema": {"type": "object", "properties": {"allow": {
                    "type": "boolean", "title": f"Allow {tool}?"}}, "required": ["allow"]}})
            content = answer.get("content")
            return answer.get("action") == "accept" and isinstance(content, Mapping) and \
                content.get("allow") is True

        def resolve(prompt: str, tool: str) -> bool:
            return asyncio.run_coroutine_threadsafe(elicit(prompt, tool), loop).result()

        return resolve

    # --- one call -----------------------------------------------------------------------

    async def _call(self, key: Any, params: dict[str, Any]) -> None:
        try:
            with anyio.CancelScope() as scope:
                self.scopes[key] = scope
                answer = await self._answer(params)
                for send in self.relay.answer(key, result=answer):
                    await self._perform(send)
            if scope.cancelled_caught:
                self.relay.cancelled(key)
        except ToolError as exc:  # the tools could not be listed
            for send in self.relay.answer(key, error={"code": -32603, "message": str(exc)}):
                await self._perform(send)
        finally:
            self.scopes.pop(key, None)
            self.slots.release()

    async def _answer(self, params: dict[str, Any]) -> dict[str, Any]:
        pipeline = await self._pipeline()
        name = str(params.get("name", ""))
        arguments = params.get("arguments")
        arguments = dict(arguments) if isinstance(arguments, Mapping) else {}
        turn = next(self.turns)
        ctx = DispatchContext(name, arguments, call_id=f"mcp-{turn}", turn_number=turn)
        _CLIENT_META.set(params.get("_meta"))
        assert self.interpreter is not None
        result: DispatchResult = await self.interpreter.run(_one_call(pipeline, ctx))
        return self._shaped(result, self.raws.get(_key(name, arguments)))

    def _shaped(self, result: DispatchResult, raw: dict[str, Any] | None) -> dict[str, Any]:
        """The client's answer: the upstream's own result when no layer changed what the
        layers saw of it, else the pipeline's content; structured content scrubbed."""
        if raw is not None and raw.get("resultType") not in (None, "complete"):
            return raw  # the 2026 wire's input_required: the client answers and retries
        if raw is not None and result.is_error == bool(raw.get("isError")) and \
                result.output == _seen(raw):
            answer = dict(raw)
        else:
            answer = to_mcp(result)
            if raw is not None and not result.is_error and "structuredContent" in raw:
                answer["structuredContent"] = raw["structuredContent"]
        if "structuredContent" in answer and self.redactors:
            answer["structuredContent"] = self._scrubbed(answer["structuredContent"])
        if self.relay.envelope:  # the 2026 wire: every result says what it is
            answer.setdefault("resultType", "complete")
        return answer

    def _scrubbed(self, value: Any, depth: int = 0) -> Any:
        if isinstance(value, str):
            for layer in self.redactors:
                value = redact_content(layer.patterns, TextContent(value)).text  # type: ignore[union-attr]
            return value
        if depth > 64:
            return value
        if isinstance(value, dict):
            return {k: self._scrubbed(v, depth + 1) for k, v in value.items()}
        if isinstance(value, list):
            return [self._scrubbed(v, depth + 1) for v in value]
        return value


def _key(name: str, arguments: Mapping[str, Any]) -> str:
    return name + "\0" + json.dumps(arguments, sort_keys=True, default=str)


def _seen(raw: Mapping[str, Any]) -> ToolContent:
    """What the layers saw of an upstream result (``from_mcp``, an error as its text)."""
    try:
        return from_mcp(raw)
    except ToolError as exc:
        return TextContent(str(exc))


def _one_call(pipeline: Any, ctx: DispatchContext) -> Any:
    """One proxied call, told as a turn of one call (so a recorded session replays as the
    engine's do)."""
    call = ToolCall(ctx.call_id, ctx.tool_name, ctx.input)
    yield Emit(TurnPlanned(ctx.turn_number, 1, ((0,),), (call,), None))
    result = yield from pipeline.dispatch(ctx)
    yield Emit(CallFinished(ctx.turn_number, 0, ctx.tool_name, ctx.input, result, True))
    return result
