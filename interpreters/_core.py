"""The part every interpreter shares: the handler table of immediate effects, the store,
events, effect traces, and how failures of user code are classified."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from types import GeneratorType
from typing import Any

from returns.maybe import Maybe
from returns.primitives.container import BaseContainer
from returns.result import Failure, Result, Success

from interpreters import files
from interpreters.stores import MemoryStore, Store
from toolpipe._checks import safe_repr, safe_text
from toolpipe._made import maker
from toolpipe.context import CancelSignal
from toolpipe.effects import (
    AskApproval,
    CacheDelete,
    CacheEpoch,
    CacheGet,
    CacheInvalidate,
    CacheLookup,
    CachePut,
    CallFailure,
    CallModel,
    CallOutcome,
    CallTool,
    Effect,
    Emit,
    FileOp,
    HistoryAppend,
    HistoryGet,
    IsCancelled,
    Now,
    Raised,
    Request,
    RunVerifier,
    SandboxCheck,
    SoftError,
)
from toolpipe.errors import ProgramError, StoreFailed, ToolError
from toolpipe.events import LoggedEvent
from toolpipe.program import culprit
from toolpipe.secrets import SecretPatternSet

log = logging.getLogger("toolpipe.interpreters")
_SCRUB = SecretPatternSet.default_common()


# The one rule: whatever user code raises becomes a failure of its own call (every
# BaseException: SystemExit, GeneratorExit, custom subclasses, a CancelledError nobody asked
# for); only KeyboardInterrupt stops a run, and a backend's own cancellation (the driver
# cancelling a wait it started) unwinds as it must.


_new = object.__new__
_set_inner = vars(BaseContainer)["_inner_value"].__set__  # its slot's own setter (a C call)


def success(value: Any) -> Success[Any]:
    """``Success(value)``, made without its two Python-level constructors (a third of a
    dispatch's fixed cost went to them); equal to it in every way (tests/test_driver_fast)."""
    made = _new(Success)
    _set_inner(made, value)
    return made


_outcome = maker(CallOutcome)


def succeeded(value: Any, duration: float) -> CallOutcome:
    """``CallOutcome(Success(value), duration)``, made the same quick way (the outcome by
    ``toolpipe._made.maker``; ``Success`` is not an attrs class, so it has its own, here
    inlined: one call fewer on every call's way back)."""
    made = _new(Success)
    _set_inner(made, value)
    return _outcome(made, duration)


def failure_of(exc: BaseException) -> Result[Any, CallFailure]:
    """A user callable's exception as a failure value (a panic, or a ToolError soft error)."""
    if isinstance(exc, ToolError):
        return Failure(SoftError(safe_text(exc.message)))
    return Failure(Raised(type(exc).__name__, safe_text(exc)))


def failed(exc: BaseException, duration: float) -> CallOutcome:
    return CallOutcome(failure_of(exc), duration)


def close_quietly(gen: Any) -> None:
    """Close a program; what its ``finally`` raises is logged, never raised over the reason
    it is being closed."""
    try:
        gen.close()
    except KeyboardInterrupt:
        raise
    except BaseException:
        log.exception("a program raised while being closed: %s", culprit(gen))


def in_thread(fn: Callable[..., Any]) -> bool:
    """Whether a user callable (a verifier, a resolver) runs on a worker thread on the
    async interpreters: a plain function does, unless it (or its object) says
    ``inline = True``; coroutine and program functions run on the loop."""
    if getattr(fn, "inline", False) is True or getattr(
            getattr(fn, "__self__", None), "inline", False) is True:
        return False
    return not (inspect.iscoroutinefunction(fn) or inspect.isgeneratorfunction(fn))


def program_of(factory: Callable[[], Any], effect: str) -> Any:
    """Call a scoped effect's body factory; what it gives must be a program."""
    body = factory()
    if type(body) is not GeneratorType:
        raise ProgramError(
            f"{effect} body factory returned {type(body).__name__}, not a program"
        )
    return body


def _entry(obj: Any, method: str, what: str) -> Callable[..., Any]:
    """``obj.method`` when it has one, else ``obj`` itself when it is callable."""
    bound = getattr(obj, method, None)
    if callable(bound):
        return bound  # type: ignore[no-any-return]
    if callable(obj):
        return obj  # type: ignore[no-any-return]
    raise TypeError(f"{obj!r:.60} is not a {what} (no {method}() method)")


def verifier_call(verifier: Any) -> Callable[..., Any]:
    return _entry(verifier, "verify", "verifier")


def model_call(model: Any) -> Callable[..., Any]:
    return _entry(model, "respond", "model")


# --- the meaning of each effect, one table for every driver -----------------------------------
#
# Immediate effects (answered at once, from the store or the clock) are BaseInterpreter's
# ``_immediate`` table. Calls of user code are CALLS: what to call, with which arguments,
# under which cancel signal; each driver invokes it its own way (awaited, in a thread, or
# on the simulated clock) and answers a CallOutcome. WORK is blocking work done by the
# interpreter itself (files), answered as its value. STORE_EFFECTS are the store's:
# immediate for a store that never blocks (``blocking = False``, as MemoryStore), on a worker
# thread under the call's deadline otherwise; a store that raises is thrown into the program
# that asked as ``StoreFailed``. What is left to each driver is control
# (Sleep, WithDeadline, Gather) and processes, which need the driver's own clock and tasks.

Call = tuple[Callable[..., Any], tuple[Any, ...], CancelSignal | None]
STORE_EFFECTS = frozenset({CacheGet, CacheLookup, CachePut, CacheDelete, CacheInvalidate,
                           CacheEpoch, HistoryAppend, HistoryGet})


def store_failed(effect: Any, error: BaseException) -> StoreFailed:
    return StoreFailed(type(effect).__name__, error)


# what each store operation must answer (a user's store that answers junk has failed)
_ANSWERS: dict[type[Any], tuple[tuple[type[Any], ...], str]] = {
    CacheGet: ((Maybe,), "a Maybe"), CachePut: ((bool,), "a bool"),
    CacheInvalidate: ((int,), "an int"), CacheEpoch: ((int,), "an int"),
    HistoryGet: ((tuple,), "a tuple"),
}


def _checked_op(kind: type[Any], op: Callable[[Any], Any]) -> Callable[[Any], Any]:
    expected = _ANSWERS.get(kind)
    if expected is None:
        return op
    types, text = expected

    def checked(effect: Any) -> Any:
        answer = op(effect)
        if not isinstance(answer, types) or (type(answer) is bool and bool not in types):
            raise TypeError(f"the store answered {type(answer).__name__}, not {text}")
        return answer

    return checked


CALLS: dict[type[Any], Callable[[Any], Call]] = {
    CallTool: lambda e: (e.tool.fn, (e.input, e.context), e.cancel),
    RunVerifier: lambda e: (verifier_call(e.verifier), (e.context, e.tool_name, e.input), None),
    AskApproval: lambda e: (e.resolver, (e.prompt, e.tool), None),
    CallModel: lambda e: (model_call(e.model), (e.messages, e.tools), e.cancel),
    Request: lambda e: (e.send, (), e.cancel),
}


def _sandbox_status(_: SandboxCheck) -> str | None:
    from interpreters._processes import sandbox_status

    return sandbox_status()


WORK: dict[type[Any], Callable[[Any], Any]] = {
    FileOp: files.perform,
    SandboxCheck: _sandbox_status,
}


class BaseInterpreter:
    """Immediate effects (answered without waiting) and shared configuration.

    ``on_event`` receives every ``Emit``; with ``collect_events=True`` they are also kept in
    ``events``. With ``record=True`` every effect yielded is appended to ``trace``.
    ``recorder(effect, answer, started, finished)`` is called for every answered effect
    (the async interpreters; see ``interpreters.recording``).
    """

    def __init__(
        self,
        store: Store | None = None,
        *,
        on_event: Callable[[Any], None] | None = None,
        collect_events: bool = False,
        record: bool = False,
        recorder: Callable[[Any, Any, float, float], None] | None = None,
    ) -> None:
        self.store: Store = store if store is not None else MemoryStore()
        self.recorder = recorder
        self.on_event = on_event
        self.events: list[Any] = []
        self._collect = collect_events
        self.trace: list[Effect] | None = [] if record else None
        self._store_ops: dict[type[Any], Callable[[Any], Any]] = {
            CacheGet: lambda e: self.store.get(e.namespace, e.key),
            CachePut: self._put,
            CacheDelete: lambda e: self.store.delete(e.namespace, e.key),
            CacheInvalidate: lambda e: self.store.invalidate(e.namespace, e.paths),
            CacheEpoch: lambda e: self.store.epoch(e.namespace),
            HistoryAppend: lambda e: self.store.append(e.namespace, e.item, e.keep),
            HistoryGet: lambda e: self.store.history(e.namespace),
        }
        store = self.store
        if type(store) is MemoryStore:  # the default: one call each, no checks to pass
            self._store_ops[CacheLookup] = store.lookup
            self._store_ops[CachePut] = store.put_effect
        else:  # a user's store: its answers are checked
            self._store_ops = {kind: _checked_op(kind, op)
                               for kind, op in self._store_ops.items()}
            get, epoch = self._store_ops[CacheGet], self._store_ops[CacheEpoch]
            self._store_ops[CacheLookup] = lambda e: (get(e), epoch(e))  # its fields are theirs
        self._immediate: dict[type[Any], Callable[[Any], Any]] = {
            Now: self._now_effect,
            IsCancelled: lambda e: e.signal.cancelled,
            Emit: self._emit,
            **self._store_ops,
        }

    def _put(self, e: CachePut) -> Any:
        if e.limits is not None and getattr(self.store, "takes_limits", False):
            return self.store.put(e.namespace, e.key, e.value, e.paths,  # type: ignore[call-arg]
                                  e.if_epoch, limits=e.limits)
        return self.store.put(e.namespace, e.key, e.value, e.paths, e.if_epoch)

    def _now_effect(self, _: Now) -> float:
        raise NotImplementedError

    def _emit(self, effect: Emit) -> None:
        event = effect.event
        if isinstance(event, LoggedEvent):
            # the last line of defence: a log line never carries a raw secret
            logging.getLogger(event.logger).log(event.level, "%s",
                                                _SCRUB.redact(event.message()))
        if self._collect:
            self.events.append(effect.event)
        if self.on_event is not None:
            try:
                self.on_event(effect.event)
            except KeyboardInterrupt:
                raise
            except BaseException:  # a broken listener must not break a dispatch
                log.exception("toolpipe event listener failed on %s",
                              safe_repr(effect.event, 200))


def run_process_blocking(effect: Any) -> Any:
    """Run a subprocess synchronously (the simulated interpreter's default)."""
    from interpreters._processes import run_blocking

    return run_blocking(effect)
