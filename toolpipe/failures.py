"""Why a call failed, as a value: the cause a soft-error ``DispatchResult`` carries.

Whoever decides sets the cause (the core, a layer, the engine); whoever reads a result (the
command line, replay, the unknown_tool layer) reads the cause, never the text. The text the
model reads comes from the cause through one function, :func:`render`.
"""

from __future__ import annotations

import attrs

from toolpipe._checks import seconds_text


@attrs.frozen
class Denied:
    """The permission layer refused: ``reason`` as in ``Permission {reason} for tool 'X'``
    (``by_user``: a person said no)."""

    tool: str
    reason: str
    by_user: bool = False


@attrs.frozen
class Blocked:
    """The safety shield blocked the call."""

    tool: str
    reason: str
    score: float


@attrs.frozen
class TimedOut:
    """A deadline expired: the timeout layer's, or the engine's backstop (``engine``)."""

    tool: str
    seconds: float
    engine: bool = False


@attrs.frozen
class Cancelled:
    """The call was cancelled before it finished (or before it started)."""

    tool: str


@attrs.frozen
class NotFound:
    """No tool of that name; ``available`` as listed to the model, ``suggestion`` the
    did-you-mean text appended (empty when none was close)."""

    tool: str
    available: tuple[str, ...]
    suggestion: str = ""


@attrs.frozen
class Invalid:
    """The model's tool call itself was malformed (bad id, name or input)."""

    tool: str
    problem: str


@attrs.frozen
class Panicked:
    """The tool raised an exception that is not a ``ToolError``."""

    tool: str
    message: str


@attrs.frozen
class ToolFailed:
    """The tool reported a failure for the model to read (a ``ToolError``, a tool that
    cannot run here, or one that returned a type toolpipe cannot show)."""

    tool: str
    message: str


@attrs.frozen
class BadReturn:
    """A component returned something toolpipe cannot use: a tool's value that is not text
    or content, a layer's program that did not return a ``DispatchResult``."""

    tool: str
    component: str
    got: str
    expected: str


@attrs.frozen
class ComponentFailed:
    """Something other than the tool failed while the call ran: a layer (by name), the
    cache store, the pipeline itself. ``error`` is ``Type: message``."""

    tool: str
    component: str
    error: str


@attrs.frozen
class Overloaded:
    """The call could not start: every worker thread is held by a call abandoned at its
    deadline (see ``interpreters.workers``)."""

    tool: str
    message: str


@attrs.frozen
class NoResult:
    """The pipeline ended without a result (a layer that lost it)."""

    tool: str


@attrs.frozen
class AwaitingApproval:
    """A layer asked a person and the resolver deferred the question
    (``toolpipe.approvals.DEFER``): the call did not run; the run stops here and resumes
    with the person's decision (``Agent.resume``)."""

    tool: str
    prompt: str
    layer: str


Cause = (Denied | Blocked | TimedOut | Cancelled | NotFound | Invalid | Panicked
         | ToolFailed | BadReturn | ComponentFailed | Overloaded | NoResult
         | AwaitingApproval)
NO_RESULT = "dispatch produced no result"


def available_text(available: tuple[str, ...]) -> str:
    shown = ", ".join(available[:10]) if available else "(none)"
    more = len(available) - 10
    return shown + (f" … and {more} more" if more > 0 else "")


def render(cause: Cause) -> str:
    """The text the model reads for a failure (every failure text comes from here)."""
    tool = cause.tool
    if isinstance(cause, Denied):
        if cause.by_user:
            return f"Permission denied by user for tool '{tool}'"
        return f"Permission {cause.reason} for tool '{tool}'"
    if isinstance(cause, Blocked):
        return f"blocked by safety shield: {cause.reason}"
    if isinstance(cause, TimedOut):
        suffix = " (the engine's call deadline)" if cause.engine else ""
        return f"Tool '{tool}' timed out after {seconds_text(cause.seconds)}s{suffix}"
    if isinstance(cause, Cancelled):
        return f"Tool '{tool}' cancelled"
    if isinstance(cause, NotFound):
        return (f"Tool not found: {tool}. Available: {available_text(cause.available)}"
                f"{cause.suggestion}")
    if isinstance(cause, Invalid):
        return f"Invalid tool call: {cause.problem}"
    if isinstance(cause, Panicked):
        return f"Tool '{tool}' panicked: {cause.message or '(unknown payload)'}"
    if isinstance(cause, ToolFailed):
        return cause.message
    if isinstance(cause, BadReturn):
        if cause.component == "tool":
            return (f"Tool '{tool}' returned an unsupported type: {cause.got} "
                    f"(expected {cause.expected})")
        return (f"Tool '{tool}' failed: {cause.component} returned {cause.got}, "
                f"not {cause.expected}")
    if isinstance(cause, ComponentFailed):
        return f"Tool '{tool}' failed: {cause.component} raised {cause.error}"
    if isinstance(cause, Overloaded):
        return f"Tool '{tool}' could not start: {cause.message}"
    if isinstance(cause, AwaitingApproval):
        return f"Tool '{tool}' awaits a person's approval: {cause.prompt}"
    return NO_RESULT


def verdict(cause: Cause | None) -> str:
    """A one-word verdict of a failure (``error`` for a tool's own failure)."""
    return {Denied: "denied", Blocked: "blocked", TimedOut: "timed out",
            NotFound: "unknown tool", Invalid: "invalid",
            AwaitingApproval: "awaiting approval"}.get(type(cause), "error")
