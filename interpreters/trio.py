"""The trio interpreter (``pip install toolpipe[trio]``).

Deadlines are ``trio.CancelScope`` deadlines, armed only when they tighten the current one;
cancel signals cancel a scope through the trio token, so they may fire from any thread.
"""

from __future__ import annotations

import math
import signal
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import outcome
import trio
from returns.result import Result

from interpreters import _processes as processes
from interpreters._async import (
    _EXPIRED,
    AsyncInterpreter,
    Interruption,
    close_unstarted,
    unwrap,
)
from toolpipe.context import CancelSignal
from toolpipe.effects import ProcessResult, RunProcess
from toolpipe.program import Program

R = TypeVar("R")

__all__ = ["TrioInterpreter", "run"]


class TrioInterpreter(AsyncInterpreter):
    """``await TrioInterpreter().run(pipeline.dispatch(ctx))`` inside ``trio.run``."""

    def _clock(self) -> float:
        return trio.current_time()

    def _is_cancellation(self, error: BaseException) -> bool:
        return isinstance(error, trio.Cancelled)

    async def _sleep(self, seconds: float) -> None:
        await trio.sleep(seconds)

    async def _cancellable(
        self, waiting: Awaitable[Any], signal: CancelSignal | None,
        deadline: float | None,
    ) -> Any:
        token = trio.lowlevel.current_trio_token()
        out: Any = _EXPIRED
        try:
            with trio.CancelScope(deadline=math.inf if deadline is None else deadline
                                  ) as timed:
                with trio.CancelScope() as watched:

                    def on_signal() -> None:
                        try:
                            token.run_sync_soon(watched.cancel)
                        except trio.RunFinishedError:
                            pass

                    remove = signal.add_listener(on_signal) if signal is not None else None
                    try:
                        out = await waiting
                    finally:
                        close_unstarted(waiting)  # when the wait ended before it began
                        if remove is not None:
                            remove()
                # a body that swallowed its cancellation and returned: its value is late
                if watched.cancel_called:
                    raise Interruption()
            # (a tool's answer at or after the deadline is late: see asyncio's)
            late = deadline is not None and deadline in self._late
        finally:
            if deadline is not None:
                self._late.discard(deadline)
        return _EXPIRED if timed.cancel_called or late else out

    async def _in_thread(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on the pool (not trio's own thread limiter, whose abandoned threads
        would hold its 40 tokens for ever): the task sleeps until the worker reschedules it;
        a cancellation abandons the job at once."""
        task = trio.lowlevel.current_task()
        token = trio.lowlevel.current_trio_token()
        waiting = [True]

        def wake(result: tuple[bool, Any]) -> None:
            if waiting[0]:
                waiting[0] = False
                trio.lowlevel.reschedule(task, outcome.Value(result))

        def deliver(result: tuple[bool, Any]) -> None:
            try:
                token.run_sync_soon(wake, result)
            except trio.RunFinishedError:  # the run has ended: nobody is waiting any more
                pass

        await trio.lowlevel.checkpoint_if_cancelled()
        job = self.pool.submit(fn, args, deliver)

        def abort(_: Any) -> trio.lowlevel.Abort:
            waiting[0] = False
            self.pool.abandon(job)
            return trio.lowlevel.Abort.SUCCEEDED

        result = await trio.lowlevel.wait_task_rescheduled(abort)
        return unwrap(result)

    async def _run_workers(self, workers: list[Callable[[], Coroutine[Any, Any, None]]]) -> None:
        try:
            async with trio.open_nursery() as nursery:
                for worker in workers:
                    nursery.start_soon(worker)
        except BaseExceptionGroup as group:
            # a KeyboardInterrupt inside must reach the caller as itself, not in a group
            interrupt = group.subgroup(KeyboardInterrupt)
            if interrupt is not None:
                raise _first(interrupt) from group
            raise

    async def _process(self, effect: RunProcess) -> Result[ProcessResult, str]:
        """In its own process group, output read as it comes (capped), the group stopped
        on a timeout or a cancellation (see ``interpreters._processes``)."""
        argv, options, opened = await self._prepared(effect)
        try:
            proc = await trio.lowlevel.open_process(argv, cwd=effect.cwd, **options)
        except OSError as exc:
            return processes.could_not_run(effect, exc)
        finally:
            processes.close_all(opened)
        out, err = processes.Capped(), processes.Capped()

        async def drain(stream: Any, into: processes.Capped) -> None:
            while chunk := await stream.receive_some(processes.CHUNK):
                into.add(chunk)

        async def ended(proc: Any) -> bool:
            """At most ``GRACE`` seconds until it has exited and its pipes are at their end
            (``_processes``), what comes through them dropped; whether it has."""
            async def drop(stream: Any) -> None:  # (the answer is a timeout: none is kept)
                while await stream.receive_some(processes.CHUNK):
                    pass

            with trio.move_on_after(processes.GRACE):
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(drop, proc.stdout)
                    nursery.start_soon(drop, proc.stderr)
                await proc.wait()
                return True
            return False

        done = False
        try:
            with trio.move_on_after(effect.timeout):
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(drain, proc.stdout, out)
                    nursery.start_soon(drain, proc.stderr, err)
                await proc.wait()
                done = True
        finally:
            if not done:  # timed out or cancelled: stop the whole group, wait for its end
                with trio.CancelScope(shield=True):
                    processes.signal_group(proc.pid, signal.SIGTERM)
                    if not await ended(proc):
                        processes.signal_group(proc.pid, signal.SIGKILL)
                        await ended(proc)
            for stream in (proc.stdout, proc.stderr):
                if stream is not None:
                    with trio.CancelScope(shield=True):
                        await stream.aclose()
        if not done:
            return processes.timed_out(effect)
        return processes.finished(proc.returncode, out, err)


def _first(group: BaseExceptionGroup[Any]) -> BaseException:
    error: BaseException = group
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    return error


async def run(program: Program[R]) -> R:
    """Run one program on a fresh ``TrioInterpreter``."""
    return await TrioInterpreter().run(program)
