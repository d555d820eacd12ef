"""What both provider shapes share: reading a payload defensively."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolpipe.errors import ToolpipeError
from toolpipe.result import ImageContent, MultipartContent, TextContent, ToolContent


class FormatError(ToolpipeError, ValueError):
    """A provider payload that is not the documented shape; the message says where."""


MAX_DEPTH = 64


def plain(value: Any, depth: int = 0) -> Any:
    """An SDK object (a pydantic model: anything with ``model_dump``, as the openai,
    anthropic and mcp clients return) as plain dicts and lists under the wire's names (the
    mcp 2.x models name their fields in snake case, with the wire's camel case as
    aliases); plain values as they are."""
    if depth > MAX_DEPTH:
        raise FormatError("a payload nested more than 64 levels deep")
    dump = getattr(value, "model_dump", None)
    if callable(dump) and not isinstance(value, type):
        try:
            value = dump(by_alias=True)
        except TypeError:  # a model_dump of another kind
            value = dump()
    if isinstance(value, Mapping):
        return {k: plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v, depth + 1) for v in value]
    return value


def mapping(value: object, where: str) -> Mapping[str, Any]:
    value = plain(value)
    if not isinstance(value, Mapping):
        raise FormatError(f"{where}: expected an object, got {type(value).__name__}")
    return value


def text_of(content: ToolContent) -> str:
    """Text for a provider that takes only text: images become a short placeholder."""
    if isinstance(content, TextContent):
        return content.text
    if isinstance(content, ImageContent):
        return f"[image: {content.media_type}, {len(content.data)} bytes]"
    return "\n".join(text_of(part) for part in content.parts)


def parts_of(content: ToolContent) -> tuple[TextContent | ImageContent, ...]:
    if isinstance(content, MultipartContent):
        return content.parts
    return (content,)
