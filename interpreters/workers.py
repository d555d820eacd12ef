"""The bounded pool of worker threads behind the async interpreters' blocking work: plain
function tools, file operations, sync verifiers, resolvers and stores.

A thread cannot be killed: a call abandoned at its deadline keeps its thread until the
function returns. So the pool counts those *stuck* threads against its bound:

- a job goes to an idle thread, else to a new thread while there are fewer than
  ``max_threads``, else it waits in the backlog (under its own deadline) for a thread that
  is busy with a live call to come free;
- when every thread is held by an abandoned call, nothing will come free soon: ``submit``
  refuses at once with ``PoolExhausted``, and the interpreter answers that call with a
  ``Busy`` failure (cause ``Overloaded``) instead of letting it wait for its deadline.

Threads are daemons (an abandoned one never delays the interpreter's shutdown) and are
reused. One pool serves every interpreter of the process unless one is given its own
(``AsyncioInterpreter(pool=WorkerPool(16))``).
"""

from __future__ import annotations

import queue
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

__all__ = ["DEFAULT_MAX_THREADS", "POOL", "PoolExhausted", "WorkerPool"]

DEFAULT_MAX_THREADS = 64
"""The default pool's bound: 64 threads, of which at most 64 may be stuck."""

Outcome = tuple[bool, Any]
"""``(True, value)`` or ``(False, exception)``: what a job's function did."""

_QUEUED, _RUNNING, _ABANDONED, _DROPPED, _DONE = range(5)


class PoolExhausted(Exception):
    """Every worker thread is held by a call abandoned at its deadline."""


class Job:
    """One submitted call; ``WorkerPool.abandon(job)`` when its caller stops waiting."""

    __slots__ = ("args", "deliver", "fn", "state")

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...],
                 deliver: Callable[[Outcome], None]) -> None:
        self.fn = fn
        self.args = args
        self.deliver = deliver
        self.state = _QUEUED


class _Thread:
    __slots__ = ("inbox",)

    def __init__(self) -> None:
        self.inbox: queue.SimpleQueue[Job] = queue.SimpleQueue()


def run_job(fn: Callable[..., Any], args: tuple[Any, ...]) -> Outcome:
    """Call ``fn(*args)``; whatever it raises (anything at all) becomes the outcome."""
    try:
        return True, fn(*args)
    except BaseException as error:  # carried back to the waiting call, never raised here
        return False, error


class WorkerPool:
    """At most ``max_threads`` daemon threads; see the module's docstring."""

    def __init__(self, max_threads: int = DEFAULT_MAX_THREADS, *,
                 name: str = "toolpipe-worker") -> None:
        if isinstance(max_threads, bool) or not isinstance(max_threads, int) \
                or max_threads < 1:
            raise ValueError(f"max_threads must be a positive int, got {max_threads!r}")
        self.max_threads = max_threads
        self.name = name
        self._lock = threading.Lock()
        self._idle: list[_Thread] = []
        self._backlog: deque[Job] = deque()
        self._threads = 0
        self._stuck = 0

    @property
    def threads(self) -> int:
        """Threads started so far (they live on, idle, for later jobs)."""
        return self._threads

    @property
    def stuck(self) -> int:
        """Threads still running a call whose caller gave up on it."""
        return self._stuck

    def submit(self, fn: Callable[..., Any], args: tuple[Any, ...],
               deliver: Callable[[Outcome], None]) -> Job:
        """Run ``fn(*args)`` on a worker; ``deliver(outcome)`` is called from that thread
        when it is done, unless the job was abandoned first."""
        job = Job(fn, args, deliver)
        with self._lock:
            if self._stuck >= self.max_threads:
                raise PoolExhausted(
                    f"all {self.max_threads} worker threads are held by calls abandoned at "
                    "their deadline (functions that never returned); the call was not "
                    "started")
            if self._idle:
                worker: _Thread | None = self._idle.pop()
            elif self._threads < self.max_threads:
                self._threads += 1
                worker = None
            else:
                self._backlog.append(job)
                return job
            job.state = _RUNNING
        if worker is not None:
            worker.inbox.put(job)
        else:
            threading.Thread(target=self._serve, args=(job,), name=self.name,
                             daemon=True).start()
        return job

    def abandon(self, job: Job) -> None:
        """The caller stopped waiting (a deadline, a cancellation): a queued job never
        runs; a running one counts as stuck until its function returns."""
        with self._lock:
            if job.state == _QUEUED:
                job.state = _DROPPED
            elif job.state == _RUNNING:
                job.state = _ABANDONED
                self._stuck += 1

    def _serve(self, first: Job) -> None:
        me = _Thread()
        job: Job | None = first
        while True:
            if job is None:
                job = me.inbox.get()
            with self._lock:
                if job.state == _ABANDONED:  # given up before it started: skip it
                    self._stuck -= 1
                    job.state = _DONE
                    skip = True
                else:
                    skip = False
            if skip:
                job = self._next(me)
                continue
            outcome = run_job(job.fn, job.args)
            with self._lock:
                abandoned = job.state == _ABANDONED
                if abandoned:
                    self._stuck -= 1
                job.state = _DONE
            if not abandoned:
                try:
                    job.deliver(outcome)
                except BaseException:  # the waiting side is gone (its loop closed)
                    pass
            job = self._next(me)

    def _next(self, me: _Thread) -> Job | None:
        """The next live job of the backlog, or None after parking ``me`` as idle."""
        with self._lock:
            while self._backlog:
                job = self._backlog.popleft()
                if job.state == _QUEUED:
                    job.state = _RUNNING
                    return job
            self._idle.append(me)
            return None


POOL = WorkerPool()
"""The process's default pool."""
