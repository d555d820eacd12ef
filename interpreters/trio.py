"""The trio interpreter (``pip install toolpipe[trio]``).

Deadlines are ``trio.CancelScope`` deadlines, armed only when they tighten the current one;
cancel signals cancel a scope through the trio token, so they may fire from any thread.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import trio
from returns.result import Failure, Result, Success

from interpreters._async import _EXPIRED, AsyncInterpreter, Interruption
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
        with trio.CancelScope(deadline=math.inf if deadline is None else deadline):
            with trio.CancelScope() as watched:

                def on_signal() -> None:
                    try:
                        token.run_sync_soon(watched.cancel)
                    except trio.RunFinishedError:
                        pass

                remove = signal.add_listener(on_signal) if signal is not None else None
                try:
                    return await make()
                finally:
                    if remove is not None:
                        remove()
            if watched.cancelled_caught:
                raise Interruption()
        return _EXPIRED

    async def _in_thread(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await trio.to_thread.run_sync(fn, *args, abandon_on_cancel=True)

    async def _run_workers(self, workers: list[Callable[[], Coroutine[Any, Any, None]]]) -> None:
        async with trio.open_nursery() as nursery:
            for worker in workers:
                nursery.start_soon(worker)

    async def _process(self, effect: RunProcess) -> Result[ProcessResult, str]:
        done = None
        try:
            with trio.move_on_after(effect.timeout):
                done = await trio.run_process(
                    list(effect.argv), cwd=effect.cwd, capture_stdout=True,
                    capture_stderr=True, check=False,
                )
        except OSError as exc:
            return Failure(f"could not run {effect.argv[0]!r}: {exc}")
        if done is None:
            return Failure(f"command timed out after {effect.timeout:g}s")
        return Success(ProcessResult(
            done.returncode, done.stdout.decode(errors="replace"),
            done.stderr.decode(errors="replace"),
        ))


async def run(program: Program[R]) -> R:
    """Run one program on a fresh ``TrioInterpreter``."""
    return await TrioInterpreter().run(program)
