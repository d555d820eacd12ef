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
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from returns.result import Result

from interpreters import _processes as processes
from interpreters._async import (
    _EXPIRED,
    AsyncInterpreter,
    Carried,
    Interruption,
    close_unstarted,
    unwrap,
)
from toolpipe.context import CancelSignal
from toolpipe.effects import ProcessResult, RunProcess
from toolpipe.program import Program

R = TypeVar("R")

__all__ = ["AsyncioInterpreter", "run"]


class AsyncioInterpreter(AsyncInterpreter):
    """``await AsyncioInterpreter().run(pipeline.dispatch(ctx))``."""

    def _clock(self) -> float:
        return asyncio.get_running_loop().time()

    # a duration needs no loop: asyncio's own clock is time.monotonic (looking the running
    # loop up cost a dispatch more than reading the clock), called with no frame between
    _stopwatch = staticmethod(time.monotonic)

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
        self, waiting: Awaitable[Any], signal: CancelSignal | None,
        deadline: float | None,
    ) -> Any:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        watch = _Watch(loop, task)
        entered = task.cancelling()
        if signal is not None:
            signal.add_listener(watch)
        timer = loop.call_at(deadline, watch.expire) if deadline is not None else None
        try:
            try:
                out = await waiting
            except asyncio.CancelledError:
                if watch.cancels and watch.settle() <= entered:  # ours alone
                    if watch.expired:
                        return _EXPIRED
                    raise Interruption() from None
                raise
            if watch.cancels:  # the body swallowed a cancellation of ours: its value is late
                watch.settle()
                if watch.expired:
                    return _EXPIRED
                raise Interruption()
            if deadline is not None and deadline in self._late:
                # a tool's answer came at or after the deadline, before its timer could
                # run (a busy loop runs callbacks late): the deadline wins, as on the
                # simulated clock, so a recording replays as it ran (``_came``)
                return _EXPIRED
            return out
        finally:
            if deadline is not None:
                self._late.discard(deadline)
            watch.active = False
            close_unstarted(waiting)  # when the wait ended before it began
            if timer is not None:
                timer.cancel()
            if signal is not None:
                signal.remove_listener(watch)

    def _awaiting(self, awaitable: Awaitable[Any]) -> Awaitable[Any]:
        """A tool's awaitable, stepped in the caller's task (no task of its own): a deadline
        or a cancellation reaches it directly, and one that swallows its cancellation
        cannot hold the caller (``_Stepped``)."""
        steps = getattr(awaitable, "__await__", None)
        iterator = steps() if steps is not None else None
        if iterator is None or not hasattr(iterator, "throw"):  # cannot be stepped: a task
            return _in_task(awaitable)
        return _Stepped(iterator)

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
        argv, options, opened = await self._prepared(effect)
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
        except BaseException:  # cancelled: the same stop, the cancellation raised after it
            try:
                await _stop_group(loop, proc)
            except BaseException:  # cancelled again while stopping: kill, reap it later
                processes.signal_group(proc.pid, signal.SIGKILL)
                _reap_later(loop, proc, 0.005)
            raise
        finally:
            for stream in (proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()
        return processes.finished(proc.returncode, out, err)


class _Watch:
    """One wait's deadline and signal: either cancels the waiting task (once each), and
    ``settle`` takes those cancellations back when the wait ends."""

    __slots__ = ("active", "cancels", "expired", "loop", "task")

    def __init__(self, loop: asyncio.AbstractEventLoop, task: asyncio.Task[Any]) -> None:
        self.loop, self.task = loop, task
        self.active = True
        self.expired = False
        self.cancels = 0

    def expire(self) -> None:
        if self.active and not self.expired:
            self.expired = True
            self.cancels += 1
            self.task.cancel()

    def cancel_now(self) -> None:
        if self.active:
            self.cancels += 1
            self.task.cancel()

    def __call__(self) -> None:  # the signal's listener, on whatever thread cancels it
        try:
            self.loop.call_soon_threadsafe(self.cancel_now)
        except RuntimeError:  # the loop is closed: nothing left to cancel
            pass

    def settle(self) -> int:
        """Take back this wait's cancellations; the task's count of the others."""
        left = self.task.cancelling()
        for _ in range(self.cancels):
            left = self.task.uncancel()
        self.cancels = 0
        return left


# How long a tool that answered its cancellation by waiting again (cleaning up: an MCP
# client telling its server, a connection closed) may go on in the caller's task before it
# is closed where it stands.
GRACE = 0.05


class _Stepped:
    """Steps a tool's coroutine from the caller's task, as ``await`` would, so that a
    deadline or a cancellation reaches it directly, with two differences:

    - what the tool raises is its outcome (raised, a SystemExit would stop the loop, and a
      CancelledError the tool raised itself would pass for the caller's cancellation);
    - once the caller is cancelled, the tool has ``GRACE`` seconds to stop. A tool that
      swallows its cancellation and waits on is closed where it stands (its ``finally``
      blocks run, in the task they began in); the caller never waits longer, and what the
      tool would have returned is dropped.
    """

    __slots__ = ("iterator", "late")

    def __init__(self, iterator: Any) -> None:
        self.iterator = iterator
        self.late = False  # the grace is over

    def close(self) -> None:
        _close(self.iterator)

    def __await__(self) -> Any:
        iterator = self.iterator
        value: Any = None
        throw: BaseException | None = None  # to raise in the tool at its next step
        cancelled: BaseException | None = None  # the caller's cancellation, once it came
        grace: asyncio.TimerHandle | None = None
        try:
            while True:
                try:
                    if throw is None:
                        yielded = iterator.send(value)
                    else:
                        error, throw = throw, None
                        yielded = iterator.throw(error)
                except StopIteration as stop:
                    if cancelled is not None:  # it swallowed the cancellation: dropped
                        raise cancelled from None
                    return stop.value
                except BaseException as error:
                    if cancelled is not None:  # it stopped (or failed stopping): unwind
                        raise cancelled from None
                    raise (error if isinstance(error, KeyboardInterrupt)
                           else Carried(error)) from None
                try:
                    value = yield yielded
                except GeneratorExit:  # the caller's coroutine is closed: so is the tool
                    _close(iterator)
                    raise
                except BaseException as error:  # the caller's task is cancelled
                    if self.late:  # the grace is over: the tool is closed, the caller unwinds
                        task = asyncio.current_task()
                        if task is not None:
                            task.uncancel()  # the grace's own cancel
                        _close(iterator)
                        raise cancelled from None  # type: ignore[misc]
                    value, throw = None, error
                    if cancelled is None:
                        grace = _grace_timer(self)
                    cancelled = error
        finally:
            if grace is not None:
                grace.cancel()


def _grace_timer(stepped: _Stepped) -> asyncio.TimerHandle | None:
    task = asyncio.current_task()
    if task is None:  # pragma: no cover - always in a task
        return None

    def over() -> None:
        stepped.late = True
        task.cancel()

    return asyncio.get_running_loop().call_later(GRACE, over)


def _close(iterator: Any) -> None:
    """Close an abandoned tool's coroutine: what it raises doing so is dropped."""
    try:
        iterator.close()
    except BaseException:
        pass


async def _in_task(awaitable: Awaitable[Any]) -> Any:
    task = asyncio.ensure_future(_contained(awaitable))
    try:
        outcome = await asyncio.shield(task)
    except asyncio.CancelledError:
        task.cancel()
        task.add_done_callback(_forget)
        raise
    return unwrap(outcome)


async def _contained(awaitable: Awaitable[Any]) -> tuple[bool, Any]:
    """A tool's awaitable, whatever it raises carried as a value (see ``_Stepped``)."""
    try:
        return True, await awaitable
    except BaseException as error:
        return False, error


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
    """Until the process has exited (and is reaped)."""
    await _ended(loop, proc, None, pipes=False)


async def _stop_group(loop: asyncio.AbstractEventLoop, proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM, SIGKILL after ``GRACE``, each followed by a wait (bounded by ``GRACE``)
    for the command to end: exited, and its pipes at their end (``_processes``)."""
    processes.signal_group(proc.pid, signal.SIGTERM)
    if await _ended(loop, proc):
        return
    processes.signal_group(proc.pid, signal.SIGKILL)
    if not await _ended(loop, proc):
        _reap_later(loop, proc, 0.005)


async def _ended(loop: asyncio.AbstractEventLoop, proc: subprocess.Popen[bytes],
                 limit: float | None = processes.GRACE, *, pipes: bool = True) -> bool:
    """Wait until ``proc`` has exited (reaped: a pidfd becomes readable then) and, with
    ``pipes``, its pipes are at their end, what comes through them dropped; at most
    ``limit`` seconds (None: as long as it takes). Whether it has."""
    left_open = [stream.fileno() for stream in (proc.stdout, proc.stderr)
                 if pipes and stream is not None and not stream.closed]
    exit_fd: int | None = None
    if proc.poll() is None:
        try:
            exit_fd = os.pidfd_open(proc.pid)
        except (AttributeError, OSError):  # no pidfd (an old kernel), or gone already: poll
            exit_fd = None
    end = loop.time() + limit if limit is not None else None
    try:
        while True:
            for fd in list(left_open):
                try:
                    os.set_blocking(fd, False)
                    while os.read(fd, processes.CHUNK):
                        pass
                    left_open.remove(fd)  # at its end
                except BlockingIOError:
                    pass
            exited = proc.poll() is not None
            if exited and not left_open:
                return True
            left = end - loop.time() if end is not None else None
            if left is not None and left <= 0:
                return False
            watched = list(left_open)
            if not exited:  # (once it has, its pidfd stays readable: not watched again)
                if exit_fd is not None:
                    watched.append(exit_fd)
                else:
                    left = 0.01 if left is None else min(left, 0.01)
            await _readable(loop, *watched, limit=left)
    finally:
        if exit_fd is not None:
            os.close(exit_fd)


async def _readable(loop: asyncio.AbstractEventLoop, *fds: int, limit: float | None = None
                    ) -> None:
    """Until one of ``fds`` is readable (or at its end), or ``limit`` seconds pass."""
    ready: asyncio.Future[None] = loop.create_future()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    timer = loop.call_later(limit, wake) if limit is not None else None
    for fd in fds:
        loop.add_reader(fd, wake)
    try:
        await ready
    finally:
        if timer is not None:
            timer.cancel()
        for fd in fds:
            loop.remove_reader(fd)


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
