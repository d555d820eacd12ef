"""Trace events layers emit with ``Emit``. Interpreters pass every event to their
listeners, and log the ``LoggedEvent`` ones through the standard ``logging`` module
(toolpipe itself performs no I/O)."""

from __future__ import annotations

import logging

import attrs


@attrs.frozen
class LoggedEvent:
    """An event that interpreters also write to ``logging.getLogger(logger)``."""

    logger: str = attrs.field(default="toolpipe", kw_only=True)
    level: int = attrs.field(default=logging.INFO, kw_only=True)

    def message(self) -> str:
        return repr(self)


@attrs.frozen
class ShieldWarning(LoggedEvent):
    tool: str = ""
    score: float = 0.0
    reason: str = ""
    logger: str = attrs.field(default="toolpipe.shield", kw_only=True)
    level: int = attrs.field(default=logging.WARNING, kw_only=True)

    def message(self) -> str:
        risk = f"risk {self.score:.2f})"
        shown = self.reason if self.reason.endswith(risk) else f"{self.reason} ({risk}"
        return f"safety shield warning for {self.tool}: {shown}"


@attrs.frozen
class ShieldAsked(LoggedEvent):
    """The shield asked a person about a call (``answer``: "approved", "refused", or
    "nobody to ask" when no resolver was given: the call was then refused)."""

    tool: str = ""
    score: float = 0.0
    reason: str = ""
    answer: str = ""
    logger: str = attrs.field(default="toolpipe.shield", kw_only=True)
    level: int = attrs.field(default=logging.WARNING, kw_only=True)

    def message(self) -> str:
        return f"safety shield asked about {self.tool} ({self.answer}): {self.reason}"
