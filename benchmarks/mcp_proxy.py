"""The MCP proxy's added latency per call: the same client calls the same upstream tool
over stdio directly and through ``toolpipe mcp-proxy`` (the default pipeline), in one run;
writes its section of docs/benchmarks.md.

    python -m benchmarks.mcp_proxy        # about 5 s (mcp from the test extra)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import anyio

from benchmarks.common import write_section

ROOT = Path(__file__).resolve().parent.parent
UPSTREAM = str(ROOT / "tests" / "data" / "mcp" / "upstream.py")


async def latencies(args: list[str], calls: int) -> list[float]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=sys.executable, args=args, cwd=str(ROOT))
    out: list[float] = []
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for i in range(calls + 20):  # the first 20 warm both ends up
            start = time.perf_counter()
            await session.call_tool("echo", {"text": f"call {i}"})
            if i >= 20:
                out.append(time.perf_counter() - start)
    return out


def summary(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered) * 1e6, ordered[int(len(ordered) * 0.99) - 1] * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--output", default=str(ROOT / "docs" / "benchmarks.md"))
    args = parser.parse_args(argv)
    direct = anyio.run(latencies, [UPSTREAM], args.calls)
    proxied = anyio.run(latencies, ["-m", "toolpipe", "mcp-proxy", "--", sys.executable,
                                    UPSTREAM], args.calls)
    from toolpipe import ToolRegistry
    from toolpipe.config import DEFAULT_PIPELINE, load_pipeline

    layers = len(load_pipeline(DEFAULT_PIPELINE, ToolRegistry()).layers)
    d50, d99 = summary(direct)
    p50, p99 = summary(proxied)
    section = f"""## The MCP proxy: added latency per call

`python -m benchmarks.mcp_proxy`: one MCP client calls the upstream's `echo` tool
{args.calls:,} times over stdio (after 20 warm-up calls), directly and through
`toolpipe mcp-proxy` with the default pipeline (its {layers} layers), in one run. The upstream is
`tests/data/mcp/upstream.py`, a FastMCP server.

| path | median | p99 |
|---|---:|---:|
| client → upstream | {d50:,.0f} µs | {d99:,.0f} µs |
| client → toolpipe mcp-proxy → upstream | {p50:,.0f} µs | {p99:,.0f} µs |

The proxy adds **{p50 - d50:,.0f} µs** per call at the median ({p50 / d50:.2f}x): a second
stdio hop (the JSON-RPC framing and pydantic models of the SDK on both sides of it) and the
pipeline. The pipeline alone costs tens of microseconds (see the stacks above); most of
the rest is the hop.
"""
    write_section(args.output, section, "mcp_proxy")
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
