"""The bounded worker pool: stuck threads count against it, quick tools keep working beside
them, a pool full of stuck threads refuses at once, and blocking user code (resolvers,
verifiers, stores) runs on it, so a deadline still fires while it blocks."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
import trio

from interpreters.asyncio import AsyncioInterpreter
from interpreters.stores import MemoryStore
from interpreters.trio import TrioInterpreter
from interpreters.workers import PoolExhausted, WorkerPool
from toolpipe import (
    Ask,
    CancelSignal,
    DispatchContext,
    MemoizingMiddleware,
    PermissionMiddleware,
    TimeoutMiddleware,
    Tool,
    ToolPipeline,
    ToolRegistry,
    VerifyMiddleware,
)
from toolpipe.failures import Cancelled, Overloaded, TimedOut


class Stuck:
    """A plain tool that blocks until released (never within the test's own deadline)."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started = threading.Semaphore(0)

    def __call__(self, input: Any, context: Any) -> str:
        self.started.release()
        self.release.wait(30)
        return "late"


def quick(input: Any, context: Any) -> str:
    return "quick"


def pipeline(stuck: Stuck) -> ToolPipeline:
    reg = ToolRegistry([Tool.from_function("stuck", stuck), Tool.from_function("quick", quick)])
    return ToolPipeline.new(reg)


async def strand(interp: Any, pipe: ToolPipeline, stuck: Stuck, n: int, run_all: Any) -> list[Any]:
    """Start ``n`` stuck calls, wait until each holds a thread, then cancel them all."""
    signal = CancelSignal()
    calls = [pipe.dispatch(DispatchContext("stuck", {"i": i}, f"s{i}", cancel=signal))
             for i in range(n)]

    async def cancel_when_started() -> None:
        for _ in range(n):
            while not stuck.started.acquire(blocking=False):
                await sleep_for(interp)
        signal.cancel()

    return await run_all(interp, calls, cancel_when_started)


async def sleep_for(interp: Any) -> None:
    if isinstance(interp, TrioInterpreter):
        await trio.sleep(0.001)
    else:
        await asyncio.sleep(0.001)


async def asyncio_all(interp: Any, programs: list[Any], side: Any) -> list[Any]:
    tasks = [asyncio.ensure_future(interp.run(p)) for p in programs]
    await side()
    return list(await asyncio.gather(*tasks))


async def trio_all(interp: Any, programs: list[Any], side: Any) -> list[Any]:
    results: list[Any] = [None] * len(programs)

    async def one(i: int) -> None:
        results[i] = await interp.run(programs[i])

    async with trio.open_nursery() as nursery:
        for i in range(len(programs)):
            nursery.start_soon(one, i)
        await side()
    return results


BACKENDS = {
    "asyncio": (AsyncioInterpreter, asyncio_all, lambda main: asyncio.run(main())),
    "trio": (TrioInterpreter, trio_all, trio.run),
}


@pytest.mark.parametrize("kind", BACKENDS)
def test_quick_tools_keep_working_beside_stuck_ones_and_a_full_pool_refuses_at_once(kind: str
                                                                                    ) -> None:
    make, run_all, runner = BACKENDS[kind]
    pool = WorkerPool(48)
    interp = make(pool=pool)
    stuck = Stuck()
    pipe = pipeline(stuck)

    async def main() -> None:
        # 40 stuck calls (trio's own limiter had 40 tokens: every later call hung)
        stranded = await strand(interp, pipe, stuck, 40, run_all)
        assert all(isinstance(r.cause, Cancelled) for r in stranded)
        assert pool.stuck == 40
        for i in range(50):  # quick tools go on, on the 8 threads left
            result = await interp.run(pipe.dispatch(DispatchContext("quick", {"i": i})))
            assert result.text == "quick"
        await strand(interp, pipe, stuck, 8, run_all)  # now every thread is stuck
        assert pool.stuck == 48 and pool.threads == 48
        started = time.monotonic()
        refused = await interp.run(pipe.dispatch(DispatchContext("quick")))
        assert time.monotonic() - started < 1.0  # at once, not at a deadline
        assert refused.is_error and isinstance(refused.cause, Overloaded)
        assert refused.text == (
            "Tool 'quick' could not start: all 48 worker threads are held by calls abandoned "
            "at their deadline (functions that never returned); the call was not started")
        stuck.release.set()  # the stuck functions return: their threads come back
        while pool.stuck:
            await sleep_for(interp)
        result = await interp.run(pipe.dispatch(DispatchContext("quick")))
        assert result.text == "quick" and pool.threads == 48  # no thread beyond the bound

    try:
        runner(main)
    finally:
        stuck.release.set()


def test_the_pool_queues_live_work_beyond_its_bound() -> None:
    """Busy threads with live callers are not stuck: more jobs than threads wait their
    turn instead of being refused (5,000 calls never start 5,000 threads)."""
    pool = WorkerPool(4)
    done = threading.Semaphore(0)
    results: list[Any] = []
    lock = threading.Lock()

    def deliver(outcome: Any) -> None:
        with lock:
            results.append(outcome)
        done.release()

    for i in range(200):
        pool.submit(lambda i=i: i * 2, (), deliver)
    for _ in range(200):
        assert done.acquire(timeout=10)
    assert sorted(v for ok, v in results if ok) == [i * 2 for i in range(200)]
    assert pool.threads <= 4 and pool.stuck == 0


def test_a_pool_refuses_when_every_thread_is_stuck_and_bad_sizes_are_refused() -> None:
    pool = WorkerPool(1)
    release = threading.Event()
    job = pool.submit(lambda: release.wait(10), (), lambda outcome: None)
    pool.abandon(job)
    assert pool.stuck == 1
    with pytest.raises(PoolExhausted, match="all 1 worker threads"):
        pool.submit(lambda: None, (), lambda outcome: None)
    release.set()
    for bad in (0, -1, 1.5, True, "8"):
        with pytest.raises(ValueError, match="max_threads must be a positive int"):
            WorkerPool(bad)  # type: ignore[arg-type]


def test_an_abandoned_queued_job_never_runs() -> None:
    pool = WorkerPool(1)
    release = threading.Event()
    ran: list[str] = []
    pool.submit(lambda: release.wait(10), (), lambda outcome: None)
    queued = pool.submit(lambda: ran.append("ran"), (), lambda outcome: None)
    pool.abandon(queued)
    after = threading.Event()
    pool.submit(after.set, (), lambda outcome: None)
    release.set()
    assert after.wait(10) and ran == []


# --- blocking user code runs off the loop, under the call's deadline -------------------------


class BlockingStore(MemoryStore):
    """A store whose reads block (a network round trip that never comes back)."""

    blocking = True

    def __init__(self, release: threading.Event) -> None:
        super().__init__()
        self.release = release

    def get(self, namespace: str, key: str) -> Any:
        self.release.wait(30)
        return super().get(namespace, key)


def blocked_setups(release: threading.Event) -> dict[str, tuple[Any, dict[str, Any]]]:
    def wait(*args: Any) -> Any:
        release.wait(30)
        return True

    return {
        "resolver": (PermissionMiddleware(check=lambda ctx: Ask("ok?"), ask_resolver=wait),
                     {}),
        "verifier": (VerifyMiddleware(lambda c, t, i: wait(), ["quick"], timeout=None), {}),
        "store": (MemoizingMiddleware(["quick"], []), {"store": BlockingStore(release)}),
    }


@pytest.mark.process
@pytest.mark.parametrize("kind", BACKENDS)
def test_a_blocking_resolver_verifier_or_store_is_bounded_by_the_deadline(kind: str) -> None:
    """Each blocks on an event that is never set within the test; the three calls run at
    once, each under a 1 s timeout (the only real wait: about one second per backend)."""
    make, _, runner = BACKENDS[kind]
    release = threading.Event()
    components = ["resolver", "verifier", "store"]
    runs = []
    for component in components:
        layer, options = blocked_setups(release)[component]
        reg = ToolRegistry([Tool.from_function("quick", quick)])
        pipe = (ToolPipeline.builder().with_middleware(TimeoutMiddleware.from_secs(1))
                .with_middleware(layer).with_core(reg).build())
        runs.append((make(pool=WorkerPool(4), **options), pipe))

    async def main() -> tuple[list[Any], float]:
        started = time.monotonic()
        results: list[Any] = [None] * len(runs)

        async def one(i: int) -> None:
            interp, pipe = runs[i]
            results[i] = await interp.run(pipe.dispatch(DispatchContext("quick")))

        if kind == "trio":
            async with trio.open_nursery() as nursery:
                for i in range(len(runs)):
                    nursery.start_soon(one, i)
        else:
            await asyncio.gather(*(one(i) for i in range(len(runs))))
        return results, time.monotonic() - started

    try:
        results, spent = runner(main)
    finally:
        release.set()
    for component, result in zip(components, results, strict=True):
        assert isinstance(result.cause, TimedOut), (component, result.text)
    assert 0.9 < spent < 5.0  # the deadlines fired while the user's code blocked
