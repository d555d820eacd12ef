"""Values the hot path makes on every call, made without their Python-level constructors.

attrs' generated ``__init__`` of a frozen class sets each field through a bound
``object.__setattr__``; these set the same fields directly, which costs about half as
much. Each makes a value equal in every way to the class's own (every field set, in the
class's order, no default left out): ``tests/test_driver_fast.py`` checks each against its
constructor. Only for values whose checks are already done (a ``str`` known to be one).
"""

from __future__ import annotations

from typing import Any

from toolpipe.context import CancelSignal, ToolContext
from toolpipe.effects import CacheLimits, CacheLookup, CachePut, CallTool
from toolpipe.failures import Cause
from toolpipe.result import DispatchResult, DisplayHint, TextContent, ToolContent

_new = object.__new__
_set = object.__setattr__


def text_content(text: str) -> TextContent:
    """``TextContent(text)`` for a text known to be a ``str``."""
    made = _new(TextContent)
    _set(made, "text", text)
    return made


def call_tool(tool: Any, input: Any, context: ToolContext,
              cancel: CancelSignal | None) -> CallTool:
    """``CallTool(tool, input, context, cancel)``: the core's one effect per call."""
    made = _new(CallTool)
    _set(made, "tool", tool)
    _set(made, "input", input)
    _set(made, "context", context)
    _set(made, "cancel", cancel)
    return made


def cache_limits(size: int, age: int, min_age: int | None, max_entries: int | None,
                 max_bytes: int | None) -> CacheLimits:
    """``CacheLimits(...)``: one per answer the cache layer stores."""
    made = _new(CacheLimits)
    _set(made, "size", size)
    _set(made, "age", age)
    _set(made, "min_age", min_age)
    _set(made, "max_entries", max_entries)
    _set(made, "max_bytes", max_bytes)
    return made


def cache_lookup(namespace: str, key: str) -> CacheLookup:
    """``CacheLookup(namespace, key)``: the cache layer's one question before a call."""
    made = _new(CacheLookup)
    _set(made, "namespace", namespace)
    _set(made, "key", key)
    return made


def cache_put(namespace: str, key: str, value: Any, paths: frozenset[str],
              if_epoch: int | None, limits: CacheLimits | None) -> CachePut:
    """``CachePut(...)``: one per answer the cache layer stores."""
    made = _new(CachePut)
    _set(made, "namespace", namespace)
    _set(made, "key", key)
    _set(made, "value", value)
    _set(made, "paths", paths)
    _set(made, "if_epoch", if_epoch)
    _set(made, "limits", limits)
    return made


def dispatch_result(tool_call_id: str, output: ToolContent, is_error: bool, duration: float,
                    resolved_tool_name: str, display_hint: DisplayHint,
                    cause: Cause | None = None, cached: bool = False) -> DispatchResult:
    """``DispatchResult(...)`` with every field given: the core's answer to each call."""
    made = _new(DispatchResult)
    _set(made, "tool_call_id", tool_call_id)
    _set(made, "output", output)
    _set(made, "is_error", is_error)
    _set(made, "duration", duration)
    _set(made, "resolved_tool_name", resolved_tool_name)
    _set(made, "display_hint", display_hint)
    _set(made, "cause", cause)
    _set(made, "cached", cached)
    return made
