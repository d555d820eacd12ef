"""The MCP proxy's two ends: the upstream (a command in a process group of its own, or a
streamable-HTTP endpoint through the SDK's client transport) and the client (the proxy's
own stdin, read by a thread so that a full queue stops the reading, and stdout), each
carrying JSON-RPC messages as dicts, one line each."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import stat
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any

import anyio
import attrs

from toolpipe.errors import ToolpipeError

PROTOCOL_ERRORS_SHOWN = 5
"""Lines of an upstream's stdout that are not JSON-RPC are reported, up to this many."""


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
    env: Mapping[str, str] = attrs.field(factory=dict, repr=False)
    """Variables set for the upstream, over the proxy's own environment."""
    unset_env: tuple[str, ...] = attrs.field(default=(), converter=tuple)
    """Variables of the proxy's environment the upstream does not get."""
    headers: Mapping[str, str] = attrs.field(factory=dict, repr=False)
    """HTTP headers for ``url`` (a bearer token from ``--bearer-env`` among them)."""
    init_timeout: float = 30.0
    max_calls: int = 256
    otel: bool = False
    """A span per tool call and metrics, over OTLP (``interpreters.otel``)."""

    def upstream_env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in self.unset_env}
        env.update(self.env)
        return env

    @property
    def name(self) -> str:
        return self.url if self.url is not None else " ".join(self.command)


def leaf(error: BaseException) -> str:
    """The first error inside nested exception groups, as one line."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return " ".join(f"{type(error).__name__}: {error}".split())[:300]


def say(text: str) -> None:
    print(f"toolpipe mcp-proxy: {text}", file=sys.stderr, flush=True)


class Upstream:
    """The upstream end: ``send`` a message, ``messages`` as they come (None for a line
    that is not JSON), until it ends."""

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


class ProcessUpstream(Upstream):
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

    async def watch(self) -> None:
        """The server exited: its stdout may still be held open by a process it started,
        so after a second for its last words the proxy stops reading (it is gone)."""
        await self.process.wait()
        await anyio.sleep(1.0)
        if self.process.stdout is not None:
            await self.process.stdout.aclose()

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


class HttpUpstream(Upstream):
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
                say(f"the upstream's HTTP transport failed: {item}")
                continue
            yield item.message.model_dump(by_alias=True, mode="json", exclude_unset=True)


@contextlib.asynccontextmanager
async def upstream(options: ProxyOptions) -> AsyncIterator[Upstream]:
    if options.url is not None:
        import httpx2
        from mcp.client.streamable_http import streamable_http_client

        client = httpx2.AsyncClient(headers=dict(options.headers),
                                    timeout=httpx2.Timeout(30.0, read=None))
        async with client, streamable_http_client(options.url, http_client=client) as (
                read, write):
            yield HttpUpstream(read, write)
        return
    try:
        process = await anyio.open_process(
            list(options.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=None, env=options.upstream_env(), start_new_session=True)
    except OSError as exc:
        raise ProxyError(f"cannot start the upstream server {options.command[0]!r}: "
                         f"{exc.strerror or exc}") from None
    upstream = ProcessUpstream(process)
    try:
        yield upstream
    finally:
        with anyio.CancelScope(shield=True):
            await upstream.stop()


class _Feed(asyncio.Protocol):
    """stdin as a pipe the loop reads: chunks into the queue; past ``HIGH`` waiting chunks
    the reading pauses (back-pressure) until the proxy catches up."""

    HIGH = 64

    def __init__(self, queue: asyncio.Queue[bytes]) -> None:
        self.queue = queue
        self.transport: asyncio.ReadTransport | None = None
        # (kept here: a pipe's transport has no is_reading() before Python 3.11.4, and
        # Debian's 3.11.2 raised NotImplementedError at the proxy's first message)
        self.paused = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.ReadTransport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.queue.put_nowait(data)
        if self.queue.qsize() >= self.HIGH and self.transport is not None and not self.paused:
            self.transport.pause_reading()
            self.paused = True

    def eof_received(self) -> bool:
        self.queue.put_nowait(b"")
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.queue.put_nowait(b"")


def _pipe_or_socket(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class Stdio:
    """The client end: the proxy's own stdin (read by the loop when it is a pipe, else by
    a thread; either way a full queue stops the reading: back-pressure) and stdout."""

    def __init__(self) -> None:
        # the pipe pauses at HIGH chunks (a few more may be on their way); the thread waits
        self.queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=_Feed.HIGH + 16)
        self._feed: _Feed | None = None
        self._lock = anyio.Lock()

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        if _pipe_or_socket(0):  # as an MCP client gives: no thread, no hop
            # (only these: asyncio takes a character device too, then epoll refuses
            # /dev/null in a callback of its own, and the proxy waited forever)
            pipe = os.fdopen(os.dup(0), "rb", buffering=0)
            feed = _Feed(self.queue)
            try:
                await loop.connect_read_pipe(lambda: feed, pipe)
            except (OSError, ValueError):
                pipe.close()
            else:
                self._feed = feed
                return

        def read() -> None:  # a file, a terminal, /dev/null: a thread that waits its turn
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

    async def _get(self) -> bytes:
        chunk = await self.queue.get()
        feed = self._feed
        if feed is not None and feed.transport is not None and feed.paused and \
                self.queue.qsize() < _Feed.HIGH // 2:
            feed.paused = False
            feed.transport.resume_reading()
        return chunk

    async def messages(self) -> AsyncIterator[Any]:
        async for line in _lines(self._get):
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
