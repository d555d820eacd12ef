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

from interpreters._core import CALLS, USER_ERRORS, WORK, BaseInterpreter, failed, program_of
from interpreters.recording import ABANDONED
from toolpipe.context import CancelSignal
from toolpipe.effects import (
    CallCancelled,
    CallOutcome,
    CallTool,
    Effect,
    Expired,
    Gather,
    Interrupted,
    ProcessResult,
    Request,
    RunProcess,
    ScopeExit,
    Sleep,
    WithDeadline,
)
from toolpipe.errors import ProgramError
from toolpipe.program import Program, not_an_effect

R = TypeVar("R")


class Exited(Exception):
    """A worker thread's SystemExit or GeneratorExit, carried back as an ordinary error
    (raised into a task, those would end the run)."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


class Interruption(Exception):
    """Raised by a backend's ``_cancellable`` when the watched signal fired."""


class AsyncInterpreter(BaseInterpreter):
    """Backend-neutral driver; subclasses implement the abstract coroutines below."""

    def _clock(self) -> float:
        raise NotImplementedError

    def _now_effect(self, _: object) -> float:
        return self._clock()

    async def _sleep(self, seconds: float) -> None:
        raise NotImplementedError

    async def _cancellable(
        self, make: Callable[[], Awaitable[Any]], signal: CancelSignal | None,
        deadline: float | None,
    ) -> Any:
        """Await ``make()`` under an absolute ``deadline`` (None: no new timer) and a signal.

        Returns its value; returns ``_EXPIRED`` when this deadline fired; raises
        ``Interruption`` when the signal fired. Other exceptions propagate.
        """
        raise NotImplementedError

    async def _in_thread(self, fn: Callable[..., Any], *args: Any) -> Any:
        raise NotImplementedError

    async def _process(self, effect: RunProcess) -> Result[ProcessResult, str]:
        raise NotImplementedError

    async def _run_workers(self, workers: list[Callable[[], Coroutine[Any, Any, None]]]) -> None:
        """Run the coroutines concurrently; return when all are done. Cancelling the caller
        cancels them all."""
        raise NotImplementedError

    # --- public API ----------------------------------------------------------------------

    async def run(self, program: Program[R]) -> R:
        """Run a program to completion on the current event loop."""
        if type(program) is not GeneratorType:
            raise ProgramError(
                f"run() expects a program (a generator), got {type(program).__name__}"
            )
        return await self._drive(program, None)  # type: ignore[no-any-return]

    # --- the loop --------------------------------------------------------------------------

    async def _drive(self, gen: Any, deadline: float | None) -> Any:
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
                handler = immediate.get(kind)
                if handler is not None:
                    value = handler(eff)
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
                        thread = (kind is CallTool and eff.tool.kind == "function" and (
                            not eff.tool.inline)) or kind is Request  # a sync client blocks
                        value = await self._invoke(fn, args, cancel, deadline, thread=thread)
                    elif work is not None:
                        value = await self._in_thread(work, eff)
                    elif kind is Sleep:
                        await self._sleep(eff.seconds)
                        value = None
                    elif kind is WithDeadline:
                        value = await self._scope(eff, deadline)
                    elif kind is RunProcess:
                        value = await self._process(eff)
                    elif kind is Gather:
                        value = await self._gather(eff, deadline)
                    elif isinstance(eff, Effect):
                        value, throw = None, ProgramError(f"no handler for {eff!r:.80}")
                    else:
                        value, throw = None, not_an_effect(gen, eff)
                except Exception as error:  # a scope body raised: re-raise it in the program
                    value, throw = None, error
                except BaseException:
                    if rec is not None:  # cut off by a deadline or a cancellation
                        rec(eff, ABANDONED, started, self._clock())
                    raise
                if rec is not None:
                    rec(eff, value if throw is None else Failure(throw), started, self._clock())
        except BaseException:
            gen.close()
            raise

    async def _scope(self, eff: WithDeadline, deadline: float | None) -> Result[Any, ScopeExit]:
        signal = eff.cancel
        if signal is not None and signal.cancelled:
            return Failure(Interrupted())
        body = program_of(eff.body, "WithDeadline")
        new_deadline = None
        if eff.seconds is not None:
            due = self._clock() + eff.seconds
            if deadline is None or due < deadline:  # only a tightening deadline arms a timer
                new_deadline = due
        if new_deadline is None and signal is None:
            return Success(await self._drive(body, deadline))
        inner = new_deadline if new_deadline is not None else deadline
        try:
            out = await self._cancellable(lambda: self._drive(body, inner), signal, new_deadline)
        except Interruption:
            return Failure(Interrupted())
        finally:
            body.close()
        if out is _EXPIRED:
            return Failure(Expired(eff.seconds))  # type: ignore[arg-type]
        return Success(out)

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
        except Exception as error:
            return Failure(error)

    async def _invoke(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        signal: CancelSignal | None,
        deadline: float | None,
        *,
        thread: bool = False,
    ) -> CallOutcome:
        """Call user code, on the loop or (``thread``) in a worker thread; what it returns
        is handled the same way either way (a program is driven, an awaitable awaited)."""
        if signal is not None and signal.cancelled:
            return CallOutcome(Failure(CallCancelled()), 0.0)
        start = self._clock()
        try:
            if thread:
                out = await self._guard(lambda: self._in_thread(fn, *args), signal)
            else:
                out = fn(*args)
            if type(out) is str:  # the common case: a plain tool's text, nothing to await
                return CallOutcome(Success(out), self._clock() - start)
            if type(out) is GeneratorType:
                program = out
                out = await self._guard(lambda: self._drive(program, deadline), signal)
            elif inspect.isawaitable(out):
                awaitable = out
                out = await self._guard(lambda: self._detached(awaitable), signal)
        except Interruption:
            return CallOutcome(Failure(CallCancelled()), self._clock() - start)
        except Exited as exited:
            return failed(exited.error, self._clock() - start)
        except USER_ERRORS as error:
            return failed(error, self._clock() - start)
        return CallOutcome(Success(out), self._clock() - start)

    async def _detached(self, awaitable: Awaitable[Any]) -> Any:
        """Await a tool's awaitable; a backend may run it apart so that an abandoned one
        cannot hold its caller (asyncio does; trio's cancellation already reaches every
        checkpoint of the tool)."""
        return await awaitable

    async def _guard(self, make: Callable[[], Awaitable[Any]], signal: CancelSignal | None) -> Any:
        if signal is None:
            return await make()
        return await self._cancellable(make, signal, None)


class _Expired:
    def __repr__(self) -> str:
        return "<expired>"


_EXPIRED: Any = _Expired()
