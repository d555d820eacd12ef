"""What a layer can touch: the immutable dispatch context and its parts."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import attrs

from toolpipe._json import JSONObject, check_json_object


class CancelSignal:
    """A one-way cancellation flag shared by everyone working on a call.

    It holds no I/O: interpreters register listeners to interrupt in-flight waits, and layers
    poll it through the ``IsCancelled`` effect so that traces stay complete.
    Equality is identity.
    """

    __slots__ = ("_cancelled", "_listeners", "reason")

    def __init__(self) -> None:
        self._cancelled = False
        self._listeners: list[Callable[[], None]] | None = None  # made when one is added
        self.reason: str | None = None

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def cancel(self, reason: str | None = None) -> None:
        """Cancel once; later calls do nothing. Listeners run synchronously, in order."""
        if self._cancelled:
            return
        self._cancelled = True
        self.reason = reason
        listeners, self._listeners = self._listeners, None
        for listener in listeners or ():
            listener()

    def add_listener(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener`` on cancellation; returns a function that removes it."""
        if self._listeners is None:
            self._listeners = []
        self._listeners.append(listener)

        def remove() -> None:
            self.remove_listener(listener)

        return remove

    def remove_listener(self, listener: Callable[[], None]) -> None:
        """Remove ``listener`` (added before); nothing when it is not there."""
        try:
            if self._listeners is not None:
                self._listeners.remove(listener)
        except ValueError:
            pass

    def __repr__(self) -> str:
        return f"CancelSignal(cancelled={self._cancelled})"


def _validate_input(value: object) -> dict[str, Any]:
    return check_json_object(value, "input")


@attrs.frozen
class ToolContext:
    """What the tool receives. Hosts enrich ``state`` (the sanctioned injection point)."""

    cwd: str = "."
    state: Mapping[str, Any] = attrs.field(factory=dict)


NO_TOOL_CONTEXT = ToolContext(".", MappingProxyType({}))
"""Every context's default, shared: its state is read-only (make a ``ToolContext`` of your
own to give a tool state)."""


@attrs.frozen
class Allow:
    pass


@attrs.frozen
class Deny:
    reason: str = attrs.field(validator=attrs.validators.instance_of(str))


@attrs.frozen
class Ask:
    prompt: str = attrs.field(validator=attrs.validators.instance_of(str))


@attrs.frozen
class Modify:
    modified_input: JSONObject = attrs.field(converter=_validate_input)


def _allow() -> Allow:
    return Allow()


def _deny(reason: str) -> Deny:
    return Deny(reason)


def _ask(prompt: str) -> Ask:
    return Ask(prompt)


def _modify(modified_input: JSONObject) -> Modify:
    return Modify(modified_input)


class PermissionCheck:
    """The permission decision type: ``Allow | Deny(reason) | Ask(prompt) | Modify(input)``.

    ``PermissionCheck.allow()`` etc. build decisions; the classes are also reachable as
    ``PermissionCheck.Allow`` … for ``isinstance`` and pattern matching.
    """

    Allow = Allow
    Deny = Deny
    Ask = Ask
    Modify = Modify
    allow = staticmethod(_allow)
    deny = staticmethod(_deny)
    ask = staticmethod(_ask)
    modify = staticmethod(_modify)


Decision = Allow | Deny | Ask | Modify

_ALLOW = Allow()


def _wrong(name: str, expected: object, value: object) -> TypeError:
    """attrs' own words for a field of the wrong type."""
    return TypeError(f"'{name}' must be {expected!r} (got {value!r} that is a "
                     f"{type(value)!r}).")


_DECISIONS = (Allow, Deny, Ask, Modify)


@attrs.frozen
class DispatchContext:
    """One tool call on its way through the pipeline. Rewrite with ``attrs.evolve``."""

    tool_name: str
    input: JSONObject = attrs.field(factory=dict, converter=_validate_input)
    call_id: str = ""
    turn_number: int = 1
    cancel: CancelSignal = attrs.field(factory=CancelSignal)
    permission: Decision = _ALLOW
    tool_context: ToolContext = NO_TOOL_CONTEXT

    def __attrs_post_init__(self) -> None:
        # every field checked in one call (a validator each cost a call each: a quarter of
        # the time to make a context), with attrs' own words
        if not isinstance(self.tool_name, str):
            raise _wrong("tool_name", str, self.tool_name)
        if not isinstance(self.call_id, str):
            raise _wrong("call_id", str, self.call_id)
        if type(self.turn_number) is not int or self.turn_number < 0:
            raise ValueError(f"turn_number must be a non-negative int, got "
                             f"{self.turn_number!r}")
        if not isinstance(self.cancel, CancelSignal):
            raise _wrong("cancel", CancelSignal, self.cancel)
        if not isinstance(self.permission, _DECISIONS):
            raise _wrong("permission", _DECISIONS, self.permission)
        if not isinstance(self.tool_context, ToolContext):
            raise _wrong("tool_context", ToolContext, self.tool_context)
