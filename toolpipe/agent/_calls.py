"""Tool calls as the model asks for them, checked, and the waves they run in: calls
that are safe together (concurrency-safe, distinct resource keys) share a wave."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from toolpipe._json import NotJSONError, check_json_object
from toolpipe.registry import ToolRegistry


def _problem(id: object, name: object, input: object) -> str | None:
    if not isinstance(name, str) or not name.strip():
        return f"missing tool name (got {name!r:.40})"
    if not isinstance(id, str) or not id:
        return "missing id"
    try:
        check_json_object(input, "arguments")
    except NotJSONError as exc:
        return str(exc)
    return None


@attrs.frozen
class ToolCall:
    """One tool call as the model issued it.

    Construction never raises: a malformed call (no id, no name, arguments that are not a
    JSON object) records why in ``problem``, and the engine answers it with a soft error
    instead of dropping it. ``ToolCall.parse`` accepts arguments as JSON text.
    """

    id: str
    name: str
    input: Mapping[str, Any] = attrs.field(factory=dict)
    problem: str | None = None

    def __attrs_post_init__(self) -> None:
        if self.problem is None:
            object.__setattr__(self, "problem", _problem(self.id, self.name, self.input))

    @classmethod
    def parse(cls, id: object, name: object, arguments: object) -> ToolCall:
        """From a provider payload: ``arguments`` may be JSON text, a mapping or None."""
        call_id = id if isinstance(id, str) else ""
        tool = name if isinstance(name, str) else ""
        if arguments is None or arguments == "":
            arguments = {}
        if isinstance(arguments, str | bytes):
            try:
                arguments = json.loads(arguments, parse_constant=_reject_constant)
            except (ValueError, RecursionError) as exc:
                return cls(call_id, tool, {}, f"arguments are not valid JSON ({exc})")
        problem = _problem(call_id if id is not None else None, name, arguments)
        if problem is not None:
            return cls(call_id, tool, {}, problem)
        return cls(call_id, tool, arguments)  # type: ignore[arg-type]  # checked above


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


@attrs.frozen
class Wave:
    """Indices (into the turn's calls) that run together; ``exclusive`` waves hold one call."""

    calls: tuple[int, ...]
    exclusive: bool


def plan_waves(
    calls: Sequence[ToolCall], registry: ToolRegistry, *, barriers: bool = False
) -> list[Wave]:
    """Greedy first-fit in the model's order.

    A call that is not safe for concurrent execution (the default, and every unregistered
    tool) gets its own closed wave. A safe call joins the earliest open wave that does not
    already hold its resource key, else opens a new wave. With ``barriers=True`` an
    exclusive call also closes every wave before it, so no call moves ahead of it.
    Middleware plays no part: only the declarations count.
    """
    waves: list[tuple[list[int], set[str | None], bool]] = []
    first_open = 0
    for index, call in enumerate(calls):
        tool = registry.get(call.name)
        if tool is None or not tool.declaration.concurrency_safe:
            waves.append(([index], set(), True))
            if barriers:
                first_open = len(waves)
            continue
        key = tool.declaration.resource_of(call.input)
        for members, keys, closed in waves[first_open:]:
            if not closed and (key is None or key not in keys):
                members.append(index)
                keys.add(key)
                break
        else:
            waves.append(([index], {key}, False))
    return [Wave(tuple(members), closed) for members, _, closed in waves]
