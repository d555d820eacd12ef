"""A PyPI reference server (mcp-server-time, built on the SDK's MCPServer, serving both
protocol eras) through ``toolpipe mcp-proxy``, side by side with a direct connection:
through the proxy, the 2025-11-25 handshake and the 2026-07-28 per-request envelope (the
client's ``auto`` mode) give the same tools, output schemas, structured results and tool
errors as the direct connection."""

from __future__ import annotations

import importlib.util
import pathlib
import sys

import anyio
import pytest

pytestmark = [pytest.mark.process, pytest.mark.skipif(
    importlib.util.find_spec("mcp_server_time") is None, reason="a test extra")]

ROOT = pathlib.Path(__file__).resolve().parent.parent
UPSTREAM = [sys.executable, "-m", "mcp_server_time", "--local-timezone", "UTC"]


async def session(route: str, mode: str, errlog) -> dict:
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.shared.exceptions import MCPError

    argv = UPSTREAM if route == "direct" else [
        sys.executable, "-m", "toolpipe", "mcp-proxy", "--", *UPSTREAM]
    params = StdioServerParameters(command=argv[0], args=argv[1:], cwd=str(ROOT))
    out: dict = {}
    with anyio.fail_after(30):
        async with Client(stdio_client(params, errlog=errlog), mode=mode) as client:
            out["era"] = client.protocol_version
            out["server"] = client.server_info.name
            tools = (await client.list_tools()).tools
            out["tools"] = {t.name: t.output_schema for t in tools}
            converted = await client.call_tool("convert_time", {
                "source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"})
            structured = converted.structured_content
            out["converted"] = (converted.is_error, structured["target"]["datetime"][-14:],
                                structured["time_difference"])
            bad = await client.call_tool("get_current_time", {"timezone": "Nowhere/Land"})
            out["bad"] = (bad.is_error, bad.content[0].text)
            try:
                unknown = await client.call_tool("get_current_tiem", {"timezone": "UTC"})
                out["unknown"] = ("result", unknown.is_error, unknown.content[0].text)
            except MCPError as exc:
                out["unknown"] = ("protocol error", exc.error.code)
    return out


def test_both_eras_through_the_proxy_as_directly(tmp_path):
    out: dict = {}

    async def main():
        async def one(route, mode):
            with open(tmp_path / f"{route}-{mode}.err", "w") as errlog:
                out[route, mode] = await session(route, mode, errlog)

        # the direct connection on the handshake wire only: what it answers does not
        # depend on the era (each process costs a second of CPU to import the SDK)
        async with anyio.create_task_group() as group:
            for route, mode in (("direct", "legacy"), ("toolpipe", "legacy"),
                                ("toolpipe", "auto")):
                group.start_soon(one, route, mode)

    anyio.run(main)
    direct = out["direct", "legacy"]
    assert direct["era"] == "2025-11-25" and direct.pop("unknown") == ("protocol error",
                                                                       -32602)
    assert direct["converted"] == (False, "21:00:00+09:00", "+9.0h")
    assert all(direct["tools"].values())  # every tool has an output schema
    assert direct["bad"][0] is True
    for mode, era in (("legacy", "2025-11-25"), ("auto", "2026-07-28")):
        proxied = out["toolpipe", mode]
        assert proxied.pop("era") == era
        # the departure: an unknown name is answered as a tool error that suggests one
        assert proxied.pop("unknown") == (
            "result", True, "Tool not found: get_current_tiem. Available: convert_time, "
            "get_current_time. Did you mean 'get_current_time'?")
        assert proxied == {k: v for k, v in direct.items() if k != "era"}
