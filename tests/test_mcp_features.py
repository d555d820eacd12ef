"""Every MCP feature of the reference server (@modelcontextprotocol/server-everything, from
npm: ``.ci/run`` installs it under ``.cache/mcp-peers``) works through ``toolpipe
mcp-proxy`` as it does directly: the rows of the feature table in docs/mcp.md
(``benchmarks/mcp_features.py``), each tried by the official SDK's client on both routes at
once; and a client on the TypeScript SDK sees the same on both."""

from __future__ import annotations

import os

import anyio
import pytest

from benchmarks.mcp_features import FEATURES, PEERS, VERSION, command, everything, probe

UPSTREAM = everything()
pytestmark = [pytest.mark.process, pytest.mark.xdist_group("mcp-features")]
if UPSTREAM is None:  # CI sets TOOLPIPE_REQUIRE_PEERS: there a missing peer fails
    pytestmark.append(pytest.mark.skipif(
        not os.environ.get("TOOLPIPE_REQUIRE_PEERS"),
        reason=f"the reference server is not installed (npm install --prefix {PEERS} "
        f"@modelcontextprotocol/server-everything@{VERSION})"))


def test_every_feature_works_through_the_proxy_as_it_does_directly():
    assert UPSTREAM is not None, "TOOLPIPE_REQUIRE_PEERS is set and the server is missing"
    out = {}

    async def both():
        async def one(route):
            out[route] = await probe(command(route, UPSTREAM), shared=True)

        async with anyio.create_task_group() as group:
            for route in ("direct", "toolpipe"):
                group.start_soon(one, route)

    anyio.run(both)
    assert len(out["direct"]) == len(FEATURES) >= 17
    failed = {name: row for name, row in out["direct"].items() if not row[0]}
    assert failed == {}, f"the server itself fails these: {failed}"
    assert out["toolpipe"] == out["direct"]


def test_a_typescript_sdk_client_sees_the_same_through_the_proxy():
    """The TypeScript SDK's client (the npm peer's own dependency): the same server, tools,
    answers, sampling and structured content directly and through the proxy."""
    import json
    import pathlib
    import subprocess

    assert UPSTREAM is not None, "TOOLPIPE_REQUIRE_PEERS is set and the server is missing"
    server = pathlib.Path(UPSTREAM[1]).parents[1]  # hoisted beside it, or inside it
    sdk = next(p for p in (server.parent / "sdk",
                           server / "node_modules" / "@modelcontextprotocol" / "sdk")
               if p.is_dir())
    script = pathlib.Path(__file__).parent / "data" / "mcp" / "ts_client.mjs"
    seen = [json.loads(subprocess.run(
        ["node", str(script), str(sdk), *command(route, UPSTREAM)], capture_output=True,
        text=True, timeout=60, check=True).stdout) for route in ("direct", "toolpipe")]
    assert seen[0] == seen[1]
    assert seen[0]["echo"] == "Echo: hi" and seen[0]["sampled"] and seen[0]["structured"]
