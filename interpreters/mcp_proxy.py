"""``toolpipe mcp-proxy``: an MCP server over stdio that puts a pipeline in front of another.

Every JSON-RPC message passes both ways as it came (``toolpipe.integrations.mcp_relay``
decides where, under which id), so whatever the upstream offers and the client supports
works through the proxy. Each ``tools/call`` runs through the pipeline on the asyncio
interpreter; its answer keeps the upstream's own result (structured content, annotations,
resource links) unless a layer changed it, and structured content is scrubbed by the
pipeline's redaction layers either way. A layer that asks a person (the shield, the
permission layer) asks the client by an elicitation when the client offers them; when it
does not, the call is refused with the reason.

Its lifetime: the upstream's process group ends with the proxy (stdin closed, SIGINT,
SIGTERM); an upstream that exits or does not answer the handshake in time ends it, in one
line on stderr; past ``max_calls`` calls at once it stops reading (back-pressure). It
performs I/O (``_mcp_io``: processes, stdio, HTTP): it lives with the interpreters.
"""

from __future__ import annotations

import asyncio
import itertools
import signal
import warnings
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import anyio

from interpreters._mcp_calls import (
    ASK_TIMEOUT,
    CALL,
    CLIENT_PARAMS,
    Asking,
    all_tools,
    allowed,
    key_of,
    one_call,
    question,
    shaped,
)
from interpreters._mcp_io import (
    PROTOCOL_ERRORS_SHOWN,
    ProcessUpstream,
    ProxyError,
    ProxyOptions,
    Stdio,
    Upstream,
    leaf,
    say,
    upstream,
)
from interpreters.asyncio import AsyncioInterpreter
from toolpipe.config import load_pipeline
from toolpipe.context import DispatchContext
from toolpipe.errors import ToolError
from toolpipe.integrations.mcp import registry_from_tools
from toolpipe.integrations.mcp_relay import (
    Answered,
    CancelCall,
    Relay,
    Send,
    StartCall,
    ToolsChanged,
)
from toolpipe.layers.redaction import RedactingMiddleware
from toolpipe.observe import observed
from toolpipe.result import DispatchResult

__all__ = ["ProxyError", "ProxyOptions", "serve"]


async def serve(options: ProxyOptions) -> int:
    """Run the proxy until its client or its upstream goes; the exit status."""
    # a pipeline file with a mistake is a start-up error, before anything runs
    from toolpipe.registry import ToolRegistry

    load_pipeline(options.pipeline_text, ToolRegistry(), source=options.source)
    proxy = _Proxy(options)
    try:
        async with upstream(options) as end:
            return await proxy.run(end)
    except ProxyError:
        raise
    except Exception as exc:  # the transport failed (an HTTP upstream that is not there)
        raise ProxyError(f"the upstream ({options.name}) failed: {leaf(exc)}") from None


# --- the proxy ------------------------------------------------------------------------------


class _Proxy:
    def __init__(self, options: ProxyOptions) -> None:
        self.options = options
        self.relay = Relay()
        self.client = Stdio()
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
        self.suspended: dict[str, Asking] = {}
        self.observer: Callable[[Any], None] | None = None
        self.flush: Callable[[], None] | None = None

    async def run(self, upstream: Upstream) -> int:
        self.upstream = upstream
        if self.options.otel:
            from interpreters.otel import otlp_observer

            self.observer, self.flush = otlp_observer()
        try:
            async with anyio.create_task_group() as group:
                self.group = group
                await self.client.start()
                group.start_soon(self._watch_signals)
                group.start_soon(self._read_upstream)
                if isinstance(upstream, ProcessUpstream):
                    group.start_soon(upstream.watch)
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
            if self.flush is not None:
                self.flush()
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
                    say(f"the upstream ({self.options.name}) wrote a line that is not "
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
        say(f"the upstream server ({self.options.name}) exited; stopping")
        self._stop(1)

    async def _perform(self, action: Any) -> None:
        if isinstance(action, Send):
            if action.to == "client":
                try:
                    await self.client.send(action.message)
                except OSError:  # the client closed its end: nobody to answer
                    self._stop(0)
                return
            watch = self.relay.handshake
            try:
                await self.upstream.send(action.message)
            except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
                # the upstream is gone (its reader says so too): answer what waits on it
                for gone in self.relay.upstream_gone(
                        f"the upstream MCP server ({self.options.name}) is gone"):
                    await self._perform(gone)
                return
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
            say(f"the upstream ({self.options.name}) did not answer the handshake within "
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
        """A tool call upstream (the registry's tools call this), with what else the
        client's request said (its ``_meta`` and progress token; on the 2026 wire the
        answers to the upstream's own questions): the answer is kept for the client's."""
        extra = CLIENT_PARAMS.get()
        params: dict[str, Any] = {k: v for k, v in (extra or {}).items()
                                  if k not in ("name", "arguments")}
        result = await self.ask("upstream", "tools/call", {**params, "name": name,
                                                          "arguments": arguments})
        key = key_of(name, arguments)
        asking = CALL.get()
        if asking is not None:
            asking.raw = result
        self.raws[key] = result
        self.raws.move_to_end(key)
        while len(self.raws) > 1024:
            self.raws.popitem(last=False)
        if result.get("resultType") == "input_required":
            # the upstream asks the client first (the 2026 wire): passed on as it came,
            # and not an answer any layer may keep
            raise ToolError("the upstream needs the client's input first")
        return result

    async def _pipeline(self) -> Any:
        async with self.listing:
            if self.stale or self.pipeline is None:
                self.stale = False
                tools = await all_tools(lambda params: self.ask("upstream", "tools/list",
                                                                params))
                registry = registry_from_tools(self, tools)
                builder = load_pipeline(self.options.pipeline_text, registry,
                                        source=self.options.source).with_core(registry)
                if self.observer is not None:  # which layers acted, for the spans
                    builder = observed(builder)
                if "elicitation" in self.relay.client_capabilities:
                    builder = builder.with_ask_resolver(self._resolver())
                with warnings.catch_warnings(record=True) as said:
                    warnings.simplefilter("always")
                    self.pipeline = builder.build()
                for warning in said:  # once each, one line (not a warning's two)
                    if str(warning.message) not in self.warned:
                        self.warned.add(str(warning.message))
                        say(str(warning.message))
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
            self.interpreter = AsyncioInterpreter(recorder=self.recorder,
                                                  on_event=self.observer)

    def _resolver(self) -> Callable[[str, str], Awaitable[bool]]:
        """A person decides through the client, by an elicitation (a yes or no): asked
        directly on the handshake wire; on the 2026 wire the client's call is answered
        with ``input_required`` and the pipeline waits for the client's retry."""
        async def resolve(prompt: str, tool: str) -> bool:
            params = question(prompt, tool)
            asking = CALL.get()
            if not self.relay.envelope or asking is None:
                answer = await self.ask("client", "elicitation/create", params)
            else:
                asking.reply = asyncio.get_running_loop().create_future()
                asking.question.set_result({"method": "elicitation/create", "params": {
                    "mode": "form", **params}})
                answer = await asyncio.wait_for(asking.reply, ASK_TIMEOUT)
            return allowed(answer)

        return resolve

    # --- one call -----------------------------------------------------------------------

    async def _call(self, key: Any, params: dict[str, Any]) -> None:
        """The client's call ``key``: the pipeline runs it in a task of its own, which
        may outlive this request when the 2026 wire's question suspends it."""
        asking = self._resumed(params)
        if asking is None:
            asking = Asking()
            asking.runner = asyncio.ensure_future(self._answer(params, asking))
        try:
            with anyio.CancelScope() as scope:
                self.scopes[key] = scope
                answer = await self._outcome(asking)
                for send in self.relay.answer(key, result=answer):
                    await self._perform(send)
            if scope.cancelled_caught:
                self.relay.cancelled(key)
                if asking.runner is not None and asking not in self.suspended.values():
                    asking.runner.cancel()
        except Exception as exc:  # the tools could not be listed, or the proxy erred
            if not isinstance(exc, ToolError):
                say(f"a call failed inside the proxy: {type(exc).__name__}: {exc}")
            for send in self.relay.answer(key, error={"code": -32603, "message": str(exc)}):
                await self._perform(send)
        finally:
            self.scopes.pop(key, None)
            self.slots.release()

    def _resumed(self, params: dict[str, Any]) -> Asking | None:
        """The suspended call a retry resumes (its ``requestState`` is the proxy's), with
        the client's answer handed to the question that waits on it."""
        token = params.get("requestState")
        asking = self.suspended.pop(token, None) if isinstance(token, str) else None
        if asking is None:
            return None
        responses = params.get("inputResponses")
        reply = responses.get("ask") if isinstance(responses, Mapping) else None
        if asking.reply is not None and not asking.reply.done():
            asking.reply.set_result(reply if isinstance(reply, dict) else {})
        return asking

    async def _outcome(self, asking: Asking) -> dict[str, Any]:
        """The call's answer, or (a layer asks a person on the 2026 wire) the question."""
        runner = asking.runner
        assert runner is not None
        await asyncio.wait({runner, asking.question}, return_when=asyncio.FIRST_COMPLETED)
        if runner.done():
            return runner.result()
        question = asking.question.result()
        asking.question = asyncio.get_running_loop().create_future()
        token = f"toolpipe-ask-{next(self.turns)}"
        self.suspended[token] = asking
        return {"resultType": "input_required", "inputRequests": {"ask": question},
                "requestState": token}

    async def _answer(self, params: dict[str, Any], asking: Asking) -> dict[str, Any]:
        CALL.set(asking)
        mine = str(params.get("requestState", "")).startswith("toolpipe-ask-")
        CLIENT_PARAMS.set({k: v for k, v in params.items() if not mine or k not in (
            "requestState", "inputResponses")})
        pipeline = await self._pipeline()
        name = str(params.get("name", ""))
        arguments = params.get("arguments")
        arguments = dict(arguments) if isinstance(arguments, Mapping) else {}
        turn = next(self.turns)
        ctx = DispatchContext(name, arguments, call_id=f"mcp-{turn}", turn_number=turn)
        assert self.interpreter is not None
        result: DispatchResult = await self.interpreter.run(one_call(pipeline, ctx))
        fresh = asking.raw is not None
        raw = asking.raw if fresh else self.raws.get(key_of(name, arguments))
        return shaped(result, raw, fresh, self.redactors, bool(self.relay.envelope))

