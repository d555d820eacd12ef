"""The trio interpreter (``pip install toolpipe[trio]``).

Deadlines are ``trio.CancelScope`` deadlines, armed only when they tighten the current one;
cancel signals cancel a scope through the trio token, so they may fire from any thread.
"""

from __future__ import annotations

import math
import signal
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import trio
from returns.result import Result

from interpreters import _processes as processes
from interpreters._async import _EXPIRED, AsyncInterpreter, Exited, Interruption
from toolpipe.context import CancelSignal
from toolpipe.effects import ProcessResult, RunProcess
from toolpipe.program import Program

R = TypeVar("R")

__all__ = ["TrioInterpreter", "run"]


class TrioInterpreter(AsyncInterpreter):
    """``await TrioInterpreter().run(pipeline.dispatch(ctx))`` inside ``trio.run``."""

    def _clock(self) -> float:
        return trio.current_time()

    async def _sleep(self, seconds: float) -> None:
        await trio.sleep(seconds)

    async def _cancellable(
        self, make: Callable[[], Awaitable[Any]], signal: CancelSignal | None,
        deadline: float | None,
    ) -> Any:
        token = trio.lowlevel.current_trio_token()
        out: Any = _EXPIRED
        with trio.CancelScope(deadline=math.inf if deadline is None else deadline) as timed:
            with trio.CancelScope() as watched:

                def on_signal() -> None:
                    try:
                        token.run_sync_soon(watched.cancel)
                    except trio.RunFinishedError:
                        pass

                remove = signal.add_listener(on_signal) if signal is not None else None
                try:
                    out = await make()
                finally:
                    if remove is not None:
                        remove()
            # a body that swallowed its cancellation and returned: its value is late
            if watched.cancel_called:
                raise Interruption()
        if timed.cancel_called:
            return _EXPIRED
        return out

    async def _in_thread(self, fn: Callable[..., Any], *args: Any) -> Any:
        def work() -> Any:
            try:
                return fn(*args)
            except (Exception, KeyboardInterrupt):
                raise
            except BaseException as error:  # SystemExit, GeneratorExit: carried, not raised
                raise Exited(error) from None

        return await trio.to_thread.run_sync(work, abandon_on_cancel=True)

    async def _run_workers(self, workers: list[Callable[[], Coroutine[Any, Any, None]]]) -> None:
        async with trio.open_nursery() as nursery:
            for worker in workers:
                nursery.start_soon(worker)

    async def _process(self, effect: RunProcess) -> Result[ProcessResult, str]:
        """In its own process group, output read as it comes (capped), the group stopped
        on a timeout or a cancellation (see ``interpreters._processes``)."""
        try:
            proc = await trio.lowlevel.open_process(list(effect.argv), cwd=effect.cwd,
                                                    **processes.POPEN)
        except OSError as exc:
            return processes.could_not_run(effect, exc)
        out, err = processes.Capped(), processes.Capped()

        async def drain(stream: Any, into: processes.Capped) -> None:
            while chunk := await stream.receive_some(processes.CHUNK):
                into.add(chunk)

        done = False
        try:
            with trio.move_on_after(effect.timeout):
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(drain, proc.stdout, out)
                    nursery.start_soon(drain, proc.stderr, err)
                await proc.wait()
                done = True
        finally:
            if not done:  # timed out or cancelled: stop the whole group, then reap it
                with trio.CancelScope(shield=True):
                    processes.signal_group(proc.pid, signal.SIGTERM)
                    with trio.move_on_after(processes.GRACE):
                        await proc.wait()
                    processes.signal_group(proc.pid, signal.SIGKILL)
                    await proc.wait()
            for stream in (proc.stdout, proc.stderr):
                if stream is not None:
                    with trio.CancelScope(shield=True):
                        await stream.aclose()
        if not done:
            return processes.timed_out(effect)
        return processes.finished(proc.returncode, out, err)


async def run(program: Program[R]) -> R:
    """Run one program on a fresh ``TrioInterpreter``."""
    return await TrioInterpreter().run(program)
