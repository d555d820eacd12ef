"""OutputLimitMiddleware: a hard, character-based cap on what a tool returns."""

from __future__ import annotations

import attrs

from toolpipe._checks import non_negative_int
from toolpipe.context import DispatchContext
from toolpipe.pipeline import Middleware, Next
from toolpipe.program import Program
from toolpipe.registry import ToolRegistry
from toolpipe.result import (
    DispatchResult,
    ImageContent,
    MultipartContent,
    Part,
    TextContent,
    ToolContent,
)

MARKER = "\n[truncated]"
PART_MARKER = "[truncated]"


def cap_text(text: str, budget: int) -> str:
    """Keep the head and end with the marker, all within ``budget`` code points."""
    if len(text) <= budget:
        return text
    if budget <= len(MARKER):
        return MARKER
    return text[: budget - len(MARKER)] + MARKER


def cap_content(content: ToolContent, max_chars: int) -> ToolContent:
    if isinstance(content, TextContent):
        if len(content.text) <= max_chars:
            return content
        return TextContent(cap_text(content.text, max_chars))
    if isinstance(content, ImageContent):
        return content
    budget = max_chars
    parts: list[Part] = []
    changed = False
    for part in content.parts:
        if isinstance(part, ImageContent) or len(part.text) <= budget:
            parts.append(part)
            budget -= 0 if isinstance(part, ImageContent) else len(part.text)
        elif budget <= 0:
            parts.append(TextContent(PART_MARKER))
            changed = True
        else:
            parts.append(TextContent(cap_text(part.text, budget)))
            budget = 0
            changed = True
    return MultipartContent(tuple(parts)) if changed else content


def _max_chars(value: object) -> int:
    return non_negative_int("max_chars", value)


@attrs.frozen
class OutputLimitMiddleware:
    """``OutputLimitMiddleware(max_chars)``; ``0`` disables the layer."""

    max_chars: int = attrs.field(converter=_max_chars)
    name: str = attrs.field(default="output_limit", init=False)

    def dispatch(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        result = yield from next(ctx)
        if self.max_chars == 0:
            return result
        capped = cap_content(result.output, self.max_chars)
        if capped is result.output:
            return result
        return attrs.evolve(result, output=capped)


# --- pipeline-file options ------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class OutputLimitOptions:
    """This layer's options in a pipeline file (see toolpipe.config)."""

    max_chars: int = 16_384

    def build(self, registry: ToolRegistry) -> Middleware:
        return OutputLimitMiddleware(self.max_chars)
