"""Measure toolpipe against hand-written baselines in the same run; write docs/benchmarks.md.

    python -m benchmarks.run            # full run (about two minutes)
    python -m benchmarks.run --quick    # fewer iterations, for a smoke test

The comparison with peer libraries is ``python -m benchmarks.peers`` (needs the bench extra).

Every figure is a ratio against a baseline measured in the same process, so the machine's
speed cancels out; absolute times are given for orientation.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import platform
import random
import re
import shutil
import string
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import attrs
import trio

from benchmarks import engine as engine_bench
from benchmarks import testing as testing_bench
from benchmarks.common import (
    CTX,
    DISTINCT,
    REGISTRY,
    _wrap,
    allow,
    async_chain,
    distinct_fn,
    eight_layer_builder,
    markers,
    passthrough_pipeline,
    per_op,
    per_op_async,
    splice,
    tool_fn,
)
from interpreters.asyncio import AsyncioInterpreter
from interpreters.simulated import SimulatedInterpreter
from interpreters.trio import TrioInterpreter
from toolpipe import (
    ConstrainedProfile,
    DispatchContext,
    DispatchResult,
    NoopVerifier,
    PermissionCheck,
    SecretPatternSet,
    TextContent,
    Tool,
    ToolPipeline,
    ToolRegistry,
    UnixShield,
    UnknownToolMiddleware,
    cache_key,
)
from toolpipe.layers._memo import DEFAULT_MAX_ENTRIES
from toolpipe.layers.output_limit import cap_content
from toolpipe.layers.shield import CallRecord
from toolpipe.layers.unknown_tool import best_match

ROOT = Path(__file__).resolve().parent.parent
LAYER_COUNTS = (0, 1, 4, 8)


def eight_layers(reg: ToolRegistry) -> ToolPipeline:
    return eight_layer_builder(reg).with_core(reg).build()


def handwritten_eight(reg: ToolRegistry) -> Callable[[DispatchContext], Awaitable[Any]]:
    """The same eight checks as async closures: same pure helpers, no programs."""
    patterns = SecretPatternSet.default_common()
    shield = UnixShield()
    history: list[CallRecord] = []
    cache: dict[str, Any] = {}
    names = reg.names()
    core = async_chain(0, distinct_fn)

    async def memoize(ctx: DispatchContext) -> DispatchResult:
        if ctx.tool_name != "Glob":
            return await core(ctx)
        key = cache_key(ctx.tool_name, ctx.input)
        if key in cache:
            return cache[key]  # type: ignore[no-any-return]
        r = await core(ctx)
        cache[key] = r
        return r

    async def verify(ctx: DispatchContext) -> DispatchResult:
        r = await memoize(ctx)
        if ctx.tool_name == "Write" and not r.is_error:
            NoopVerifier().verify(ctx.tool_context, ctx.tool_name, ctx.input)
        return r

    async def shield_layer(ctx: DispatchContext) -> DispatchResult:
        if ctx.tool_name != "Bash":
            return await verify(ctx)
        decision = shield.evaluate(ctx.tool_name, ctx.input, history)
        if decision.action == "block":
            return DispatchResult.error(ctx.call_id, decision.reason, ctx.tool_name)
        r = await verify(ctx)
        history.append(CallRecord(ctx.tool_name, ctx.input, not r.is_error))
        return r

    async def unknown(ctx: DispatchContext) -> DispatchResult:
        r = await shield_layer(ctx)
        if r.is_error and "not found" in r.text.lower():
            best_match(ctx.tool_name, names)
        return r

    async def timeout(ctx: DispatchContext) -> DispatchResult:
        async with asyncio.timeout(120):
            return await unknown(ctx)

    async def redact(ctx: DispatchContext) -> DispatchResult:
        r = await timeout(ctx)
        scrubbed = patterns.redact(r.text)
        return r if scrubbed == r.text else attrs.evolve(r, output=TextContent(scrubbed))

    async def output_limit(ctx: DispatchContext) -> DispatchResult:
        r = await redact(ctx)
        capped = cap_content(r.output, 16_384)
        return r if capped is r.output else attrs.evolve(r, output=capped)

    async def permission(ctx: DispatchContext) -> DispatchResult:
        if not isinstance(allow(ctx), PermissionCheck.Allow):
            return DispatchResult.error(ctx.call_id, "denied", ctx.tool_name)
        return await output_limit(ctx)

    return permission


def handwritten_profile() -> Callable[[DispatchContext], Awaitable[Any]]:
    """ConstrainedProfile's checks as async closures: the same cache key (``cache_key``),
    a dict for the cache bounded as memoize is (its 1,024 entries, the oldest out first:
    an unbounded one would keep every answer and make the collector's passes slower and
    slower), the verifier for writes and the output cap."""
    core = async_chain(0, distinct_fn)
    cache: dict[str, DispatchResult] = {}
    bound = DEFAULT_MAX_ENTRIES

    async def profile(ctx: DispatchContext) -> DispatchResult:
        key = cache_key(ctx.tool_name, ctx.input, ".\x1c.")
        hit = cache.get(key)
        if hit is not None:
            return hit
        r = await core(ctx)  # every call here is unique: a miss, then stored
        if not r.is_error:
            cache[key] = r
            if len(cache) > bound:
                del cache[next(iter(cache))]
        if ctx.tool_name == "Write":
            NoopVerifier().verify(ctx.tool_context, ctx.tool_name, ctx.input)
        capped = cap_content(r.output, 16_384)
        return r if capped is r.output else attrs.evolve(r, output=capped)

    return profile


_ROUND = itertools.count()


def unique_reads(n: int) -> list[DispatchContext]:
    """Inputs never seen before (each round its own), so that the memoizer misses: the
    realistic, more costly path, never a hit left by an earlier round."""
    r = next(_ROUND)
    return [DispatchContext("Read", {"path": f"r{r}/f{i}.txt"}, call_id=f"c{i}")
            for i in range(n)]


async def passthrough_pairs(
    interp: Any, make_chain: Callable[[int], Callable[[DispatchContext], Awaitable[Any]]],
    n: int, repeats: int,
) -> dict[int, tuple[float, float]]:
    """Per layer count: (toolpipe's best time per dispatch, the hand-written chain's)."""
    out = {}
    for layers in LAYER_COUNTS:
        p = passthrough_pipeline(layers)
        chain = make_chain(layers)
        ours_t, base_t = [], []
        for _ in range(repeats):  # interleaved rounds: a slow moment costs both sides
            ours_t.append(await per_op_async(n, lambda: interp.run(p.dispatch(CTX))))
            base_t.append(await per_op_async(n, lambda: chain(CTX)))
        out[layers] = (min(ours_t), min(base_t))
    return out


async def asyncio_figures(n: int, repeats: int) -> dict[str, Any]:
    interp = AsyncioInterpreter()
    out: dict[str, Any] = {
        "passthrough": await passthrough_pairs(interp, async_chain, n, repeats)
    }

    def cycling(make: Callable[[DispatchContext], Awaitable[Any]]) -> Callable[[], Any]:
        ctxs = unique_reads(n)
        it = iter(range(10**12))
        return lambda: make(ctxs[next(it) % n])

    reg = DISTINCT  # a text of its own per call, as real reads give
    profile = ConstrainedProfile().pipeline_builder().with_core(reg).build()
    stack = eight_layers(reg)
    for key, pipeline, hand in (("profile", profile, handwritten_profile),
                                ("eight", stack, lambda: handwritten_eight(reg))):
        ours_t = []
        base_t = []
        for _ in range(repeats):
            ours_t.append(await per_op_async(
                n, cycling(lambda c, p=pipeline: interp.run(p.dispatch(c)))))
            base_t.append(await per_op_async(n, cycling(hand())))
        out[key] = (min(ours_t), min(base_t))
    # A plain function tool by default (a worker thread, so that deadlines hold) against
    # the same tool marked inline=True (run on the event loop).
    threaded = ToolPipeline.new(ToolRegistry([Tool.from_function("Read", tool_fn)]))
    inline = ToolPipeline.new(REGISTRY)
    m = max(n // 10, 200)
    timings = []
    for p in (threaded, inline):
        runs = [await per_op_async(m, cycling(lambda c, p=p: interp.run(p.dispatch(c))))
                for _ in range(repeats)]
        timings.append(min(runs))
    out["thread"] = tuple(timings)
    return out


def trio_figures(n: int, repeats: int) -> dict[int, tuple[float, float]]:
    async def main() -> dict[int, tuple[float, float]]:
        return await passthrough_pairs(TrioInterpreter(), async_chain_trio, n, repeats)

    return trio.run(main)


def async_chain_trio(layers: int) -> Callable[[DispatchContext], Awaitable[DispatchResult]]:
    async def core(ctx: DispatchContext) -> DispatchResult:
        start = trio.current_time()
        out = tool_fn(ctx.input, ctx.tool_context)
        return DispatchResult(ctx.call_id, TextContent(out), False,
                              trio.current_time() - start, ctx.tool_name)

    chain: Callable[[DispatchContext], Awaitable[DispatchResult]] = core
    for _ in range(layers):
        chain = _wrap(chain)
    return chain


def simulated_figures(n: int, repeats: int) -> dict[str, float]:
    sim = SimulatedInterpreter()
    out: dict[str, float] = {}
    for layers in LAYER_COUNTS:
        p = passthrough_pipeline(layers)
        out[f"sequential {layers}"] = 1 / min(per_op(n, lambda: sim.run(p.dispatch(CTX)))
                                              for _ in range(repeats))
    p = passthrough_pipeline(8)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        SimulatedInterpreter().run_all([p.dispatch(CTX) for _ in range(n)])
        best = min(best, (time.perf_counter() - start) / n)
    out["concurrent 8"] = 1 / best
    return out


def mixed_text(size: int) -> str:
    rng = random.Random(42)
    words = ["the", "agent", "read", "file", "def", "return", "import", "error:", "INFO",
             "2026-12-02T10:00:00Z", "/usr/lib/python3.11/site-packages/x.py", "{", "}",
             "sha256=" + "ab12" * 16, "value=42", "http://localhost:8080/api/v1"]
    secrets = ["Authorization: Bearer abcDEF123.xyz", "api_key=" + "Q" * 20,
               "AKIA" + "ABCDEFGHIJKLMNOP", "ghp_" + "a1B2" * 10,
               "glpat-" + "x" * 20, "".join(rng.choice(string.ascii_letters + string.digits)
                                            for _ in range(40))]
    parts: list[str] = []
    total = 0
    while total < size:
        piece = rng.choice(secrets) if rng.random() < 0.01 else rng.choice(words)
        sep = "\n" if rng.random() < 0.1 else " "
        parts.append(piece + sep)
        total += len(piece) + 1
    return "".join(parts)[:size]


def redaction_figures(repeats: int) -> tuple[float, int]:
    text = mixed_text(10_000_000)
    patterns = SecretPatternSet.default_common()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        patterns.redact(text)
        best = min(best, time.perf_counter() - start)
    return 10 / best, len(patterns.find(text))


def unknown_tool_figures(repeats: int) -> tuple[float, float]:
    from toolpipe import Tool

    reg = ToolRegistry([Tool.from_function(f"tool_{i:05}_{w}", tool_fn)
                        for i, w in zip(range(10_000), ["read", "write", "list", "grep"] * 2500,
                                        strict=True)])
    layer = UnknownToolMiddleware(reg)
    layer.suggest("warm")
    best = min(per_op(5, lambda: layer.suggest("tool_04242_raed")) for _ in range(repeats))
    small = ToolRegistry([Tool.from_function(f"t{i}", tool_fn) for i in range(10)])
    small_t = min(per_op(1000, lambda: UnknownToolMiddleware(small).suggest("t9x"))
                  for _ in range(repeats))
    return best, small_t


def workspace_files(count: int) -> str:
    """A real workspace of ``count`` 2 KB files (made early in the run: a file changed in
    the last two seconds is digested when stamped, which a workspace's files are not)."""
    folder = tempfile.mkdtemp(prefix="toolpipe-bench-")
    for i in range(count):  # each its own text, as a workspace's files are
        Path(folder, f"f{i}.txt").write_text(distinct_fn({"path": f"f{i}.txt"}, None))
    return folder


def workspace_figures(folder: str, count: int, repeats: int, made: float
                      ) -> tuple[float, float, float]:
    """The default pipeline (its eight layers, the standard tools) reading a 2 KB file of
    a real workspace on asyncio: the best per-call time over ``repeats`` rounds of
    ``count`` reads, each file once (misses), then each again (first hits, checked against
    the file's stamp), then each a third time (hits whose text the redaction has read
    before). Each round has a fresh pipeline and interpreter: nothing a round learnt
    (answers, texts read) helps the next one's misses."""
    from toolpipe import ToolContext
    from toolpipe.config import DEFAULT_PIPELINE, load_pipeline
    from toolpipe.tools import workspace_registry

    time.sleep(max(0.0, 2.1 - (time.monotonic() - made)))  # its files are not brand new
    registry = workspace_registry(folder, sandbox="none")
    context = ToolContext(cwd=folder)

    async def rounds() -> tuple[float, float, float]:
        best = {"miss": float("inf"), "hit": float("inf"), "again": float("inf")}
        for _ in range(repeats):
            pipeline = load_pipeline(DEFAULT_PIPELINE, registry).with_core(registry).build()
            interp = AsyncioInterpreter()
            for kind in best:
                start = time.perf_counter()
                for i in range(count):
                    result = await interp.run(pipeline.dispatch(DispatchContext(
                        "Read", {"path": f"f{i}.txt"}, call_id="c", tool_context=context)))
                    assert not result.is_error, result.text
                    assert result.cached == (kind != "miss"), kind
                best[kind] = min(best[kind], (time.perf_counter() - start) / count)
        return best["miss"], best["hit"], best["again"]

    return asyncio.run(rounds())


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.2f} µs"


def _passthrough(figs: dict[str, Any]) -> list[str]:
    a, t, s = figs["asyncio"], figs["trio"], figs["simulated"]
    lines = [
        "## Pass-through stacks per dispatch",
        "",
        "The baseline is a hand-written chain of async closures doing the core's work "
        "(lookup, call, clock, result) with the same number of pass-through closures.",
        "",
        "| layers | asyncio | async chain | ratio | trio | trio chain | ratio | simulated "
        "(dispatches/s) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for n in LAYER_COUNTS:
        ao, ab = a["passthrough"][n]
        to, tb = t[n]
        lines.append(f"| {n} | {us(ao)} | {us(ab)} | {ao / ab:.2f}x | {us(to)} | {us(tb)} | "
                     f"{to / tb:.2f}x | {s[f'sequential {n}']:,.0f} |")
    eight = a["passthrough"][8][0] / a["passthrough"][8][1]
    lines += [
        "",
        f"Target (issue 30; the specification says 2.5x): 8 layers on asyncio within 1.8x "
        f"of the async chain: **{eight:.2f}x** ({'met' if eight <= 1.8 else 'MISSED'}). "
        "These are a user's layers: each one's program but the outermost gets a frame that "
        "checks its return value (so that a layer returning junk is named; the guard checks "
        "the outermost's), about 45 ns a layer (without it the 8 layers measured 1.66x). A "
        "layer costs more than a closure of the chain because its program is a generator, "
        "created, started and finished through `yield from` where an awaited coroutine "
        "that never suspends runs straight through; the effect the core yields crosses "
        "every layer up and its answer back down (about 20 ns a layer for both). "
        "Simulated, target >= 100,000 dispatches/s: "
        f"**{s['sequential 8']:,.0f}/s** one at a time with 8 layers, "
        f"**{s['concurrent 8']:,.0f}/s** as one concurrent batch "
        f"({'met' if min(s['sequential 8'], s['concurrent 8']) >= 100_000 else 'MISSED'}).",
        "",
        "The fixed cost of a toolpipe dispatch (the fault guard, the `CallTool` effect and "
        "its answer, the frozen result) is paid once; each extra layer costs its program's "
        "frame and its check's, where the chain pays one coroutine.",
        "",
        f"The tool in these stacks is marked `inline=True` (run on the event loop). A plain "
        f"function tool by default runs in a worker thread, so that a deadline can abandon "
        f"it whatever it does: one dispatch then costs **{us(a['thread'][0])}**, against "
        f"{us(a['thread'][1])} inline ({a['thread'][0] / a['thread'][1]:.1f}x).",
        "",
    ]
    return lines


def _stacks(figs: dict[str, Any]) -> list[str]:
    a = figs["asyncio"]
    lines = [
        "## Shipped stacks on asyncio",
        "",
        "Baselines: the same checks written by hand as async closures (same pure helpers: "
        "`cap_content`, `SecretPatternSet.redact`, `UnixShield.evaluate`, a dict cache, "
        "`asyncio.timeout`). Every call has a distinct input, so memoize always misses.",
        "",
        "| stack | toolpipe | hand-written | ratio |",
        "|---|---:|---:|---:|",
    ]
    for key, label in (("profile", "ConstrainedProfile"), ("eight", "all eight layers")):
        ours, base = a[key]
        lines.append(f"| {label} | {us(ours)} | {us(base)} | {ours / base:.2f}x |")
    profile = a["profile"][0] / a["profile"][1]
    miss, hit, again = figs["workspace"]
    lines += [
        "",
        f"Targets (issue 30): ConstrainedProfile on a miss within 3x of the same checks by "
        f"hand (the hand-written one computes the same `cache_key` and keeps a dict "
        f"bounded as memoize's is, 1,024 entries): "
        f"**{profile:.2f}x** ({'met' if profile <= 3 else 'MISSED'}); all eight layers on a "
        f"2 KB read within 18 µs: **{us(a['eight'][0])}** "
        f"({'met' if a['eight'][0] <= 18e-6 else 'MISSED'}; the same checks by hand take "
        f"{us(a['eight'][1])}, about half of it the redaction of 2 KB).",
        "",
        "The default pipeline (its eight layers, as `toolpipe pipeline` prints them, and the "
        "standard tools) reading a "
        "2 KB file of a real workspace on asyncio (each file its own text), each file once "
        "(a miss: the path resolved, the file stamped and read, the answer stored), then "
        "again (a hit, checked against the file's stamp), then a third time (a hit whose "
        f"text the redaction layer has read before and answers from its memo): **{us(miss)}**"
        f" a miss, **{us(hit)}** a first hit, **{us(again)}** a hit again (target 50 µs for "
        f"a read: {'met' if max(miss, hit) <= 50e-6 else 'MISSED'}).",
        "",
    ]
    return lines


def _redaction(figs: dict[str, Any]) -> list[str]:
    mbps, found = figs["redaction"]
    big, small = figs["unknown"]
    return [
        "## Redaction and did-you-mean",
        "",
        f"- Redaction of 10 MB of mixed text (log lines, paths, code words, ~1% secrets): "
        f"**{mbps:.1f} MB/s** ({found:,} secrets found).",
        f"- UnknownTool suggestion with 10,000 registered tools: **{big * 1e3:.1f} ms** "
        f"per miss (10 tools: {us(small)}).",
        "",
    ]


# each section of the page: its title, the figures it needs, how it reads
SECTIONS: list[tuple[str, tuple[str, ...], Callable[[dict[str, Any]], list[str]]]] = [
    ("Pass-through stacks per dispatch", ("asyncio", "trio", "simulated"), _passthrough),
    ("Shipped stacks on asyncio", ("asyncio", "workspace"), _stacks),
    ("Redaction and did-you-mean", ("redaction", "unknown"), _redaction),
    ("The engine", ("engine",), lambda figs: engine_bench.report(*figs["engine"])),
    ("The test kit", ("testing",), lambda figs: testing_bench.report(*figs["testing"])),
]


def write_report(figs: dict[str, Any], command: str, quick: bool) -> str:
    """The page, each section that is measured already, the others marked as pending
    (the run writes the page as each section finishes)."""
    lines = [
        "# Benchmarks",
        "",
        f"Command: `{command}` (written by the run itself{'; QUICK mode' if quick else ''}).",
        f"Machine: {platform.machine()}, {platform.processor() or 'unknown cpu'}, "
        f"Python {platform.python_version()}, {platform.system()}; 2 cores.",
        "Each figure is the best of several repeats; ratios compare against a baseline "
        "measured in the same process.",
        "",
    ]
    for title, needs, render in SECTIONS:
        if all(key in figs for key in needs):
            lines += render(figs)
        else:
            lines += [f"## {title}", "", "Not measured yet: this run had not reached it when "
                      "the page was last written (each section is written as it finishes).",
                      ""]
    lines += [
        "The comparison with FastMCP, LangChain and detect-secrets below is written by "
        "`pip install -e '.[test,bench]' && python -m benchmarks.peers` (about 5 minutes), "
        "which replaces only its own section of this page.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer iterations")
    parser.add_argument("--output", default=str(ROOT / "docs" / "benchmarks.md"))
    args = parser.parse_args(argv)
    n, repeats = (2_000, 2) if args.quick else (20_000, 5)
    figs: dict[str, Any] = {}
    command = "python -m benchmarks.run" + (" --quick" if args.quick else "")
    output = Path(args.output)

    def publish() -> str:
        """Write the page with what is measured so far (keeping every section another
        command writes: shield, cache, secrets, peers…)."""
        report = write_report(figs, command, args.quick)
        old = output.read_text() if output.exists() else ""
        for name in dict.fromkeys(re.findall(r"<!-- ([a-z_]+): begin -->", old)):
            begin, end = markers(name)
            if begin in old and end in old:
                kept = old.split(begin, 1)[1].split(end, 1)[0]
                report = splice(report, kept.strip("\n"), name)
        output.write_text(report)
        return report

    workspace = workspace_files(200)
    made = time.monotonic()
    steps: list[tuple[str, str, Callable[[], Any]]] = [
        ("asyncio", "asyncio", lambda: asyncio.run(asyncio_figures(n, repeats))),
        ("trio", "trio", lambda: trio_figures(n, repeats)),
        ("simulated", "simulated", lambda: simulated_figures(n * 2, repeats)),
        ("workspace", "workspace", lambda: workspace_figures(workspace, 200, repeats, made)),
        ("redaction", "redaction", lambda: redaction_figures(1 if args.quick else 3)),
        ("unknown tool", "unknown", lambda: unknown_tool_figures(repeats)),
        ("engine", "engine", lambda: (
            engine_bench.asyncio_turns(repeats),
            engine_bench.simulated_turns(200 if args.quick else 2_000, repeats))),
        ("test kit", "testing", lambda: (
            testing_bench.simulation(10_000, 1 if args.quick else 3),
            testing_bench.replay_speed(20 if args.quick else 100, repeats))),
    ]
    try:
        for label, key, measure in steps:
            print(f"{label}…", flush=True)
            figs[key] = measure()
            report = publish()
    finally:
        shutil.rmtree(workspace, ignore_errors=True)
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
