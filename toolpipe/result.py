"""The result of a dispatch and the content a tool produces."""

from __future__ import annotations

from typing import TypeAlias

import attrs

from toolpipe.failures import Cause, render


@attrs.frozen
class TextContent:
    text: str = attrs.field(validator=attrs.validators.instance_of(str))

    def as_text(self) -> str:
        return self.text


@attrs.frozen
class ImageContent:
    data: bytes = attrs.field(validator=attrs.validators.instance_of(bytes), repr=False)
    media_type: str = "image/png"

    def as_text(self) -> str:
        return ""


Part: TypeAlias = TextContent | ImageContent


def _parts(value: object) -> tuple[Part, ...]:
    if not isinstance(value, list | tuple):
        raise TypeError(f"parts must be a list or tuple, got {type(value).__name__}")
    parts: tuple[object, ...] = tuple(value)
    for i, part in enumerate(parts):
        if not isinstance(part, TextContent | ImageContent):
            raise TypeError(f"parts[{i}]: expected TextContent or ImageContent, got {part!r:.60}")
    return parts  # type: ignore[return-value]  # checked element by element above


@attrs.frozen
class MultipartContent:
    parts: tuple[Part, ...] = attrs.field(converter=_parts)

    def as_text(self) -> str:
        """The text parts joined by newlines (images contribute nothing)."""
        return "\n".join(p.text for p in self.parts if isinstance(p, TextContent))


ToolContent: TypeAlias = TextContent | MultipartContent | ImageContent


def text(value: str) -> TextContent:
    return TextContent(value)


def append_text(content: ToolContent, suffix: str, part: str) -> ToolContent:
    """Append ``suffix`` to a text output, or ``part`` as a new text part otherwise."""
    if isinstance(content, TextContent):
        return TextContent(content.text + suffix)
    if isinstance(content, MultipartContent):
        return MultipartContent((*content.parts, TextContent(part)))
    return MultipartContent((content, TextContent(part)))


@attrs.frozen
class DisplayHint:
    """How a host might render the output; opaque to every layer, which must preserve it."""

    kind: str = "text"
    language: str | None = None


@attrs.frozen
class DispatchResult:
    """A struct, not an enum: ``is_error`` marks a soft error that the model sees."""

    tool_call_id: str
    output: ToolContent
    is_error: bool = False
    duration: float = 0.0
    resolved_tool_name: str = ""
    display_hint: DisplayHint = attrs.field(factory=DisplayHint)
    # Why it failed, set by whoever decided (None: a success, or an error from outside
    # toolpipe's own decisions); read it instead of the text.
    cause: Cause | None = None
    cached: bool = False
    """Served from the memoize layer's cache (checked still valid), not run again."""

    @property
    def text(self) -> str:
        return self.output.as_text()

    @classmethod
    def error(
        cls, ctx_call_id: str, message: str, tool_name: str, duration: float = 0.0
    ) -> DispatchResult:
        """A soft error result: the model reads ``message``."""
        return cls(ctx_call_id, TextContent(message), True, duration, tool_name)

    @classmethod
    def failed(cls, ctx_call_id: str, cause: Cause, duration: float = 0.0,
               display_hint: DisplayHint | None = None) -> DispatchResult:
        """A soft error result whose text is ``render(cause)``."""
        return cls(ctx_call_id, TextContent(render(cause)), True, duration, cause.tool,
                   display_hint or DisplayHint(), cause)
