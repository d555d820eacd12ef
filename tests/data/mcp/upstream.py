"""An MCP server for the proxy's tests (the SDK's MCPServer over stdio)."""

import os
import sys
from typing import Annotated

import anyio
from mcp.server.mcpserver import Context, Elicit, Image, MCPServer, Resolve
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import BaseModel

app = MCPServer("upstream", instructions="Tools for toolpipe's proxy tests.")
PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 8
TOKEN = "ghp_" + "a1B2c3D4e5" * 4  # synthetic


@app.tool(annotations=ToolAnnotations(readOnlyHint=True))
def echo(text: str) -> str:
    """Say it back."""
    return text


@app.tool()
async def slow(seconds: float, marker: str = "") -> str:
    try:
        await anyio.sleep(seconds)
    except anyio.get_cancelled_exc_class():
        if marker:  # the test's witness that the call was cancelled here, upstream
            with open(marker, "w") as handle:
                handle.write("cancelled")
        raise
    return "finally"


@app.tool()
def run_command(command: str) -> str:
    return f"ran {command}"


@app.tool()
def env() -> str:
    return f"GITHUB_TOKEN={TOKEN}\nHOME=/root"


@app.tool()
def snapshot() -> Image:
    return Image(data=PNG, format="png")


@app.tool(annotations=ToolAnnotations(destructiveHint=True))
def delete(path: str) -> str:
    raise ToolError(f"cannot delete {path}")  # an anticipated failure: its text is shown


COUNTS = {"bumps": 0, "ticks": 0}


@app.tool()
def bump() -> str:
    """Change what lookup answers (no annotations: MCP's default is destructive)."""
    COUNTS["bumps"] += 1
    return "bumped"


@app.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
def lookup() -> str:
    """Read-only in a closed world: cacheable."""
    return f"bumps={COUNTS['bumps']}"


@app.tool(annotations=ToolAnnotations(readOnlyHint=True))
def tick() -> str:
    """Read-only, but its answer changes by itself (a clock): never cached."""
    COUNTS["ticks"] += 1
    return f"ticks={COUNTS['ticks']}"


class Report(BaseModel):
    rows: list[str]


@app.tool(annotations=ToolAnnotations(readOnlyHint=True))
def report(count: int) -> Report:
    """A structured result (an output schema) as large as asked."""
    return Report(rows=[f"row {i}: " + "x" * 40 for i in range(count)])


class Confirmation(BaseModel):
    ok: bool


def ask_first() -> Elicit[Confirmation]:
    return Elicit("Go on?", Confirmation)


@app.tool()
def confirm(answer: Annotated[Confirmation, Resolve(ask_first)]) -> str:
    """Ask the client first: a request mid-call on the handshake wire, input_required on
    the 2026 wire."""
    return f"ok={answer.ok}"


@app.tool(annotations=ToolAnnotations(readOnlyHint=True))
def headers(ctx: Context) -> str:
    """The HTTP headers the proxy sent that a test set (over stdio: none)."""
    got = ctx.headers or {}
    return f"x-probe={got.get('x-probe')} authorization={got.get('authorization')}"


@app.tool(annotations=ToolAnnotations(readOnlyHint=True))
def environment(names: list[str]) -> dict[str, str | None]:
    """The upstream's environment variables of these names."""
    return {name: os.environ.get(name) for name in names}


@app.tool()
def crash() -> str:
    sys.stdout.flush()
    os._exit(3)


if __name__ == "__main__":
    if len(sys.argv) > 1:  # a port: streamable HTTP on loopback
        app.run(transport="streamable-http", port=int(sys.argv[1]))
    else:
        app.run()
