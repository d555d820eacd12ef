"""Exceptions: programming mistakes are raised; what the model should see is a soft error."""

from __future__ import annotations

from toolpipe._json import NotJSONError


class ToolpipeError(Exception):
    """Base class of toolpipe's own exceptions."""


class PipelineError(ToolpipeError):
    """A pipeline was built wrongly (empty, missing core, core twice...)."""


class ProgramError(ToolpipeError, TypeError):
    """A program broke the rules: yielded a non-effect, or a layer returned a non-program."""


class ConfigError(ToolpipeError, ValueError):
    """A bad argument to a layer or profile; the message names the argument."""


class StoreFailed(ToolpipeError):
    """The interpreter's store raised while answering a cache or history effect; thrown
    into the program that asked, so the call ends with the store named as its cause."""

    def __init__(self, operation: str, error: BaseException) -> None:
        from toolpipe._checks import error_text

        self.detail = f"{error_text(error)} (in {operation})"
        super().__init__(f"the store failed: {self.detail}")
        self.error = error


class ToolError(Exception):
    """Raise inside a tool to return a soft error whose text is exactly the message."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


__all__ = [
    "ConfigError",
    "NotJSONError",
    "PipelineError",
    "ProgramError",
    "StoreFailed",
    "ToolError",
    "ToolpipeError",
]


class ToolpipeWarning(UserWarning):
    """A configuration that works but probably not as meant (a guard that guards nothing)."""
