"""toolpipe in front of MCP tools: a ``ToolRegistry`` from an MCP client session.

``load_registry(session)`` is a program: it lists the server's tools (a ``Request`` effect,
performed by the interpreter: no I/O here) and gives a registry in which every MCP tool
keeps its name, description and input schema. Each call is a ``Request`` too:
``session.call_tool(name, arguments)``. The tool annotations map to toolpipe: a
``readOnlyHint`` tool is concurrency-safe with the ``file_read`` role, a ``destructiveHint``
one has the ``file_write`` role (so memoize invalidates on it and the shield watches it).
MCP content maps both ways (``from_mcp`` and ``to_mcp``): text, images, audio (described),
embedded resources, resource links and structured content; ``isError`` is a soft error.

The ``mcp`` package (the official SDK, extra ``[mcp]``) is not imported here: the session
and its results are read by their fields.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable, Mapping
from typing import Any

from returns.result import Success

from toolpipe._checks import describe_failure
from toolpipe.context import ToolContext
from toolpipe.effects import CallOutcome, Request
from toolpipe.errors import ToolError, ToolpipeError
from toolpipe.formats._common import plain
from toolpipe.program import Program
from toolpipe.registry import Tool, ToolRegistry
from toolpipe.result import (
    DispatchResult,
    ImageContent,
    MultipartContent,
    TextContent,
    ToolContent,
)

__all__ = ["McpError", "from_mcp", "load_registry", "registry_from_tools", "to_mcp"]


class McpError(ToolpipeError):
    """The MCP server failed a request toolpipe made (listing its tools)."""


def _answer(outcome: CallOutcome, what: str) -> Any:
    if isinstance(outcome.value, Success):
        return outcome.value.unwrap()
    raise McpError(f"the MCP server failed {what}: {describe_failure(outcome.value.failure())}")


def load_registry(session: Any) -> Program[ToolRegistry]:
    """The server's tools as a registry (``session`` is an initialised ``ClientSession``)."""
    outcome = yield Request(lambda: session.list_tools(), label="mcp:tools/list",
                            blocking=False)
    listed = plain(_answer(outcome, "tools/list"))
    tools = listed.get("tools") if isinstance(listed, Mapping) else None
    if not isinstance(tools, list):
        raise McpError("the MCP server's tools/list answer holds no tools list")
    return registry_from_tools(session, tools)


def registry_from_tools(session: Any, tools: Iterable[Any]) -> ToolRegistry:
    registry = ToolRegistry()
    for raw in tools:
        tool = plain(raw)
        name = tool.get("name")
        if not isinstance(name, str) or not name:
            raise McpError(f"an MCP tool without a name: {tool!r:.80}")
        annotations = tool.get("annotations") or {}
        read_only = annotations.get("readOnlyHint") is True
        destructive = annotations.get("destructiveHint") is True and not read_only
        idempotent = read_only or annotations.get("idempotentHint") is True
        role = "file_read" if read_only else "file_write" if destructive else None
        schema = tool.get("inputSchema")
        registry.register(Tool.from_function(
            name, _caller(session, name), description=str(tool.get("description") or ""),
            input_schema=dict(schema) if isinstance(schema, Mapping) else {"type": "object"},
            concurrency_safe=read_only, role=role, idempotent=idempotent,
            read_only=read_only,
            # read-only is not "the same answer later": only a closed world is cached
            cacheable=read_only and annotations.get("openWorldHint") is False))
    return registry


def _caller(session: Any, name: str) -> Any:
    def call(input: Mapping[str, Any], context: ToolContext) -> Program[ToolContent]:
        arguments = dict(input)
        outcome = yield Request(lambda: session.call_tool(name, arguments),
                                label=f"mcp:tools/call {name}",
                                blocking=False)  # the session's methods make coroutines
        if not isinstance(outcome.value, Success):
            raise ToolError(f"the MCP server failed the call: "
                            f"{describe_failure(outcome.value.failure())}")
        return from_mcp(outcome.value.unwrap())

    return call


def from_mcp(result: Any) -> ToolContent:
    """A ``CallToolResult`` as toolpipe content; ``isError`` raises ``ToolError`` (a soft
    error with the server's text)."""
    data = plain(result)
    parts: list[TextContent | ImageContent] = []
    for block in data.get("content") or ():
        parts.append(_part(block))
    structured = data.get("structuredContent")
    if structured is not None and not any(isinstance(p, TextContent) and p.text for p in parts):
        parts.append(TextContent(json.dumps(structured, ensure_ascii=False)))
    if data.get("isError"):
        raise ToolError("\n".join(p.text for p in parts if isinstance(p, TextContent))
                        or "the MCP tool reported an error")
    if not parts:
        return TextContent("")
    if len(parts) == 1:
        return parts[0]
    return MultipartContent(tuple(parts))


def _decoded(data: object) -> bytes:
    try:
        return base64.b64decode(str(data), validate=True)
    except (binascii.Error, ValueError):
        return b""


def _part(block: Mapping[str, Any]) -> TextContent | ImageContent:
    kind = block.get("type")
    if kind == "text":
        return TextContent(str(block.get("text", "")))
    if kind == "image":
        return ImageContent(_decoded(block.get("data")), str(block.get("mimeType") or
                                                             "image/png"))
    if kind == "audio":
        size = len(_decoded(block.get("data")))
        return TextContent(f"[audio: {block.get('mimeType')}, {size} bytes]")
    if kind == "resource":
        resource = block.get("resource") or {}
        uri = resource.get("uri")
        if "text" in resource:
            return TextContent(f"[resource {uri}]\n{resource['text']}")
        size = len(_decoded(resource.get("blob")))
        return TextContent(f"[resource {uri}: {resource.get('mimeType')}, {size} bytes]")
    if kind == "resource_link":
        return TextContent(f"[resource link {block.get('name')}: {block.get('uri')}]")
    return TextContent(f"[{kind} content]")


def to_mcp(result: DispatchResult) -> dict[str, Any]:
    """A toolpipe result as a ``CallToolResult`` (a dict): text and image blocks, and
    ``isError`` for a soft error."""
    parts = result.output.parts if isinstance(result.output, MultipartContent) else (
        result.output,)
    content: list[dict[str, Any]] = []
    for part in parts:
        if isinstance(part, ImageContent):
            content.append({"type": "image", "data": base64.b64encode(part.data).decode(),
                            "mimeType": part.media_type})
        else:
            content.append({"type": "text", "text": part.text})
    return {"content": content, "isError": result.is_error}
