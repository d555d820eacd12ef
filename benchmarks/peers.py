"""toolpipe side by side with what users would pick instead, on the same work, in one run.

    pip install -e '.[test,bench]'
    python -m benchmarks.peers     # its section of docs/benchmarks.md, and the plot

Systems, each around the same in-process tool returning a 2 KB text:

- floor: a hand-written chain of async closures (what you would write yourself);
- toolpipe on asyncio;
- FastMCP with its in-memory client and its own middleware (response limiting, response
  caching; the tool's own ``timeout=``);
- LangChain v1: the tool node ``create_agent`` builds, with ``wrap_tool_call`` middleware.

Stacks: (a) N pass-through layers; (b) timeout + output cap; (c) timeout + output cap +
cache + redaction, cache hit and miss. Where a peer has no such middleware (FastMCP has no
redaction, LangChain no timeout, cap, cache or redaction for tools), the layer is written
against its middleware API with the same pure helpers toolpipe uses, so the work is equal.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import math
import platform
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from benchmarks.common import write_section
from benchmarks.run import mixed_text
from interpreters.asyncio import AsyncioInterpreter
from toolpipe import (
    DispatchContext,
    MemoizingMiddleware,
    OutputLimitMiddleware,
    RedactingMiddleware,
    SecretPatternSet,
    TimeoutMiddleware,
    Tool,
    ToolPipeline,
    ToolRegistry,
)
from toolpipe.layers.output_limit import cap_text

ROOT = Path(__file__).resolve().parent.parent
PAYLOAD = "x" * 2048
CAP = 1024
TIMEOUT = 30.0
LAYERS = (0, 1, 2, 4, 8)
PATTERNS = SecretPatternSet.default_common()

Call = Callable[[int], Awaitable[str]]
"""One tool call through a system: ``call(i)`` reads path ``f{i}`` (a miss) or, for the
cache-hit stack, always the same path."""


# --- toolpipe --------------------------------------------------------------------------------


class Pass:
    name = "pass"

    def dispatch(self, ctx: Any, next: Any) -> Any:
        return (yield from next(ctx))


def toolpipe_system(stack: str, layers: int = 0, gate: asyncio.Event | None = None) -> Call:
    async def gated(input: Any, context: Any) -> str:
        assert gate is not None
        await gate.wait()
        return PAYLOAD

    fn = gated if gate is not None else (lambda input, context: PAYLOAD)
    registry = ToolRegistry([Tool.from_function("read", fn, inline=True)])
    builder = ToolPipeline.builder()
    if stack == "pass":
        builder = builder.with_middlewares([Pass() for _ in range(layers)])
    else:
        builder = builder.with_middleware(TimeoutMiddleware.from_secs(TIMEOUT)) \
            .with_middleware(OutputLimitMiddleware(CAP))
        if stack.startswith("full"):
            builder = builder.with_middleware(RedactingMiddleware(PATTERNS)) \
                .with_middleware(MemoizingMiddleware(["read"], [], ttl_turns=1_000_000))
    pipeline = builder.with_core(registry).build()
    interp = AsyncioInterpreter()
    hit = stack == "full-hit"

    async def call(i: int) -> str:
        ctx = DispatchContext("read", {"path": "a" if hit else f"f{i}"})
        return (await interp.run(pipeline.dispatch(ctx))).text

    return call


# --- the floor: hand-written async closures --------------------------------------------------


def floor_system(stack: str, layers: int = 0, gate: asyncio.Event | None = None) -> Call:
    async def tool(path: str) -> str:
        if gate is not None:
            await gate.wait()
        return PAYLOAD

    Inner = Callable[[str], Awaitable[str]]

    def passing(inner: Inner) -> Inner:
        async def layer(path: str) -> str:
            return await inner(path)

        return layer

    chain: Inner = tool
    if stack == "pass":
        for _ in range(layers):
            chain = passing(chain)
    else:
        cache: dict[str, str] = {}
        inner_tool = tool

        async def cached(path: str) -> str:
            if path in cache:
                return cache[path] + "\n[cached]"
            out = await inner_tool(path)
            cache[path] = out
            return out

        async def redacted(path: str) -> str:
            return PATTERNS.redact(await cached(path))

        base: Inner = redacted if stack.startswith("full") else tool

        async def capped(path: str) -> str:
            async with asyncio.timeout(TIMEOUT):
                return cap_text(await base(path), CAP)

        chain = capped
    hit = stack == "full-hit"

    async def call(i: int) -> str:
        return await chain("a" if hit else f"f{i}")

    return call


# --- FastMCP ---------------------------------------------------------------------------------


class FastMCPSystem:
    """A FastMCP server and its in-memory client; ``async with`` opens the session."""

    def __init__(self, stack: str, layers: int = 0, gate: asyncio.Event | None = None):
        from fastmcp import Client, FastMCP
        from fastmcp.server.middleware import Middleware
        from fastmcp.server.middleware.caching import ResponseCachingMiddleware
        from fastmcp.server.middleware.response_limiting import ResponseLimitingMiddleware
        from fastmcp.server.middleware.timing import TimingMiddleware

        logging.getLogger("fastmcp").setLevel(logging.ERROR)  # no per-call log I/O
        server = FastMCP("bench")
        timeout = None if stack == "pass" else TIMEOUT

        @server.tool(timeout=timeout)
        async def read(path: str) -> str:
            if gate is not None:
                await gate.wait()
            return PAYLOAD

        class PassThrough(Middleware):
            async def on_call_tool(self, context: Any, call_next: Any) -> Any:
                return await call_next(context)

        class Redact(Middleware):
            async def on_call_tool(self, context: Any, call_next: Any) -> Any:
                result = await call_next(context)
                for block in result.content:
                    if getattr(block, "type", None) == "text":
                        block.text = PATTERNS.redact(block.text)
                return result

        if stack == "pass":
            for _ in range(layers):
                server.add_middleware(PassThrough())
        else:
            # toolpipe measures every call's duration; FastMCP's timing middleware does that
            server.add_middleware(TimingMiddleware())
            server.add_middleware(ResponseLimitingMiddleware(max_size=CAP))
            if stack.startswith("full"):
                server.add_middleware(Redact())
                server.add_middleware(ResponseCachingMiddleware())
        self.client = Client(server)
        self.hit = stack == "full-hit"

    async def __aenter__(self) -> Call:
        await self.client.__aenter__()

        async def call(i: int) -> str:
            result = await self.client.call_tool("read", {"path": "a" if self.hit else f"f{i}"})
            return str(result.content[0].text)

        return call

    async def __aexit__(self, *exc: Any) -> None:
        await self.client.__aexit__(*exc)


# --- LangChain v1 ----------------------------------------------------------------------------


def langchain_system(stack: str, layers: int = 0, gate: asyncio.Event | None = None) -> Call:
    from langchain.agents import create_agent
    from langchain.agents.middleware import AgentMiddleware
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, ToolMessage
    from langchain_core.tools import tool
    from langgraph._internal._constants import CONFIG_KEY_RUNTIME
    from langgraph.runtime import Runtime

    @tool
    async def read(path: str) -> str:
        """Read a file."""
        if gate is not None:
            await gate.wait()
        return PAYLOAD

    class FakeModel(GenericFakeChatModel):
        def bind_tools(self, tools: Any, **kw: Any) -> Any:
            return self

    def middleware(name: str, wrap: Callable[..., Awaitable[Any]]) -> Any:
        return type(name, (AgentMiddleware,), {"awrap_tool_call": wrap})()

    async def passing(self: Any, request: Any, handler: Any) -> Any:
        return await handler(request)

    async def timeout(self: Any, request: Any, handler: Any) -> Any:
        async with asyncio.timeout(TIMEOUT):
            return await handler(request)

    async def cap(self: Any, request: Any, handler: Any) -> Any:
        message = await handler(request)
        if isinstance(message, ToolMessage) and isinstance(message.content, str):
            message.content = cap_text(message.content, CAP)
        return message

    async def redact(self: Any, request: Any, handler: Any) -> Any:
        message = await handler(request)
        if isinstance(message, ToolMessage) and isinstance(message.content, str):
            message.content = PATTERNS.redact(message.content)
        return message

    cache: dict[str, str] = {}

    async def cached(self: Any, request: Any, handler: Any) -> Any:
        call = request.tool_call
        key = f"{call['name']}:{sorted(call['args'].items())}"
        if key in cache:
            return ToolMessage(cache[key] + "\n[cached]", tool_call_id=call["id"])
        message = await handler(request)
        if isinstance(message, ToolMessage) and isinstance(message.content, str):
            cache[key] = message.content
        return message

    if stack == "pass":
        stackers = [middleware(f"Pass{i}", passing) for i in range(layers)]
    else:
        stackers = [middleware("Timeout", timeout), middleware("Cap", cap)]
        if stack.startswith("full"):
            stackers += [middleware("Redact", redact), middleware("Cache", cached)]
    agent = create_agent(FakeModel(messages=iter([])), tools=[read], middleware=stackers)
    node = agent.nodes["tools"].bound
    config = {"configurable": {CONFIG_KEY_RUNTIME: Runtime()}}
    hit = stack == "full-hit"

    async def call(i: int) -> str:
        args = {"path": "a" if hit else f"f{i}"}
        state = {"messages": [AIMessage("", tool_calls=[
            {"name": "read", "args": args, "id": f"c{i}"}])]}
        out = await node.ainvoke(state, config)
        return str(out["messages"][0].content)

    return call


# --- measuring -------------------------------------------------------------------------------


class Opened:
    """Open any system as an async context giving its ``call``."""

    def __init__(self, name: str, stack: str, layers: int = 0,
                 gate: asyncio.Event | None = None):
        self.name, self.stack, self.layers, self.gate = name, stack, layers, gate
        self.inner: Any = None

    async def __aenter__(self) -> Call:
        if self.name == "FastMCP":
            self.inner = FastMCPSystem(self.stack, self.layers, self.gate)
            return await self.inner.__aenter__()  # type: ignore[no-any-return]
        make = {"floor": floor_system, "toolpipe": toolpipe_system,
                "LangChain": langchain_system}[self.name]
        return make(self.stack, self.layers, self.gate)

    async def __aexit__(self, *exc: Any) -> None:
        if self.inner is not None:
            await self.inner.__aexit__(*exc)


SYSTEMS = ("floor", "toolpipe", "FastMCP", "LangChain")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def sequential(call: Call, n: int) -> list[float]:
    for i in range(50):  # warm up
        await call(-1 - i)
    times = []
    for i in range(n):
        start = time.perf_counter()
        out = await call(i)
        times.append(time.perf_counter() - start)
        assert out, "empty output"
    return times


async def concurrent(call: Call, batches: int, width: int = 100) -> tuple[list[float], float]:
    times: list[float] = []

    async def timed(i: int) -> None:
        start = time.perf_counter()
        await call(i)
        times.append(time.perf_counter() - start)

    await asyncio.gather(*(timed(-1 - i) for i in range(width)))  # warm up
    times.clear()
    start = time.perf_counter()
    for b in range(batches):
        await asyncio.gather(*(timed(b * width + i) for i in range(width)))
    wall = time.perf_counter() - start
    return times, batches * width / wall


async def measure(name: str, stack: str, layers: int, n: int, batches: int
                  ) -> dict[str, float]:
    async with Opened(name, stack, layers) as call:
        seq = await sequential(call, n)
    async with Opened(name, stack, layers) as call:
        conc, throughput = await concurrent(call, batches)
    return {"median": statistics.median(seq), "p99": percentile(seq, 0.99),
            "median100": statistics.median(conc), "p99_100": percentile(conc, 0.99),
            "throughput": throughput}


async def peak_memory(name: str, inflight: int) -> float:
    """Bytes allocated (tracemalloc peak) with ``inflight`` dispatches each under a timeout,
    all started and waiting inside the tool."""
    gate = asyncio.Event()
    gc.collect()
    async with Opened(name, "timeout", 0, gate) as call:
        await asyncio.sleep(0)
        tracemalloc.start()
        try:  # stopped whatever happens: left on, it slows every later figure tenfold
            tracemalloc.reset_peak()
            base = tracemalloc.get_traced_memory()[0]
            tasks = [asyncio.ensure_future(call(i)) for i in range(inflight)]
            for _ in range(50):  # let every dispatch reach the tool and wait there
                await asyncio.sleep(0)
            peak = tracemalloc.get_traced_memory()[1] - base
        finally:
            tracemalloc.stop()
        gate.set()
        outs = await asyncio.gather(*tasks)
        assert len(outs) == inflight
    return float(peak)


# --- redaction against detect-secrets --------------------------------------------------------


def labelled_sample() -> list[tuple[str, str | None]]:
    """Lines labelled with the kind of secret they hold (None: clean). The secrets are
    unique; the clean lines are look-alikes (hashes, UUIDs) and ordinary text."""
    import random

    rng = random.Random(7)
    alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    hexdigits = "0123456789abcdef"

    def rand(n: int, chars: str = alnum) -> str:
        return "".join(rng.choice(chars) for _ in range(n))

    lines: list[tuple[str, str | None]] = []
    for _ in range(10):
        lines += [
            (f"aws_key = AKIA{rand(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}", "AWS access key"),
            (f"token: ghp_{rand(36)}", "GitHub token"),
            (f"CI uses glpat-{rand(20)}", "GitLab token"),
            (f"Authorization: Bearer {rand(40)}", "bearer header"),
            (f"api_key={rand(24)}", "api_key=…"),
            (f"export SIGNING_SECRET='{rand(40, alnum + '+/')}'", "quoted random secret"),
            ("-----BEGIN RSA PRIVATE KEY-----" + rand(64, alnum + "+/") +
             "-----END RSA PRIVATE KEY-----", "PEM private key"),
            (f"commit {rand(40, hexdigits)} merged", None),
            (f"sha256:{rand(64, hexdigits)}", None),
            (f"request id {rand(8, hexdigits)}-{rand(4, hexdigits)}-{rand(4, hexdigits)}-"
             f"{rand(4, hexdigits)}-{rand(12, hexdigits)}", None),
            ("def read_file(path: str) -> str: return open(path).read()", None),
            ("/usr/lib/python3.11/site-packages/toolpipe/layers/redaction.py", None),
            ("ERROR 2026-12-02T10:00:00Z connection refused (retry 3 of 5)", None),
            (f"the build took {rng.randint(1, 99)} seconds and produced 4 wheels", None),
        ]
    return lines


def detect_secrets_lines(text: str) -> tuple[set[int], float]:
    """Line numbers (from 1) where detect-secrets reports a secret, and seconds taken."""
    from detect_secrets import SecretsCollection
    from detect_secrets.settings import default_settings

    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write(text)
        name = handle.name
    try:
        with default_settings():
            start = time.perf_counter()
            found = SecretsCollection()
            found.scan_file(name)
            took = time.perf_counter() - start
        return {secret.line_number for _, secret in found}, took
    finally:
        Path(name).unlink()


def detect_secrets_each_line(lines: list[str]) -> set[int]:
    """Line numbers flagged when every line is scanned as a file of its own, so that
    detect-secrets' one-report-per-unique-secret-per-file never hides a line."""
    from detect_secrets import SecretsCollection
    from detect_secrets.settings import default_settings

    flagged = set()
    with tempfile.TemporaryDirectory() as folder, default_settings():
        for number, line in enumerate(lines, start=1):
            path = Path(folder) / f"line{number}.txt"
            path.write_text(line + "\n")
            found = SecretsCollection()
            found.scan_file(str(path))
            if any(True for _ in found):
                flagged.add(number)
    return flagged


def toolpipe_lines(text: str) -> set[int]:
    return {i for i, line in enumerate(text.splitlines(), start=1)
            if PATTERNS.redact(line) != line}


def redaction(size_mb: int) -> dict[str, Any]:
    text = mixed_text(size_mb * 1_000_000)
    start = time.perf_counter()
    PATTERNS.redact(text)
    ours = time.perf_counter() - start
    _, theirs = detect_secrets_lines(text)
    sample = labelled_sample()
    sample_text = "\n".join(line for line, _ in sample) + "\n"
    truth = {i for i, (_, kind) in enumerate(sample, start=1) if kind}
    counts = {}
    by_kind: dict[str, dict[str, int]] = {}
    for name, hits in (("toolpipe", toolpipe_lines(sample_text)),
                       ("detect-secrets",
                        detect_secrets_each_line([line for line, _ in sample]))):
        counts[name] = (len(hits & truth), len(truth - hits), len(hits - truth))
        for i, (_, kind) in enumerate(sample, start=1):
            if kind:
                row = by_kind.setdefault(kind, {"toolpipe": 0, "detect-secrets": 0, "of": 0})
                row[name] += i in hits
                row["of"] += name == "toolpipe"
    return {"size_mb": size_mb, "toolpipe_mbps": size_mb / ours,
            "detect_secrets_mbps": size_mb / theirs, "sample": counts, "by_kind": by_kind,
            "secrets": len(truth), "clean": len(sample) - len(truth)}


# --- the report ------------------------------------------------------------------------------


def us(seconds: float) -> str:
    return "not measured" if math.isnan(seconds) else f"{seconds * 1e6:,.1f} µs"


def times(a: float, b: float, digits: int = 0) -> str:
    """``a / b`` as a ratio ("-" when either was not measured)."""
    return "-" if math.isnan(a) or math.isnan(b) else f"{a / b:,.{digits}f}x"


# A measurement that takes longer (a peer that hangs) or fails is reported as not measured,
# and the run goes on: a slow peer never costs the other figures.
MEASURE_TIMEOUT = 900.0
NAN = float("nan")
NOT_MEASURED = {"median": NAN, "p99": NAN, "median100": NAN, "p99_100": NAN,
                "throughput": NAN}


async def bounded(what: str, measuring: Awaitable[Any], failed: Any) -> Any:
    try:
        return await asyncio.wait_for(measuring, MEASURE_TIMEOUT)
    except Exception as exc:  # any peer's failure is reported, not raised
        print(f"  {what}: not measured ({type(exc).__name__}: {exc})", flush=True)
        return failed


STACK_LABELS = {
    "timeout": "(b) timeout + output cap",
    "full-miss": "(c) + cache + redaction, cache miss",
    "full-hit": "(c) + cache + redaction, cache hit",
}


def plot(layers: dict[str, dict[int, dict[str, float]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    for name, series in layers.items():
        xs = sorted(series)
        ax.plot(xs, [series[x]["median"] * 1e6 for x in xs], marker="o", label=name)
    ax.set_yscale("log")
    ax.set_xlabel("pass-through middleware layers")
    ax.set_ylabel("median time per tool call (µs, log scale)")
    ax.set_title("Per-call overhead against the number of layers (concurrency 1)")
    ax.set_xticks(sorted(next(iter(layers.values()))))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def simulated_rate(n: int) -> float:
    """toolpipe's stack (b) on the simulated interpreter, one concurrent batch: no peer has
    a virtual clock, so this row stands alone."""
    from interpreters.simulated import SimulatedInterpreter

    registry = ToolRegistry([
        Tool.from_function("read", lambda input, context: PAYLOAD, inline=True)])
    pipeline = (ToolPipeline.builder().with_middleware(TimeoutMiddleware.from_secs(TIMEOUT))
                .with_middleware(OutputLimitMiddleware(CAP)).with_core(registry).build())
    best = float("inf")
    for _ in range(3):
        ctxs = [DispatchContext("read", {"path": f"f{i}"}) for i in range(n)]
        sim = SimulatedInterpreter(collect_events=False)
        start = time.perf_counter()
        sim.run_all([pipeline.dispatch(c) for c in ctxs])
        best = min(best, time.perf_counter() - start)
    return n / best


def versions() -> str:
    from importlib.metadata import version

    names = ("fastmcp", "langchain", "langgraph", "detect-secrets")
    return ", ".join(f"{n} {version(n)}" for n in names)


def report(figs: dict[str, Any], command: str) -> str:
    layers, stacks, memory, red = figs["layers"], figs["stacks"], figs["memory"], figs["red"]
    lines = [
        "## toolpipe against the libraries users would pick instead",
        "",
        f"Command: `{command}` (after `pip install -e '.[test,bench]'`); written by the run "
        "itself.",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, "
        f"{platform.system()}, 2 cores. Peers: {versions()}.",
        "",
        "The same work for every system: an in-process tool returning a 2 KB text, called "
        "through equivalent layers on asyncio. The **floor** is a hand-written chain of async "
        "closures. **toolpipe** runs on its asyncio interpreter. **FastMCP** is a server with "
        "its in-memory client, its own `TimingMiddleware`, `ResponseLimitingMiddleware` and "
        "`ResponseCachingMiddleware` (its logging silenced below ERROR, so no log I/O is "
        "counted), and the tool's own `timeout=`. **LangChain** is the "
        "tool node that `create_agent` builds, with `awrap_tool_call` middleware (invoked "
        "directly, so no model step is counted). Where a peer has no such layer, it is "
        "written against that peer's middleware API with the same pure helpers toolpipe "
        "uses: the FastMCP redaction, and the LangChain timeout, cap, cache and redaction. "
        f"The output cap is {CAP:,} characters (FastMCP: bytes of the serialised response).",
        "",
        "### Overhead against the number of layers",
        "",
        "![per-call time against the number of layers](benchmarks-layers.png)",
        "",
        "Median time per call, concurrency 1, pass-through layers:",
        "",
        "| layers | " + " | ".join(SYSTEMS) + " | FastMCP / toolpipe | LangChain / toolpipe |",
        "|---:|" + "---:|" * (len(SYSTEMS) + 2),
    ]
    for n in LAYERS:
        row = [us(layers[s][n]["median"]) for s in SYSTEMS]
        ours = layers["toolpipe"][n]["median"]
        lines.append(f"| {n} | " + " | ".join(row) + f" | "
                     f"{times(layers['FastMCP'][n]['median'], ours)} | "
                     f"{times(layers['LangChain'][n]['median'], ours)} |")
    lines += [
        "",
        "### Stacks: latency and throughput",
        "",
        "Median and p99 time per call alone (concurrency 1) and among 100 concurrent calls; "
        "throughput in calls per second with 100 in flight.",
        "",
        "| stack | system | median | p99 | median @100 | p99 @100 | calls/s @100 | "
        "vs toolpipe |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for stack in ("pass-0", "timeout", "full-miss", "full-hit"):
        label = STACK_LABELS.get(stack, "(a) pass-through, no layers")
        ours = stacks[stack]["toolpipe"]["median"]
        for s in SYSTEMS:
            f = stacks[stack][s]
            lines.append(
                f"| {label} | {s} | {us(f['median'])} | {us(f['p99'])} | "
                f"{us(f['median100'])} | {us(f['p99_100'])} | {f['throughput']:,.0f} | "
                f"{times(f['median'], ours, 2)} |")
    lines += [
        "",
        f"toolpipe's simulated interpreter runs stack (b) at **{figs['simulated']:,.0f} "
        "dispatches/s** (one concurrent batch, wall clock); no peer has a virtual clock.",
        "",
        f"### Memory: {figs['inflight']:,} dispatches in flight, each under a timeout",
        "",
        "Python allocations (tracemalloc peak) while every dispatch waits inside its tool, "
        "stack (b).",
        "",
        "| system | peak | per dispatch |",
        "|---|---:|---:|",
    ]
    for s in SYSTEMS:
        peak = memory[s]
        lines.append(f"| {s} | {peak / 1e6:,.1f} MB | {peak / figs['inflight'] / 1e3:,.2f} KB |"
                     .replace("nan", "-"))
    t, d = red["sample"]["toolpipe"], red["sample"]["detect-secrets"]
    lines += [
        "",
        "### Redaction against detect-secrets",
        "",
        f"Speed on the same {red['size_mb']} MB of mixed text (log lines, paths, code words, "
        "about 1% secrets). detect-secrets scans with its default plugins and filters "
        "(`SecretsCollection.scan_file`); toolpipe redacts with "
        "`SecretPatternSet.default_common()`.",
        "",
        "| | MB/s |",
        "|---|---:|",
        f"| toolpipe | {red['toolpipe_mbps']:,.2f} |",
        f"| detect-secrets | {red['detect_secrets_mbps']:,.2f} |",
        f"| ratio | {red['toolpipe_mbps'] / red['detect_secrets_mbps']:,.0f}x |",
        "",
        f"On a labelled sample of {red['secrets']} secret lines (AWS keys, GitHub and "
        f"GitLab tokens, bearer headers, api_key=…, a quoted random secret, PEM keys; all "
        f"unique) and {red['clean']} clean lines (git hashes, sha256 digests, UUIDs, code, "
        "paths, logs):",
        "",
        "| | secrets found | secrets missed | clean lines flagged |",
        "|---|---:|---:|---:|",
        f"| toolpipe | {t[0]} | {t[1]} | {t[2]} |",
        f"| detect-secrets | {d[0]} | {d[1]} | {d[2]} |",
        "",
        "By kind (found of 10). Read this with care: the kinds are the ones toolpipe's "
        "specification names, so toolpipe was built for exactly these. detect-secrets ships "
        "other detectors (Slack, Stripe, Twilio, JWT, keyword heuristics...) that this sample "
        "does not exercise. It reports a secret once per file, so each sample line is scanned "
        "as a file of its own.",
        "",
        "| kind | toolpipe | detect-secrets |",
        "|---|---:|---:|",
        *(f"| {kind} | {row['toolpipe']} | {row['detect-secrets']} |"
          for kind, row in red["by_kind"].items()),
        "",
    ]
    return "\n".join(lines)


async def collect(n: int, batches: int, inflight: int) -> dict[str, Any]:
    layers: dict[str, dict[int, dict[str, float]]] = {s: {} for s in SYSTEMS}
    stacks: dict[str, dict[str, dict[str, float]]] = {}
    for s in SYSTEMS:
        for count in LAYERS:
            print(f"  {s}: {count} layer(s)", flush=True)
            layers[s][count] = await bounded(f"{s}, {count} layer(s)",
                                             measure(s, "pass", count, n, batches),
                                             NOT_MEASURED)
    stacks["pass-0"] = {s: layers[s][0] for s in SYSTEMS}
    for stack in ("timeout", "full-miss", "full-hit"):
        stacks[stack] = {}
        for s in SYSTEMS:
            print(f"  {s}: {stack}", flush=True)
            stacks[stack][s] = await bounded(f"{s}, {stack}", measure(s, stack, 0, n, batches),
                                             NOT_MEASURED)
    memory = {}
    for s in SYSTEMS:
        print(f"  {s}: memory with {inflight:,} in flight", flush=True)
        memory[s] = await bounded(f"{s}, memory", peak_memory(s, inflight), NAN)
    return {"layers": layers, "stacks": stacks, "memory": memory, "inflight": inflight}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer calls, 1 MB of text")
    parser.add_argument("--output", default=str(ROOT / "docs" / "benchmarks.md"))
    args = parser.parse_args(argv)
    n, batches, inflight, size = (300, 3, 2_000, 1) if args.quick else (2_000, 20, 10_000, 10)
    print("latency, throughput, memory…", flush=True)
    figs = asyncio.run(collect(n, batches, inflight))
    print("redaction…", flush=True)
    figs["red"] = redaction(size)
    figs["simulated"] = simulated_rate(20_000)
    output = Path(args.output)
    plot(figs["layers"], output.parent / "benchmarks-layers.png")
    command = "python -m benchmarks.peers" + (" --quick" if args.quick else "")
    text = report(figs, command)
    write_section(str(output), text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
