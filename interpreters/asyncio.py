"""The production interpreter, on asyncio.

Deadlines use ``asyncio.timeout_at`` (one timer per deadline, armed only when it tightens
the current one); a timed-out tool's coroutine is cancelled and its program closed.
Sync tools run inline (or in a worker thread with ``Tool(blocking=True)``).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from returns.result import Result

from interpreters import _processes as processes
from interpreters._async import _EXPIRED, AsyncInterpreter, Interruption, unwrap
from toolpipe.context import CancelSignal
from toolpipe.effects import ProcessResult, RunProcess
from toolpipe.program import Program

R = TypeVar("R")

__all__ = ["AsyncioInterpreter", "run"]


class AsyncioInterpreter(AsyncInterpreter):
    """``await AsyncioInterpreter().run(pipeline.dispatch(ctx))``."""

    def _clock(self) -> float:
        return asyncio.get_running_loop().time()

    def _is_cancellation(self, error: BaseException) -> bool:
        if not isinstance(error, asyncio.CancelledError):
            return False
        task = asyncio.current_task()
        return task is None or task.cancelling() > 0

    async def _sleep(self, seconds: float) -> None:
        if seconds == float("inf"):
            await asyncio.get_running_loop().create_future()
            return
        await asyncio.sleep(seconds)

    async def _cancellable(
        self, make: Callable[[], Awaitable[Any]], signal: CancelSignal | None,
        deadline: float | None,
    ) -> Any:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        state = {"active": True, "fired": False}

        def cancel_now() -> None:
            if state["active"]:
                state["fired"] = True
                task.cancel()

        def on_signal() -> None:
            try:
                loop.call_soon_threadsafe(cancel_now)
            except RuntimeError:  # the loop is closed: nothing left to cancel
                pass

        remove = signal.add_listener(on_signal) if signal is not None else None
        try:
            if deadline is None:
                out = await make()
            else:
                cm = asyncio.timeout_at(deadline)
                try:
                    async with cm:
                        out = await make()
                except TimeoutError:
                    if cm.expired():
                        return _EXPIRED
                    raise
                if cm.expired():  # the body swallowed its cancellation: its value is late
                    return _EXPIRED
            if state["fired"]:  # the signal fired and the body swallowed it: cancelled
                task.uncancel()
                raise Interruption()
            return out
        except asyncio.CancelledError:
            if state["fired"] and task.uncancel() == 0:
                raise Interruption() from None
            raise
        finally:
            state["active"] = False
            if remove is not None:
                remove()

    async def _detached(self, awaitable: Awaitable[Any]) -> Any:
        """Await a tool's coroutine in a task of its own: when the wait is cancelled (a
        deadline, a signal), the task is told to stop and the wait ends at once, so a
        tool that swallows its cancellation cannot hold the caller past its deadline.
        Whatever it returns later is dropped."""
        task = asyncio.ensure_future(_contained(awaitable))
        try:
            outcome = await asyncio.shield(task)
        except asyncio.CancelledError:
            task.cancel()
            task.add_done_callback(_forget)
            raise
        return unwrap(outcome)

    async def _in_thread(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on the pool's daemon threads: a call abandoned at a deadline keeps
        running there, but never delays the interpreter's shutdown (the default executor's
        threads would: ``asyncio.run`` waits for them), and its late value is dropped. The
        outcome travels as a value (a StopIteration set on a future would be refused)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[tuple[bool, Any]] = loop.create_future()

        def settle(outcome: tuple[bool, Any]) -> None:
            if not future.done():  # abandoned: the late value is dropped
                future.set_result(outcome)

        def deliver(outcome: tuple[bool, Any]) -> None:
            try:
                loop.call_soon_threadsafe(settle, outcome)
            except RuntimeError:  # the loop has closed: nobody is waiting any more
                pass

        job = self.pool.submit(fn, args, deliver)
        try:
            outcome = await future
        except BaseException:
            self.pool.abandon(job)
            raise
        return unwrap(outcome)

    async def _run_workers(self, workers: list[Callable[[], Coroutine[Any, Any, None]]]) -> None:
        async with asyncio.TaskGroup() as group:
            for worker in workers:
                group.create_task(worker())

    async def _process(self, effect: RunProcess) -> Result[ProcessResult, str]:
        """In its own process group, output read as it comes (capped), the group stopped
        on a timeout or a cancellation (see ``interpreters._processes``).

        The process is started with ``subprocess.Popen`` on the loop (as asyncio does
        inside ``create_subprocess_exec``), not through asyncio's subprocess transport:
        cancelled while starting, that transport killed the process alone and then waited
        for its pipes to close, which a child of it (bubblewrap's PID 1, a background job)
        held open: the wait never ended. Here there is no await between the start and the
        code that stops the whole group, and the exit is watched through a pidfd."""
        argv, options, opened = processes.prepare(effect)
        try:
            proc = subprocess.Popen(argv, cwd=effect.cwd, **options)
        except OSError as exc:
            return processes.could_not_run(effect, exc)
        finally:
            processes.close_all(opened)
        loop = asyncio.get_running_loop()
        out, err = processes.Capped(), processes.Capped()
        try:
            async with asyncio.timeout(effect.timeout):
                await asyncio.gather(_drain(loop, proc.stdout, out),
                                     _drain(loop, proc.stderr, err))
                await _exited(loop, proc)
        except TimeoutError:
            await _stop_group(loop, proc)
            return processes.timed_out(effect)
        except BaseException:  # cancelled: stop the group at once, reap it in the background
            processes.signal_group(proc.pid, signal.SIGKILL)
            _reap_later(loop, proc, 0.005)
            raise
        finally:
            for stream in (proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()
        return processes.finished(proc.returncode, out, err)


async def _contained(awaitable: Awaitable[Any]) -> tuple[bool, Any]:
    """A tool's awaitable, whatever it raises carried as a value: raised out of a task, a
    SystemExit would stop the event loop, and a CancelledError the tool raised itself (it
    awaited a future cancelled elsewhere) would pass for a cancellation of the caller."""
    try:
        return True, await awaitable
    except BaseException as error:
        return False, error


async def _readable(loop: asyncio.AbstractEventLoop, fd: int) -> None:
    """Until ``fd`` is readable (or at its end)."""
    ready: asyncio.Future[None] = loop.create_future()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(fd, wake)
    try:
        await ready
    finally:
        loop.remove_reader(fd)


async def _drain(loop: asyncio.AbstractEventLoop, stream: Any, into: processes.Capped
                 ) -> None:
    """Read a pipe to its end (every holder of its write end gone)."""
    if stream is None:
        return
    fd = stream.fileno()
    os.set_blocking(fd, False)
    while True:
        try:
            chunk = os.read(fd, processes.CHUNK)
        except BlockingIOError:
            await _readable(loop, fd)
            continue
        if not chunk:
            return
        into.add(chunk)


async def _exited(loop: asyncio.AbstractEventLoop, proc: subprocess.Popen[bytes]) -> None:
    """Until the process has exited (and is reaped): a pidfd becomes readable then."""
    if proc.poll() is not None:
        return
    try:
        fd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):  # no pidfd (an old kernel): poll
        while proc.poll() is None:
            await asyncio.sleep(0.01)
        return
    try:
        while proc.poll() is None:
            await _readable(loop, fd)
    finally:
        os.close(fd)


async def _stop_group(loop: asyncio.AbstractEventLoop, proc: subprocess.Popen[bytes]) -> None:
    processes.signal_group(proc.pid, signal.SIGTERM)
    try:
        async with asyncio.timeout(processes.GRACE):
            await _exited(loop, proc)
    except TimeoutError:
        pass
    processes.signal_group(proc.pid, signal.SIGKILL)
    await _exited(loop, proc)


def _reap_later(loop: asyncio.AbstractEventLoop, proc: subprocess.Popen[bytes],
                delay: float) -> None:
    """Reap a killed process without waiting for it, by callbacks (not a task: the end of
    the loop does not cancel them; if it ends first, subprocess reaps it later)."""
    if proc.poll() is None and not loop.is_closed():
        loop.call_later(delay, _reap_later, loop, proc, min(delay * 2, 1.0))


def _forget(task: asyncio.Future[Any]) -> None:
    """An abandoned tool's outcome: retrieved, so asyncio does not log it, and dropped."""
    if not task.cancelled():
        task.exception()


async def run(program: Program[R]) -> R:
    """Run one program on a fresh ``AsyncioInterpreter``."""
    return await AsyncioInterpreter().run(program)
