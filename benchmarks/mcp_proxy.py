"""The MCP proxy, measured: its added latency per call (paired with the direct client and
FastMCP's proxy in one run), 2,000 concurrent calls beside a busy process, and how each
fault ends (exit status, seconds, orphans left). Writes its section of docs/benchmarks.md.

    python -m benchmarks.mcp_proxy            # about 40 s (mcp from the test extra;
                                              # fastmcp from the bench extra, if installed)
    python -m benchmarks.mcp_proxy --quick    # fewer calls
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio

from benchmarks.common import write_section

ROOT = Path(__file__).resolve().parent.parent
UPSTREAM = str(ROOT / "tests" / "data" / "mcp" / "upstream.py")
RAW = str(ROOT / "tests" / "data" / "mcp" / "raw_server.py")
PROXY = ["-m", "toolpipe", "mcp-proxy", "--"]
FASTMCP = ["-c", "import sys; from fastmcp.server import create_proxy; "
           "create_proxy({'mcpServers': {'up': {'command': sys.argv[1], "
           "'args': sys.argv[2:]}}}).run(show_banner=False)"]


async def _session(args: list[str], body: Any) -> Any:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=sys.executable, args=args, cwd=str(ROOT))
    with open(os.devnull, "w") as quiet:
        async with stdio_client(params, errlog=quiet) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            return await body(session)


async def latencies(args: list[str], calls: int) -> list[float]:
    async def body(session: Any) -> list[float]:
        out: list[float] = []
        for i in range(calls + 20):  # the first 20 warm both ends up
            start = time.perf_counter()
            await session.call_tool("echo", {"text": f"call {i}"})
            if i >= 20:
                out.append(time.perf_counter() - start)
        return out

    return await _session(args, body)  # type: ignore[no-any-return]


async def concurrent(args: list[str], calls: int) -> tuple[int, float]:
    """``calls`` calls at once: how many came back right, and the seconds it took."""
    async def body(session: Any) -> tuple[int, float]:
        right = 0

        async def one(i: int) -> None:
            nonlocal right
            try:
                result = await session.call_tool("echo", {"text": f"call {i}"})
            except Exception:
                return
            right += result.content[0].text == f"call {i}"

        start = time.perf_counter()
        with anyio.move_on_after(120):
            async with anyio.create_task_group() as group:
                for i in range(calls):
                    group.start_soon(one, i)
        return right, time.perf_counter() - start

    try:
        return await _session(args, body)  # type: ignore[no-any-return]
    except Exception:
        return 0, float("nan")


def summary(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered) * 1e6, ordered[int(len(ordered) * 0.99) - 1] * 1e6


# --- faults ---------------------------------------------------------------------------------


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except (ProcessLookupError, FileNotFoundError):
        return False


def fault(how: str) -> tuple[int | None, float, int]:
    """One fault against a proxy in front of the wire-level server: the proxy's exit
    status, the seconds from the fault to its exit, and the processes left behind."""
    with tempfile.TemporaryDirectory() as work:
        mode = {"hang": "hang", "garbage": "garbage"}.get(how, "paged")
        options = ["--init-timeout", "2"] if mode != "paged" else []
        proxy = subprocess.Popen(
            [sys.executable, "-m", "toolpipe", "mcp-proxy", *options, "--", sys.executable,
             RAW, mode, work], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, cwd=ROOT)
        assert proxy.stdin is not None and proxy.stdout is not None

        def send(message: dict[str, Any]) -> None:
            assert proxy.stdin is not None
            proxy.stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
            proxy.stdin.flush()

        send({"id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"}}})
        pids: list[int] = []
        if mode == "paged":
            proxy.stdout.readline()
            send({"id": 2, "method": "tools/call", "params": {"name": "child"}})
            proxy.stdout.readline()
            pids = [int(Path(work, n).read_text()) for n in ("server.pid", "child.pid")]
            if how == "upstream crash":
                os.kill(pids[0], signal.SIGKILL)
            else:  # busy in a call when the fault comes
                send({"id": 3, "method": "tools/call",
                      "params": {"name": "sleep", "arguments": {"seconds": 60}}})
                time.sleep(0.3)
        else:
            pid_file = Path(work, "server.pid")
            deadline = time.monotonic() + 10
            while not pid_file.exists() and time.monotonic() < deadline:
                time.sleep(0.02)
            time.sleep(0.1)
            pids = [int(pid_file.read_text())]
        start = time.perf_counter()
        if mode != "paged":  # the handshake was sent when the proxy started
            start -= 0.1
        if how == "stdin closed":
            proxy.stdin.close()
        elif how in ("SIGTERM", "SIGINT"):
            proxy.send_signal(getattr(signal, how))
        try:
            code: int | None = proxy.wait(timeout=30)
        except subprocess.TimeoutExpired:
            code = None
            proxy.kill()
        took = time.perf_counter() - start - (2.0 if mode != "paged" else 0.0)
        time.sleep(0.2)
        return code, took, sum(_alive(pid) for pid in pids)


FAULTS = {
    "stdin closed (the client went), upstream busy": "stdin closed",
    "SIGTERM, upstream busy": "SIGTERM",
    "SIGINT (Ctrl-C), upstream busy": "SIGINT",
    "the upstream crashed": "upstream crash",
    "the upstream hangs in initialize (--init-timeout 2)": "hang",
    "the upstream writes garbage (--init-timeout 2)": "garbage",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--concurrent", type=int, default=2000)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--output", default=str(ROOT / "docs" / "benchmarks.md"))
    args = parser.parse_args(argv)
    if args.quick:
        args.calls, args.concurrent = 50, 200
    routes = {"client → upstream": [UPSTREAM],
              "client → toolpipe mcp-proxy → upstream": [*PROXY, sys.executable, UPSTREAM]}
    if importlib.util.find_spec("fastmcp") is not None:
        routes["client → FastMCP's proxy → upstream"] = [*FASTMCP, sys.executable, UPSTREAM]
    timings = {name: summary(anyio.run(latencies, route, args.calls))
               for name, route in routes.items()}
    print("latency measured", file=sys.stderr)
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        load = {name: anyio.run(concurrent, route, args.concurrent)
                for name, route in routes.items() if name != "client → upstream"}
    finally:
        burner.kill()
        burner.wait()
    print("load measured", file=sys.stderr)
    faults = {name: fault(how) for name, how in FAULTS.items()}
    from toolpipe import ToolRegistry
    from toolpipe.config import DEFAULT_PIPELINE, load_pipeline

    layers = len(load_pipeline(DEFAULT_PIPELINE, ToolRegistry()).layers)
    d50 = timings["client → upstream"][0]
    p50 = timings["client → toolpipe mcp-proxy → upstream"][0]
    rows = "\n".join(f"| {name} | {a:,.0f} µs | {b:,.0f} µs |"
                     for name, (a, b) in timings.items())
    load_rows = "\n".join(f"| {name} | {right:,} of {args.concurrent:,} | "
                          f"{args.concurrent - right:,} | {took:.1f} s |"
                          for name, (right, took) in load.items())
    fault_rows = "\n".join(
        f"| {name} | {'none in 30 s' if code is None else code} | {took:.2f} s | {left} |"
        for name, (code, took, left) in faults.items())
    quick = " --quick" if args.quick else ""
    section = f"""## The MCP proxy: added latency, load and faults

`python -m benchmarks.mcp_proxy{quick}`: one MCP client (the official SDK's) calls the
upstream's `echo` tool {args.calls:,} times over stdio (after 20 warm-up calls), directly,
through `toolpipe mcp-proxy` with the default pipeline (its {layers} layers) and through
FastMCP's proxy (`fastmcp.server.create_proxy`), in one run. The upstream is
`tests/data/mcp/upstream.py`, an `MCPServer` of the mcp SDK 2.x.

| path | median | p99 |
|---|---:|---:|
{rows}

toolpipe's proxy adds **{p50 - d50:,.0f} µs** per call at the median ({p50 / d50:.2f}x the
direct call): a second stdio hop, the relay (one JSON parse and dump per message each way)
and the pipeline.

{args.concurrent:,} calls at once, beside a process that keeps one of the two cores busy:

| path | answered right | lost | took |
|---|---:|---:|---:|
{load_rows}

Each fault against a proxy in front of `tests/data/mcp/raw_server.py`, whose tool started
a process of its own (orphans: the server's and its child's processes still alive after
the proxy exited; for the handshake faults, the time after the 2 s timeout):

| fault | proxy's exit status | exit after the fault | orphans |
|---|---:|---:|---:|
{fault_rows}
"""
    write_section(args.output, section, "mcp_proxy")
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
