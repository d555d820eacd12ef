"""Effect instructions: frozen values a program yields and an interpreter answers.

Every effect documents the answer it receives. Scoped effects carry a *factory* of their
sub-program, never a generator object, so that they can be re-run (retries).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

import attrs
from returns.result import Result

from toolpipe.context import CancelSignal, ToolContext


class Effect:
    """Marker base class of every instruction an interpreter understands."""

    __slots__ = ()


def _non_negative(_: object, attribute: attrs.Attribute[float], value: float) -> None:
    if type(value) not in (int, float) or math.isnan(value) or value < 0:
        raise ValueError(f"{attribute.name} must be a non-negative number, got {value!r}")


def _optional_positive(_: object, attribute: attrs.Attribute[float | None], value: object) -> None:
    if value is None:
        return
    if not isinstance(value, int | float) or isinstance(value, bool) or math.isnan(value) \
            or value <= 0:
        raise ValueError(f"{attribute.name} must be a positive number or None, got {value!r}")


def _argv(value: object) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, list | tuple) or not value:
        raise ValueError(f"argv must be a non-empty list of strings, got {value!r:.60}")
    if not all(isinstance(a, str) for a in value):
        raise ValueError(f"argv must hold strings only, got {value!r:.60}")
    return tuple(value)


# --- answers -------------------------------------------------------------------------------


@attrs.frozen
class Expired:
    """A deadline scope ran out; the body was cancelled."""

    seconds: float


@attrs.frozen
class Interrupted:
    """A scope's cancel signal fired; the body was cancelled."""


ScopeExit = Expired | Interrupted


@attrs.frozen
class Raised:
    """A user callable raised an exception (a "panic")."""

    type_name: str
    message: str


@attrs.frozen
class SoftError:
    """A tool raised ``ToolError``: a soft error with exactly this text."""

    message: str


@attrs.frozen
class CallCancelled:
    """The call's cancel signal fired while it ran (or before it started)."""


@attrs.frozen
class Unsupported:
    """The interpreter cannot run this kind of callable (e.g. a coroutine in the simulator)."""

    message: str


@attrs.frozen
class Busy:
    """The call could not start: the interpreter's worker threads are all held by calls
    abandoned at their deadlines (``message`` says how many)."""

    message: str


CallFailure = Raised | SoftError | CallCancelled | Unsupported | Busy


@attrs.frozen
class CallOutcome:
    """The answer to calling user code: its value or failure, and the time it took."""

    value: Result[Any, CallFailure]
    duration: float


@attrs.frozen
class ProcessResult:
    returncode: int
    stdout: str
    stderr: str


# --- instructions --------------------------------------------------------------------------


@attrs.frozen
class Now(Effect):
    """Answer: the interpreter's clock, in seconds (float)."""


@attrs.frozen
class Sleep(Effect):
    """Answer: None, after ``seconds`` (``math.inf`` sleeps until cancelled)."""

    seconds: float = attrs.field(validator=_non_negative)


@attrs.frozen
class WithDeadline(Effect):
    """Run ``body()`` under a deadline and/or a cancel signal.

    Answer: ``Success(value)``, or ``Failure(Expired | Interrupted)`` after the body was
    cancelled (its generators closed, so ``finally`` blocks run). ``seconds=None`` means no
    deadline. An exception raised by the body is re-raised into the yielding program.
    """

    seconds: float | None = attrs.field(validator=_optional_positive)
    body: Callable[[], Any] = attrs.field(eq=False)
    cancel: CancelSignal | None = None


@attrs.frozen
class IsCancelled(Effect):
    """Answer: whether the signal has fired (cancellation polling)."""

    signal: CancelSignal


@attrs.frozen
class CallTool(Effect):
    """Run a tool's function. Answer: ``CallOutcome``."""

    tool: Any  # toolpipe.registry.Tool (kept loose to avoid an import cycle)
    input: Any
    context: ToolContext
    cancel: CancelSignal | None = None


@attrs.frozen
class RunVerifier(Effect):
    """Run ``verifier.verify(context, tool_name, input)``. Answer: ``CallOutcome``."""

    verifier: Any
    context: ToolContext
    tool_name: str
    input: Any


@attrs.frozen
class AskApproval(Effect):
    """Ask a human through ``resolver(prompt, tool)``. Answer: ``CallOutcome`` (a bool value)."""

    resolver: Callable[..., Any] = attrs.field(eq=False)
    prompt: str
    tool: str


@attrs.frozen
class RunProcess(Effect):
    """Run a subprocess. Answer: ``Result[ProcessResult, str]`` (failure text on timeout).

    ``env``: None runs it with the host's environment; otherwise exactly these variables,
    a value of None copied from the host when set there. ``fds``: (token, data) pairs; each
    data is handed to the process on a descriptor of its own, whose number replaces the
    argv word equal to ``token`` (how bubblewrap reads its seccomp filter). ``contain``:
    the interpreter runs it under a subreaper that stops every process it leaves behind
    (``setsid`` and double forks included) when it ends; False where something else
    contains it already (the sandbox's PID namespace)."""

    argv: tuple[str, ...] = attrs.field(converter=_argv)
    cwd: str
    timeout: float = attrs.field(validator=_non_negative)
    env: tuple[tuple[str, str | None], ...] | None = None
    fds: tuple[tuple[str, bytes], ...] = ()
    contain: bool = True


@attrs.frozen
class SandboxCheck(Effect):
    """Answer: None when the bubblewrap sandbox runs here, else why not (a sentence). The
    interpreter finds out once per process and remembers."""


@attrs.frozen
class CacheGet(Effect):
    """Answer: ``Maybe`` of the stored value."""

    namespace: str
    key: str


@attrs.frozen
class CacheLimits:
    """How a namespace is bounded, sent with each ``CachePut`` (a store that does not take
    limits ignores them; ``MemoryStore`` does). ``size``: this entry's weight in bytes;
    ``age``: its turn; entries whose age is below ``min_age`` have expired and are evicted
    as the turns pass; beyond ``max_entries`` or ``max_bytes``, the least recently used
    entries go first."""

    size: int = 0
    age: int = 0
    min_age: int | None = None
    max_entries: int | None = None
    max_bytes: int | None = None


@attrs.frozen
class CachePut(Effect):
    """Store a value tagged with paths. With ``if_epoch``, only if the namespace's epoch is
    still that value. ``limits`` bound the namespace (see ``CacheLimits``). Answer: whether
    it was stored."""

    namespace: str
    key: str
    value: Any
    paths: frozenset[str] = frozenset()
    if_epoch: int | None = None
    limits: CacheLimits | None = None


@attrs.frozen
class CacheDelete(Effect):
    """Answer: None."""

    namespace: str
    key: str


@attrs.frozen
class CacheInvalidate(Effect):
    """Remove the entries sharing a path with ``paths`` (``None``: every entry) and advance
    the namespace's epoch. Entries stored without paths are removed by any invalidation.
    Answer: how many entries were removed."""

    namespace: str
    paths: frozenset[str] | None


@attrs.frozen
class CacheEpoch(Effect):
    """Answer: the namespace's invalidation epoch (int)."""

    namespace: str


@attrs.frozen
class CacheLookup(Effect):
    """``CacheGet`` and ``CacheEpoch`` in one step (what a cache layer asks before it
    runs a call). Answer: ``(Maybe of the stored value, the namespace's epoch)``."""

    namespace: str
    key: str


@attrs.frozen
class HistoryAppend(Effect):
    """Append to a bounded history, keeping the last ``keep`` items. Answer: None."""

    namespace: str
    item: Any
    keep: int


@attrs.frozen
class HistoryGet(Effect):
    """Answer: the history as a tuple, oldest first."""

    namespace: str


@attrs.frozen
class CallModel(Effect):
    """Ask a model for its next reply: ``model.respond(messages, tools)`` (a plain function,
    coroutine or program). Answer: ``CallOutcome``."""

    model: Any = attrs.field(eq=False)
    messages: tuple[Any, ...]
    tools: tuple[Any, ...]
    cancel: CancelSignal | None = None


@attrs.frozen
class Request(Effect):
    """Send a request to a service through the user's own client: ``send()`` (a plain call
    or a coroutine; an SDK method bound to its arguments). The model adapters use it, so
    the request is performed by the interpreter, never by toolpipe. Answer:
    ``CallOutcome``."""

    send: Callable[[], Any] = attrs.field(eq=False)
    label: str = ""
    cancel: CancelSignal | None = None
    blocking: bool = True
    """``send()`` may block (a synchronous client): the async interpreters call it on a
    worker thread. False: it returns at once (it makes a coroutine, or the client is
    asynchronous), so it is called on the event loop, without a thread hop."""


def _bodies(value: Iterable[Callable[[], Any]]) -> tuple[Callable[[], Any], ...]:
    return tuple(value)


def _limit(_: object, attribute: attrs.Attribute[int | None], value: object) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{attribute.name} must be a positive int or None, got {value!r}")


@attrs.frozen
class Gather(Effect):
    """Run the programs ``bodies()`` concurrently, at most ``limit`` at a time (None: all),
    started in order.

    Answer: a tuple with one ``Result`` per body, in the bodies' order: ``Success(value)``,
    or ``Failure(exception)`` when that body raised (or its factory did not give a
    program). A body's failure never disturbs its siblings. If the gathering program is
    cancelled (a deadline or signal around it), every running body is cancelled too.
    """

    bodies: tuple[Callable[[], Any], ...] = attrs.field(converter=_bodies, eq=False)
    limit: int | None = attrs.field(default=None, validator=_limit)


FILE_OPS = ("read", "write", "list", "walk", "resolve", "stamp", "stamp_tree")


@attrs.frozen
class FileOp(Effect):
    """A file operation confined to the workspace folder ``root``.

    ``read`` answers the text; ``write`` writes ``data`` (creating parent folders) and
    answers the number of characters; ``list`` answers ``(name, kind, size)`` tuples of a
    folder, sorted; ``walk`` answers the relative paths of the files under a folder, sorted
    (a file answers one empty path: itself); ``resolve`` answers the real path, symlinks
    followed (what does not exist yet resolves lexically); ``stamp`` answers a fingerprint
    (a hex string) of what the path shows now: the stat (device, inode, mode, size, mtime,
    ctime) of the path, of what its links lead to, of a folder's entries, and the content
    digest of a file changed in the last two seconds (a timestamp that coarse may not move
    on a second write); ``stamp_tree`` the same for every entry below a folder. Two equal
    stamps mean nothing there changed in between; a path that does not exist has a stamp
    too. A memo entry keeps the stamps of what it read and is served only while they hold.
    ``write`` is atomic: a temporary file beside the target, renamed over it (keeping its
    mode), so a concurrent ``read`` sees the old text or the new, never a partial one.
    Answer: ``Result[value, str]``, the failure a sentence for the model (not found, not a
    file, escapes the workspace through ``..`` or a symlink, ...).
    """

    op: str = attrs.field(validator=attrs.validators.in_(FILE_OPS))
    root: str
    path: str
    data: str | None = None
    hard_links: bool = False
    """Read a file that has more than one hard link (off by default: one of its other
    names may be outside the workspace)."""


@attrs.frozen
class Emit(Effect):
    """Emit a trace event to the interpreter's listeners. Answer: None."""

    event: Any
