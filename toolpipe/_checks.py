"""Argument checks and texts shared by the kernel, the layers, the engine and the tools."""

from __future__ import annotations

import math
from collections.abc import Iterable

from toolpipe.errors import ConfigError


def seconds_text(value: float) -> str:
    """``120`` → ``"120"``, ``0.5`` → ``"0.5"``: how durations appear in messages."""
    return f"{value:g}"


def finite_number(name: str, value: object, *, minimum: float | None = None,
                  positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{name} must be a number, got {type(value).__name__} {value!r}")
    if not math.isfinite(value):
        raise ConfigError(f"{name} must be finite, got {value!r}")
    if positive and value <= 0:
        raise ConfigError(f"{name} must be > 0, got {value!r}")
    if minimum is not None and value < minimum:
        raise ConfigError(f"{name} must be >= {minimum:g}, got {value!r}")
    return float(value)


def positive_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"{name} must be a positive int, got {value!r}")
    return value


def non_negative_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(f"{name} must be a non-negative int, got {value!r}")
    return value


def names(name: str, values: object) -> frozenset[str]:
    if isinstance(values, str):
        raise ConfigError(f"{name} must be a list of tool names, not a single string {values!r}")
    if not isinstance(values, Iterable):
        raise ConfigError(f"{name} must be a list of tool names, got {values!r}")
    try:
        out: frozenset[object] = frozenset(values)
    except TypeError:
        raise ConfigError(f"{name} must be a list of tool names, got {values!r}") from None
    for item in out:
        if not isinstance(item, str):
            raise ConfigError(f"{name} must hold strings, got {item!r}")
        if not item.strip():
            raise ConfigError(f"{name} holds an empty tool name {item!r}")
    return out  # type: ignore[return-value]  # every item checked above


def describe_failure(failure: object) -> str:
    """A readable sentence for a failed call of user code (verifier, resolver, extractor)."""
    from toolpipe.effects import Busy, CallCancelled, Raised, SoftError, Unsupported

    if isinstance(failure, Raised):
        return f"raised {failure.type_name}: {failure.message}" if failure.message else (
            f"raised {failure.type_name}"
        )
    if isinstance(failure, SoftError):
        return failure.message
    if isinstance(failure, Unsupported | Busy):
        return failure.message
    if isinstance(failure, CallCancelled):
        return "cancelled"
    return safe_repr(failure, 200)


def safe_text(value: object) -> str:
    """``str(value)``, never raising: user objects (an exception whose ``__str__`` raises,
    a tool's junk return value) must not turn a failure report into a second failure."""
    try:
        text = str(value)
        if type(text) is str:
            return text
    except BaseException as exc:  # any user __str__ may raise anything
        if isinstance(exc, KeyboardInterrupt):
            raise
    return f"<unprintable {type(value).__name__}>"


def safe_repr(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, never raising."""
    try:
        text = repr(value)
        if type(text) is not str:
            raise TypeError
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        text = f"<unprintable {type(value).__name__}>"
    return text[:limit]


def error_text(error: BaseException) -> str:
    """``Type: message`` for an exception, never raising."""
    message = safe_text(error)
    name = type(error).__name__
    return f"{name}: {message}" if message else name
