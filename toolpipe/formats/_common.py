"""What both provider shapes share: reading a payload defensively."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolpipe.errors import ToolpipeError
from toolpipe.result import ImageContent, MultipartContent, TextContent, ToolContent


class FormatError(ToolpipeError, ValueError):
    """A provider payload that is not the documented shape; the message says where."""


def mapping(value: object, where: str) -> Mapping[str, Any]:
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
