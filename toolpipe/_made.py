"""Values the hot path makes on every call, made without their Python-level constructors.

attrs' generated ``__init__`` of a frozen class sets each field through a bound
``object.__setattr__``; a maker here sets the same fields through each slot's own setter
(its member descriptor's ``__set__``, a C call that skips the attribute lookup), which
costs about half as much. Each maker is generated from its class's fields (every field,
in the class's order, so none can be left out when a class gains one) and takes them all
positionally: only for values whose checks are already done (a ``str`` known to be one).
``tests/test_driver_fast.py`` checks each against its class's constructor.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MemberDescriptorType
from typing import Any, TypeVar

import attrs

from toolpipe.effects import CacheLimits, CacheLookup, CachePut, CallTool
from toolpipe.result import DispatchResult, TextContent

T = TypeVar("T")


def maker(cls: type[T]) -> Callable[..., T]:
    """A function of ``cls``'s fields, in order, that makes an instance without running
    ``__init__`` (as attrs makes its own methods: generated once, from the fields)."""
    names = [field.name for field in attrs.fields(cls)]  # type: ignore[arg-type]
    space: dict[str, Any] = {"_new": object.__new__, "_set": object.__setattr__, "cls": cls}
    lines = [f"def make({', '.join(names)}):", "    made = _new(cls)"]
    for index, name in enumerate(names):
        slot = getattr(cls, name, None)
        if isinstance(slot, MemberDescriptorType):  # a slot: its own setter
            space[f"_set{index}"] = slot.__set__
            lines.append(f"    _set{index}(made, {name})")
        else:
            lines.append(f"    _set(made, {name!r}, {name})")
    lines.append("    return made")
    exec("\n".join(lines), space)  # our own text, made of attrs' field names
    made: Callable[..., T] = space["make"]
    made.__qualname__ = made.__name__ = f"make_{cls.__name__}"
    return made


text_content = maker(TextContent)
"""``text_content(text)``: a tool's text, known to be a ``str``."""
call_tool = maker(CallTool)
"""``call_tool(tool, input, context, cancel)``: the core's one effect per call."""
dispatch_result = maker(DispatchResult)
"""``dispatch_result(tool_call_id, output, is_error, duration, resolved_tool_name,
display_hint, cause, cached)``: the core's answer to each call."""
cache_lookup = maker(CacheLookup)
"""``cache_lookup(namespace, key)``: the cache layer's one question before a call."""
cache_limits = maker(CacheLimits)
"""``cache_limits(size, age, min_age, max_entries, max_bytes)``: one per stored answer."""
cache_put = maker(CachePut)
"""``cache_put(namespace, key, value, paths, if_epoch, limits)``: one per stored answer."""
