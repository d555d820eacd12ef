"""What MCP offers, tried directly and through a proxy: the feature table of docs/mcp.md.

    python -m benchmarks.mcp_features              # direct, toolpipe's proxy, FastMCP's proxy
    python -m benchmarks.mcp_features --output docs/mcp.md

Each row is one feature of the reference server ``@modelcontextprotocol/server-everything``
(npm; ``.ci/run`` installs it under ``.cache/mcp-peers``) tried by the official Python SDK's
client: the same check on a direct connection, through ``toolpipe mcp-proxy`` (its default
pipeline) and through FastMCP's proxy (``fastmcp.server.create_proxy``, the bench extra).
``tests/test_mcp_features.py`` runs the first two columns and asserts every row works.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import pathlib
import re
import sys
import tempfile
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import anyio

ROOT = pathlib.Path(__file__).resolve().parent.parent
VERSION = "2026.8.31"
PEERS = ROOT / ".cache" / "mcp-peers"
ENTRY = "node_modules/@modelcontextprotocol/server-everything/dist/index.js"
PROBE = ("TOOLPIPE_PROBE_VARIABLE", "reaches-the-upstream")
BEGIN, END = "<!-- mcp-features:begin -->", "<!-- mcp-features:end -->"


def everything() -> list[str] | None:
    """The reference server's command, when it is installed (None otherwise)."""
    entry = os.environ.get("TOOLPIPE_MCP_EVERYTHING") or str(PEERS / ENTRY)
    return ["node", entry, "stdio"] if pathlib.Path(entry).is_file() else None


def command(route: str, upstream: list[str]) -> list[str]:
    """How the client starts the server on ``route``: directly, or a proxy before it."""
    if route == "direct":
        return upstream
    if route == "toolpipe":
        return [sys.executable, "-m", "toolpipe", "mcp-proxy", "--", *upstream]
    script = ("import sys; from fastmcp.server import create_proxy; "
              "create_proxy({'mcpServers': {'up': {'command': sys.argv[1], "
              "'args': sys.argv[2:]}}}).run(show_banner=False)")
    return [sys.executable, "-c", script, *upstream]


class Seen:
    """What the server asked of the client, or told it."""

    def __init__(self) -> None:
        self.sampled = self.elicited = self.rooted = 0
        self.logs: list[Any] = []
        self.updates: list[str] = []
        self.progress: list[float] = []


@contextlib.asynccontextmanager
async def connect(argv: list[str], seen: Seen) -> AsyncIterator[Any]:
    from mcp import ClientSession, StdioServerParameters, types
    from mcp.client.stdio import stdio_client

    async def sampling(context: Any, params: Any) -> Any:
        seen.sampled += 1
        return types.CreateMessageResult(role="assistant", model="probe", content=types.
                                         TextContent(type="text", text="sampled by the probe"))

    async def elicitation(context: Any, params: Any) -> Any:
        seen.elicited += 1
        return types.ElicitResult(action="decline")

    async def roots(context: Any) -> Any:
        seen.rooted += 1
        return types.ListRootsResult(roots=[types.Root(uri="file:///probe-root", name="probe")])

    async def logging(params: Any) -> None:
        seen.logs.append(params)

    async def messages(message: Any) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            seen.updates.append(str(message.params.uri))

    env = {**os.environ, PROBE[0]: PROBE[1]}
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env, cwd=str(ROOT))
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(
                read, write, sampling_callback=sampling, elicitation_callback=elicitation,
                list_roots_callback=roots, logging_callback=logging,
                message_handler=messages) as session:
            with anyio.fail_after(60):
                init = await session.initialize()
            yield session, init


def _texts(result: Any) -> str:
    return "\n".join(c.text for c in result.content if c.type == "text")


async def _until(check: Callable[[], bool], seconds: float = 8.0) -> bool:
    with anyio.move_on_after(seconds):
        while not check():
            await anyio.sleep(0.02)
        return True
    return False


Check = Callable[[Any, Any, Seen], Awaitable[str]]
FEATURES: list[tuple[str, Check]] = []


def feature(name: str) -> Callable[[Check], Check]:
    def add(check: Check) -> Check:
        FEATURES.append((name, check))
        return check
    return add


@feature("initialize: the upstream's serverInfo and instructions")
async def _initialize(session: Any, init: Any, seen: Seen) -> str:
    assert init.server_info.name == "mcp-servers/everything", init.server_info.name
    assert init.instructions and "Everything" in init.instructions
    caps = init.capabilities
    assert caps.tools and caps.tools.list_changed and caps.resources.subscribe
    return (f"{init.server_info.name} {init.server_info.version}, "
            "tools/resources/prompts listChanged")


@feature("tools/list: every tool, capability-gated ones too")
async def _tools(session: Any, init: Any, seen: Seen) -> str:
    tools = (await session.list_tools()).tools
    names = {t.name for t in tools}
    assert {"trigger-sampling-request", "trigger-elicitation-request",
            "get-roots-list"} <= names, sorted(names)
    return f"{len(tools)} tools"


@feature("tools/call: text, annotations kept")
async def _echo(session: Any, init: Any, seen: Seen) -> str:
    result = await session.call_tool("echo", {"message": "hello"})
    assert _texts(result) == "Echo: hello", _texts(result)
    annotated = await session.call_tool("get-annotated-message", {"messageType": "error"})
    assert annotated.content[0].annotations is not None, annotated.content[0]
    return "Echo: hello; priority/audience annotations"


@feature("outputSchema and structuredContent")
async def _structured(session: Any, init: Any, seen: Seen) -> str:
    tools = {t.name: t for t in (await session.list_tools()).tools}
    assert tools["get-structured-content"].output_schema, "the output schema was dropped"
    result = await session.call_tool("get-structured-content", {"location": "New York"})
    assert result.structured_content and "temperature" in result.structured_content
    return "schema listed; structured result valid"


@feature("images, embedded resources, resource links")
async def _content(session: Any, init: Any, seen: Seen) -> str:
    image = (await session.call_tool("get-tiny-image", {})).content
    png = [c for c in image if c.type == "image"]
    assert png and base64.b64decode(png[0].data)[:4] == b"\x89PNG"
    links = (await session.call_tool("get-resource-links", {"count": 2})).content
    assert sum(c.type == "resource_link" for c in links) == 2, [c.type for c in links]
    embedded = (await session.call_tool("get-resource-reference",
                                        {"resourceType": "Text", "resourceId": 1})).content
    assert any(c.type == "resource" for c in embedded), [c.type for c in embedded]
    return "image, resource, resource_link blocks"


@feature("resources: list, templates, read")
async def _resources(session: Any, init: Any, seen: Seen) -> str:
    listed = (await session.list_resources()).resources
    templates = (await session.list_resource_templates()).resource_templates
    read = await session.read_resource(str(listed[0].uri))
    assert listed and templates and read.contents
    return f"{len(listed)} resources, {len(templates)} templates"


@feature("resources: subscribe, notifications/resources/updated")
async def _subscribe(session: Any, init: Any, seen: Seen) -> str:
    uri = str((await session.list_resources()).resources[0].uri)
    await session.subscribe_resource(uri)
    await session.call_tool("toggle-subscriber-updates", {})
    assert await _until(lambda: uri in seen.updates), "no update arrived"
    await session.unsubscribe_resource(uri)
    return "update received"


@feature("prompts: list, get with arguments")
async def _prompts(session: Any, init: Any, seen: Seen) -> str:
    names = [p.name for p in (await session.list_prompts()).prompts]
    got = await session.get_prompt("args-prompt", {"city": "Lyon"})
    assert "args-prompt" in names and "Lyon" in json.dumps(got.model_dump(mode="json"))
    return f"{len(names)} prompts"


@feature("completion/complete")
async def _complete(session: Any, init: Any, seen: Seen) -> str:
    from mcp import types

    done = await session.complete(types.PromptReference(type="ref/prompt",
                                                        name="completable-prompt"),
                                  {"name": "department", "value": "Eng"})
    assert done.completion.values == ["Engineering"], done.completion.values
    return "Eng → Engineering"


@feature("logging: setLevel, notifications/message")
async def _logging(session: Any, init: Any, seen: Seen) -> str:
    await session.set_logging_level("debug")
    await session.call_tool("toggle-simulated-logging", {})
    assert await _until(lambda: bool(seen.logs)), "no log message arrived"
    await session.call_tool("toggle-simulated-logging", {})
    return "message received"


@feature("progress notifications")
async def _progress(session: Any, init: Any, seen: Seen) -> str:
    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.progress.append(progress)

    await session.call_tool("trigger-long-running-operation", {"duration": 0.6, "steps": 3},
                            progress_callback=on_progress)
    assert len(seen.progress) >= 2, seen.progress
    return f"{len(seen.progress)} updates"


@feature("cancellation")
async def _cancel(session: Any, init: Any, seen: Seen) -> str:
    with anyio.move_on_after(0.5) as scope:
        await session.call_tool("trigger-long-running-operation", {"duration": 30, "steps": 3})
    assert scope.cancelled_caught
    with anyio.fail_after(5):
        assert _texts(await session.call_tool("echo", {"message": "after"})) == "Echo: after"
    return "cancelled; the session goes on"


@feature("sampling (server → client)")
async def _sampling(session: Any, init: Any, seen: Seen) -> str:
    result = await session.call_tool("trigger-sampling-request", {"prompt": "hi",
                                                                  "maxTokens": 5})
    assert seen.sampled == 1 and "sampled by the probe" in _texts(result), _texts(result)
    return "answered by the client"


@feature("elicitation (server → client)")
async def _elicitation(session: Any, init: Any, seen: Seen) -> str:
    result = await session.call_tool("trigger-elicitation-request", {})
    assert seen.elicited == 1 and "decline" in _texts(result).lower(), _texts(result)
    return "declined by the client"


@feature("roots (server → client)")
async def _roots(session: Any, init: Any, seen: Seen) -> str:
    result = await session.call_tool("get-roots-list", {})
    assert "probe-root" in _texts(result), _texts(result)
    return "the client's roots"


@feature("ping")
async def _ping(session: Any, init: Any, seen: Seen) -> str:
    await session.send_ping()
    return "answered"


@feature("the client's environment reaches the upstream")
async def _env(session: Any, init: Any, seen: Seen) -> str:
    text = _texts(await session.call_tool("get-env", {}))
    assert f'"{PROBE[0]}": "{PROBE[1]}"' in text, text[:200]
    return f"{PROBE[0]} seen"


async def probe(argv: list[str], *, shared: bool = False) -> dict[str, tuple[bool, str]]:
    """Every feature, on a connection of its own (a failure or a hang costs only its row)
    or, ``shared``, all on one (quicker: the tests' way)."""
    out: dict[str, tuple[bool, str]] = {}
    seen = Seen()

    async def run(name: str, check: Check, session: Any, init: Any) -> None:
        seen.__init__()  # type: ignore[misc]
        try:
            with anyio.fail_after(20):
                out[name] = (True, await check(session, init, seen))
        except Exception as exc:  # a row's failure is its verdict
            text = re.sub(r"\s+", " ", f"{type(exc).__name__}: {exc}")
            out[name] = (False, text[:90])

    with warnings.catch_warnings():  # the 2026 wire deprecates logging and subscribe
        warnings.simplefilter("ignore")
        if shared:
            async with connect(argv, seen) as (session, init):
                for name, check in FEATURES:
                    await run(name, check, session, init)
            return out
        for name, check in FEATURES:
            try:
                async with connect(argv, seen) as (session, init):
                    await run(name, check, session, init)
            except Exception as exc:  # the connection itself failed
                out[name] = (False, f"{type(exc).__name__}: {exc}"[:90])
    return out


def table(columns: dict[str, dict[str, tuple[bool, str]]]) -> str:
    heads = list(columns)
    lines = ["| feature | " + " | ".join(heads) + " |",
             "|---|" + "---|" * len(heads)]
    for name, _ in FEATURES:
        cells = []
        for head in heads:
            ok, detail = columns[head][name]
            cells.append(("yes: " if ok else "**no**: ") + detail.replace("|", "/"))
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", help="replace the table between the markers in this file")
    parser.add_argument("--routes", default="direct,toolpipe,fastmcp")
    parser.add_argument("--quick", action="store_true",
                        help="direct and through toolpipe only (no FastMCP), for a smoke test")
    args = parser.parse_args(argv)
    if args.quick:
        args.routes = "direct,toolpipe"
    upstream = everything()
    if upstream is None:
        print(f"the reference server is not installed: npm install --prefix {PEERS} "
              f"@modelcontextprotocol/server-everything@{VERSION}", file=sys.stderr)
        return 2
    heads = {"direct": "direct", "toolpipe": "through toolpipe mcp-proxy",
             "fastmcp": "through FastMCP's proxy"}
    columns = {heads[r]: anyio.run(probe, command(r, upstream))
               for r in args.routes.split(",")}
    text = table(columns)
    print(text)
    if args.output:
        path = pathlib.Path(args.output)
        page = path.read_text()
        start, end = page.index(BEGIN) + len(BEGIN), page.index(END)
        stamp = (f"\n\n`python -m benchmarks.mcp_features --output {args.output}` "
                 f"(server-everything {VERSION}, the SDK's client):\n\n")
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False) as handle:
            handle.write(page[:start] + stamp + text + "\n\n" + page[end:])
        os.replace(handle.name, path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
