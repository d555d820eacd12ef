"""The marks layers read to defer a question and to know a call was approved (the public
face is ``toolpipe.approvals``; this module imports nothing, so layers can use it)."""

from __future__ import annotations

import attrs

APPROVED = "toolpipe.approved"
"""``ToolContext.state`` key: True when a person approved this very call (on resume)."""


@attrs.frozen
class Deferred:
    """The answer of an ask resolver that defers the question to a later decision."""

    def __repr__(self) -> str:
        return "DEFER"


DEFER = Deferred()


def defer(prompt: str, tool: str) -> Deferred:
    """An ask resolver that defers every question: the run pauses on it."""
    return DEFER


defer.inline = True  # type: ignore[attr-defined]  # answered on the loop, no thread
