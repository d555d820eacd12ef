"""Shared pieces of the benchmarks: the tool, pass-through layers, hand-written baselines,
and a timer that reports the best of several repeats."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from toolpipe import (
    DispatchContext,
    DispatchResult,
    MemoizingMiddleware,
    NoopVerifier,
    OutputLimitMiddleware,
    PermissionCheck,
    PermissionMiddleware,
    PipelineBuilder,
    RedactingMiddleware,
    SafetyShieldMiddleware,
    TextContent,
    TimeoutMiddleware,
    Tool,
    ToolPipeline,
    ToolRegistry,
    UnknownToolMiddleware,
    VerifyMiddleware,
)

PAYLOAD = "x" * 2048


def allow(ctx: DispatchContext) -> Any:
    return PermissionCheck.allow()


def eight_layer_builder(reg: ToolRegistry) -> PipelineBuilder:
    """All eight shipped layers, in the recommended order, configured so that an ordinary
    call passes through every one of them."""
    return (
        ToolPipeline.builder()
        .with_middleware(PermissionMiddleware.from_context().with_check(allow))
        .with_middleware(OutputLimitMiddleware(16_384))
        .with_middleware(RedactingMiddleware())
        .with_middleware(TimeoutMiddleware.from_secs(120))
        .with_middleware(UnknownToolMiddleware(reg))
        .with_middleware(SafetyShieldMiddleware(watched_tools=["Bash"]))
        .with_middleware(VerifyMiddleware(NoopVerifier(), ["Write"]))
        .with_middleware(MemoizingMiddleware(["Glob"], ["Write"]))
    )


def tool_fn(input: Any, context: Any) -> str:
    return PAYLOAD


def distinct_fn(input: Any, context: Any) -> str:
    """A 2 KB text of its own for each path: what a real read returns (one text for every
    call would be answered from the redaction's memo of texts it has read)."""
    return str(input["path"]).ljust(len(PAYLOAD), "x")


REGISTRY = ToolRegistry([Tool.from_function("Read", tool_fn, inline=True)])  # quick: inline
DISTINCT = ToolRegistry([Tool.from_function("Read", distinct_fn, inline=True)])
CTX = DispatchContext("Read", {"path": "a.txt"}, call_id="c1")


class PassThrough:
    name = "pass"

    def dispatch(self, ctx: DispatchContext, next: Any) -> Any:
        return (yield from next(ctx))


def passthrough_pipeline(layers: int) -> ToolPipeline:
    return (ToolPipeline.builder().with_middlewares([PassThrough() for _ in range(layers)])
            .with_core(REGISTRY).build())


def async_chain(layers: int, fn: Callable[[Any, Any], str] = tool_fn
                ) -> Callable[[DispatchContext], Awaitable[DispatchResult]]:
    """The floor: a hand-written chain of async closures doing the core's work (lookup,
    call, clock, result) with ``layers`` pass-through closures around it."""
    tools = {"Read": fn}

    async def core(ctx: DispatchContext) -> DispatchResult:
        loop = asyncio.get_running_loop()
        fn = tools.get(ctx.tool_name)
        if fn is None:
            return DispatchResult(ctx.call_id, TextContent("not found"), True, 0.0, ctx.tool_name)
        start = loop.time()
        try:
            out = fn(ctx.input, ctx.tool_context)
        except Exception as exc:
            return DispatchResult(ctx.call_id, TextContent(str(exc)), True, 0.0, ctx.tool_name)
        return DispatchResult(ctx.call_id, TextContent(out), False, loop.time() - start,
                              ctx.tool_name)

    chain: Callable[[DispatchContext], Awaitable[DispatchResult]] = core
    for _ in range(layers):
        chain = _wrap(chain)
    return chain


def _wrap(inner: Callable[[DispatchContext], Awaitable[DispatchResult]]
          ) -> Callable[[DispatchContext], Awaitable[DispatchResult]]:
    async def layer(ctx: DispatchContext) -> DispatchResult:
        return await inner(ctx)

    return layer


def best_of(repeats: int, fn: Callable[[], float]) -> float:
    """Run ``fn`` (which returns seconds per operation) ``repeats`` times; keep the best."""
    return min(fn() for _ in range(repeats))


def per_op(n: int, body: Callable[[], Any]) -> float:
    start = time.perf_counter()
    for _ in range(n):
        body()
    return (time.perf_counter() - start) / n


async def per_op_async(n: int, body: Callable[[], Awaitable[Any]]) -> float:
    start = time.perf_counter()
    for _ in range(n):
        await body()
    return (time.perf_counter() - start) / n


PEERS_BEGIN, PEERS_END = "<!-- peers: begin -->", "<!-- peers: end -->"


def markers(name: str) -> tuple[str, str]:
    return f"<!-- {name}: begin -->", f"<!-- {name}: end -->"


def splice(page: str, section: str, name: str = "peers") -> str:
    """The page with its ``name`` section replaced (or appended): each benchmark command
    owns its part of docs/benchmarks.md."""
    begin, end = markers(name)
    block = f"{begin}\n{section.rstrip()}\n{end}\n"
    if begin in page and end in page:
        head, rest = page.split(begin, 1)
        return head + block + rest.split(end, 1)[1].lstrip("\n")
    if name != "peers" and PEERS_BEGIN in page:  # new sections go before the peers'
        head, rest = page.split(PEERS_BEGIN, 1)
        return head.rstrip("\n") + "\n\n" + block + "\n" + PEERS_BEGIN + rest
    return page.rstrip("\n") + "\n\n" + block


def write_section(path: str, section: str, name: str = "peers") -> None:
    """Replace (or add) the ``name`` section of the page at ``path``."""
    output = Path(path)
    output.write_text(splice(output.read_text() if output.exists() else "", section, name))
