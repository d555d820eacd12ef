"""The stepping loop shared by the asyncio and trio interpreters.

One coroutine drives a whole program: effects pass up the ``yield from`` chain of the layers
to this loop, so there is no task per layer. Only scopes (deadlines, cancel signals) and
program-valued tools recurse into a nested drive; backends supply time, sleeping, scopes
and threads.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine
from types import GeneratorType
from typing import Any, TypeVar

from returns.result import Failure, Result, Success

from interpreters import _processes as processes
from interpreters import files
from interpreters._core import (
    CALLS,
    STORE_EFFECTS,
    WORK,
    BaseInterpreter,
    close_quietly,
    failed,
    in_thread,
    program_of,
    store_failed,
    succeeded,
)
from interpreters.recording import ABANDONED
from interpreters.stores import Store
from interpreters.workers import POOL, PoolExhausted, WorkerPool
from toolpipe._checks import safe_repr
from toolpipe.context import CancelSignal
from toolpipe.effects import (
    AskApproval,
    Busy,
    CallCancelled,
    CallOutcome,
    CallTool,
    Effect,
    Expired,
    FileOp,
    Gather,
    Interrupted,
    ProcessResult,
    Request,
    RunProcess,
    RunVerifier,
    ScopeExit,
    Sleep,
    WithDeadline,
)
from toolpipe.errors import ProgramError
from toolpipe.program import Program, not_an_effect

R = TypeVar("R")


class Carried(Exception):
    """What a worker thread's function raised, carried back as an ordinary error: raised
    as itself into a task, a SystemExit would end the run and a StopIteration would
    become a RuntimeError."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(f"{type(error).__name__} in a worker thread")
        self.error = error


def unwrap(outcome: tuple[bool, Any]) -> Any:
    """A worker's outcome as the caller sees it: the value, KeyboardInterrupt as itself
    (it stops the run), anything else ``Carried``."""
    ok, value = outcome
    if ok:
        return value
    if isinstance(value, KeyboardInterrupt):
        raise value
    raise Carried(value)


class Interruption(Exception):
    """Raised by a backend's ``_cancellable`` when the watched signal fired."""


_THREADED_CALLS = (RunVerifier, AskApproval)


class AsyncInterpreter(BaseInterpreter):
    """Backend-neutral driver; subclasses implement the abstract coroutines below.

    ``pool``: the worker threads for blocking work (``interpreters.workers.POOL``, shared by
    the process, unless given). Other options as ``BaseInterpreter``.
    """

    def __init__(self, store: Store | None = None, *, pool: WorkerPool | None = None,
                 **options: Any) -> None:
        super().__init__(store, **options)
        if pool is not None and not isinstance(pool, WorkerPool):
            raise TypeError(f"pool must be a WorkerPool, got {type(pool).__name__}")
        self.pool = pool if pool is not None else POOL
        # the deadlines a tool's answer came at or after (see ``_came``): their scopes
        # expire when their bodies end, whatever the body did with the late answer
        self._late: set[float] = set()
        self._blocking_store: dict[type[Any], Callable[[Any], Any]] = {}
        if getattr(self.store, "blocking", True) is not False:  # off the loop
            for kind in STORE_EFFECTS:
                self._blocking_store[kind] = self._immediate.pop(kind)

    def _is_cancellation(self, error: BaseException) -> bool:
        """Whether ``error`` is the backend cancelling a wait this driver started (it must
        unwind), rather than something user code raised (a failure of its call)."""
        raise NotImplementedError

    def _unwinds(self, error: BaseException) -> bool:
        """What passes through every frame: KeyboardInterrupt and the backend's own
        cancellation. Anything else is a failure of the call that raised it."""
        return isinstance(error, KeyboardInterrupt) or self._is_cancellation(error)

    def _clock(self) -> float:
        raise NotImplementedError

    def _now_effect(self, _: object) -> float:
        return self._clock()

    def _stopwatch(self) -> float:
        """What a call's duration is measured with (the clock, unless a cheaper one reads
        the same time)."""
        return self._clock()

    async def _sleep(self, seconds: float) -> None:
        raise NotImplementedError

    async def _cancellable(
        self, waiting: Awaitable[Any], signal: CancelSignal | None,
        deadline: float | None,
    ) -> Any:
        """Await ``waiting`` under an absolute ``deadline`` (None: no new timer) and a
        signal; ``waiting`` is closed unawaited if the wait ends before it starts.

        Returns its value; returns ``_EXPIRED`` when this deadline fired; raises
        ``Interruption`` when the signal fired. Other exceptions propagate.
        """
        raise NotImplementedError

    async def _in_thread(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on ``self.pool``: its value; ``Carried`` for what it raised;
        ``PoolExhausted`` when every worker is stuck. A cancelled wait abandons the job."""
        raise NotImplementedError

    async def _process(self, effect: RunProcess) -> Result[ProcessResult, str]:
        raise NotImplementedError

    async def _prepared(self, effect: RunProcess) -> tuple[list[str], dict[str, Any], list[int]]:
        """``processes.prepare(effect)``, the sandbox's masks found on a worker: finding
        them runs ``find`` over the system folders (milliseconds each call, a large part
        of a second the first time), which must not stall the loop and every other call
        on it. A full pool or a failure there: found here, as before."""
        masks: tuple[str, ...] | None = None
        if processes.ROOT_MASKS in effect.argv:
            try:
                masks = await self._in_thread(processes.root_masks)
            except (Carried, PoolExhausted):
                masks = None
        return processes.prepare(effect, masks)

    async def _run_workers(self, workers: list[Callable[[], Coroutine[Any, Any, None]]]) -> None:
        """Run the coroutines concurrently; return when all are done. Cancelling the caller
        cancels them all."""
        raise NotImplementedError

    # --- public API ----------------------------------------------------------------------

    def run(self, program: Program[R]) -> Coroutine[Any, Any, R]:
        """Run a program to completion on the current event loop: ``await
        interpreter.run(program)``. (The driver's own coroutine: no frame of its own per
        run.)"""
        if type(program) is not GeneratorType:
            return _raises(ProgramError(
                f"run() expects a program (a generator), got {type(program).__name__}"))
        return self._drive(program, None)

    # --- the loop --------------------------------------------------------------------------

    async def _drive(self, gen: Any, deadline: float | None,
                     watched: CancelSignal | None = None) -> Any:
        """Run ``gen`` to its end. ``deadline``: the innermost one in force; ``watched``: the
        signal an enclosing scope of this task already watches (a call or scope under it
        needs no watch of its own: when it fires, that scope ends, as it would first)."""
        immediate = self._immediate
        trace = self.trace
        rec = self.recorder
        value: Any = None
        throw: BaseException | None = None
        try:
            while True:
                try:
                    if throw is None:
                        eff = gen.send(value)
                    else:
                        error, throw = throw, None
                        eff = gen.throw(error)
                except StopIteration as stop:
                    return stop.value
                if trace is not None:
                    trace.append(eff)
                kind = type(eff)
                if kind is CallTool and rec is None and (
                        eff.tool.inline or eff.tool.kind != "function"):
                    # the common case, on the loop: no coroutine of its own unless the
                    # tool's answer is awaited
                    signal = eff.cancel
                    if signal is not None and signal._cancelled:  # (its property, uncalled)
                        value = CallOutcome(Failure(CallCancelled()), 0.0)
                        continue
                    stopwatch = self._stopwatch
                    start = stopwatch()
                    try:
                        out = eff.tool.fn(eff.input, eff.context)
                    except BaseException as error:
                        value = self._call_failed(error, start, deadline)
                        continue
                    if type(out) is str:
                        value = succeeded(out, self._came(start, deadline))
                    else:
                        value = await self._settle(out, start, signal, deadline, watched)
                    continue
                handler = immediate.get(kind)
                if handler is not None:
                    try:
                        value = handler(eff)
                    except KeyboardInterrupt:
                        raise
                    except BaseException as error:  # a store's fault: the asking call's
                        value, throw = None, store_failed(eff, error)
                    if rec is not None:
                        now = self._clock()
                        rec(eff, value, now, now)
                    continue
                started = self._clock() if rec is not None else 0.0
                try:
                    call = CALLS.get(kind)
                    work = WORK.get(kind)
                    if call is not None:
                        fn, args, cancel = call(eff)
                        if kind is CallTool:
                            thread = eff.tool.kind == "function" and not eff.tool.inline
                        else:  # a sync client, verifier or resolver may block
                            thread = (kind is Request and eff.blocking) or (
                                kind in _THREADED_CALLS and in_thread(fn))
                        value = await self._invoke(fn, args, cancel, deadline, thread=thread,
                                                   watched=watched)
                    elif kind in self._blocking_store:
                        value = await self._store_call(eff)
                    elif work is not None:
                        value = await self._work(work, eff)
                    elif kind is Sleep:
                        await self._sleep(eff.seconds)
                        value = None
                    elif kind is WithDeadline:
                        opened = self._open_scope(eff, deadline, watched)
                        if type(opened) is tuple:
                            body, waiting = opened
                            try:
                                out = await waiting
                            except Interruption:
                                out = _INTERRUPTED
                            finally:
                                close_quietly(body)
                            if out is _EXPIRED:
                                value = Failure(Expired(eff.seconds))
                            elif out is _INTERRUPTED:
                                value = Failure(Interrupted())
                            else:
                                value = Success(out)
                        else:
                            value = opened
                    elif kind is RunProcess:
                        value = await self._process(eff)
                    elif kind is Gather:
                        value = await self._gather(eff, deadline)
                    elif isinstance(eff, Effect):
                        value, throw = None, ProgramError(f"no handler for {eff!r:.80}")
                    else:
                        value, throw = None, not_an_effect(gen, eff)
                except BaseException as error:
                    if self._unwinds(error):
                        if rec is not None:  # cut off by a deadline or a cancellation
                            rec(eff, ABANDONED, started, self._clock())
                        raise
                    value, throw = None, error  # a scope body raised: raise it in the program
                if rec is not None:
                    if kind is CallTool and deadline is not None and deadline in self._late:
                        # its answer came after its deadline: the pipeline never used it,
                        # and a replay, whose layers take no time, must not either
                        rec(eff, ABANDONED, started, self._clock())
                    else:
                        rec(eff, value if throw is None else Failure(throw), started,
                            self._clock())
        except BaseException:
            close_quietly(gen)
            raise

    async def _store_call(self, eff: Any) -> Any:
        """A blocking store's operation, on a worker under the call's deadline."""
        try:
            return await self._in_thread(self._blocking_store[type(eff)], eff)
        except Carried as carried:
            raise store_failed(eff, carried.error) from None
        except PoolExhausted as full:
            raise store_failed(eff, full) from None

    async def _work(self, work: Callable[[Any], Any], eff: Any) -> Any:
        """The interpreter's own blocking work (files): ``Result`` answers as they are; a
        full pool is the answer's failure, a fault of the work is raised in the program.
        File work of a few system calls (a path resolved or stamped, a small file read) is
        answered on the loop: a thread hop costs ten times as much (``files.perform_quick``,
        which says which)."""
        if type(eff) is FileOp:
            quick = files.perform_quick(eff)
            if quick is not None:
                return quick
        try:
            return await self._in_thread(work, eff)
        except PoolExhausted as full:
            return Failure(str(full))
        except Carried as carried:
            raise ProgramError(f"{type(eff).__name__} failed: "
                               f"{safe_repr(carried.error, 200)}") from None

    def _open_scope(self, eff: WithDeadline, deadline: float | None,
                    watched: CancelSignal | None
                    ) -> Result[Any, ScopeExit] | tuple[Any, Awaitable[Any]]:
        """A scope's answer when it needs no wait (its signal fired already), else its body
        and what to await: the body's drive, under a watch when the scope tightens the
        deadline or brings a signal no scope around it watches. (No coroutine of its own:
        ``_drive`` awaits it and makes the answer from what the wait ended with.)"""
        signal = eff.cancel
        if signal is not None and signal.cancelled:
            return Failure(Interrupted())
        body = program_of(eff.body, "WithDeadline")
        new_deadline = None
        if eff.seconds is not None:
            due = self._clock() + eff.seconds
            if deadline is None or due < deadline:  # only a tightening deadline arms a timer
                new_deadline = due
        if signal is watched:  # already watched by a scope around this one
            signal = None
        if new_deadline is None and signal is None:
            return body, self._drive(body, deadline, watched)
        inner = new_deadline if new_deadline is not None else deadline
        return body, self._cancellable(self._drive(body, inner, signal or watched), signal,
                                       new_deadline)

    async def _gather(self, eff: Gather, deadline: float | None) -> tuple[Any, ...]:
        bodies = eff.bodies
        results: list[Any] = [None] * len(bodies)
        slots = iter(range(len(bodies)))

        async def worker() -> None:
            for i in slots:  # workers share one iterator: bodies start in order
                results[i] = await self._body(bodies[i], deadline)

        width = min(eff.limit or len(bodies), len(bodies))
        if width:
            await self._run_workers([worker] * width)
        return tuple(results)

    async def _body(self, factory: Callable[[], Any], deadline: float | None) -> Any:
        try:
            return Success(await self._drive(program_of(factory, "Gather"), deadline))
        except BaseException as error:  # a body's fault is its own slot's answer
            if self._unwinds(error):
                raise
            return Failure(error)

    async def _invoke(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        signal: CancelSignal | None,
        deadline: float | None,
        *,
        thread: bool = False,
        watched: CancelSignal | None = None,
    ) -> CallOutcome:
        """Call user code, on the loop or (``thread``) in a worker thread; what it returns
        is handled the same way either way (a program is driven, an awaitable awaited)."""
        if signal is not None and signal.cancelled:
            return CallOutcome(Failure(CallCancelled()), 0.0)
        start = self._stopwatch()
        try:
            if thread:
                if signal is None or signal is watched:  # (a scope around it watches it)
                    waiting: Awaitable[Any] = self._in_thread(fn, *args)
                else:
                    waiting = self._cancellable(self._in_thread(fn, *args), signal, None)
                out = await waiting
            else:
                out = fn(*args)
        except BaseException as error:
            return self._call_failed(error, start, deadline)
        if type(out) is str:  # the common case: a plain tool's text, nothing to await
            return succeeded(out, self._came(start, deadline))
        return await self._settle(out, start, signal, deadline, watched)

    async def _settle(self, out: Any, start: float, signal: CancelSignal | None,
                      deadline: float | None, watched: CancelSignal | None) -> CallOutcome:
        """The outcome of a call whose function answered ``out``: a program is driven, an
        awaitable awaited (under the call's signal, unless a scope around it watches it)."""
        if signal is watched:
            signal = None
        try:
            if type(out) is GeneratorType:
                waiting: Awaitable[Any] = self._drive(out, deadline, signal or watched)
                out = await (waiting if signal is None
                             else self._cancellable(waiting, signal, None))
            elif inspect.isawaitable(out):
                waiting = self._awaiting(out)
                out = await (waiting if signal is None
                             else self._cancellable(waiting, signal, None))
        except BaseException as error:
            return self._call_failed(error, start, deadline)
        return succeeded(out, self._came(start, deadline))

    def _came(self, start: float, deadline: float | None) -> float:
        """The duration of a tool's run that answers now. An answer at or after the
        deadline in force is late (a tool that held the loop, or one whose answer was
        taken before the timer could run): its scope expires when its body ends. Only a
        tool's answer is timed so, not the layers' own work around it, which takes no time
        on the simulated clock: a recording replays as it ran."""
        now = self._stopwatch()
        if deadline is not None and now >= deadline:
            self._late.add(deadline)
        return now - start

    def _call_failed(self, error: BaseException, start: float,
                     deadline: float | None = None) -> CallOutcome:
        """What user code raised, as its call's outcome (raised on: what unwinds)."""
        if isinstance(error, Interruption):
            return CallOutcome(Failure(CallCancelled()), self._stopwatch() - start)
        if self._unwinds(error):
            raise error
        took = self._came(start, deadline)
        if isinstance(error, Carried):
            return failed(error.error, took)
        if isinstance(error, PoolExhausted):
            return CallOutcome(Failure(Busy(str(error))), took)
        return failed(error, took)

    def _awaiting(self, awaitable: Awaitable[Any]) -> Awaitable[Any]:
        """How a tool's awaitable is awaited: as it is here (trio's cancellation reaches
        every checkpoint of the tool); asyncio steps it so that a tool that swallows its
        cancellation cannot hold its caller."""
        return awaitable


def close_unstarted(waiting: Awaitable[Any]) -> None:
    """Close what a wait was to await (a coroutine never started warns when collected)."""
    close = getattr(waiting, "close", None)
    if close is not None:
        close()


async def _raises(error: BaseException) -> Any:
    raise error


class _Expired:
    def __repr__(self) -> str:
        return "<expired>"


_EXPIRED: Any = _Expired()
_INTERRUPTED: Any = object()  # a scope's wait ended by its signal
