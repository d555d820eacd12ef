"""A deterministic discrete-event interpreter with a virtual clock.

Everything runs synchronously in one thread. Tasks advance until they block; when every
task is blocked, the clock jumps to the next timer (never backwards). Timers due at the same
instant fire deadlines and scheduled cancellations first, then wake-ups; ties within a class
are broken by a seeded RNG, so a seed replays a run exactly. A two-minute timeout costs
microseconds.

Coroutine tools cannot run here (there is no event loop): they get a clear soft error.
Give the simulator plain functions or programs (generators that ``yield Sleep(latency)``).
"""

from __future__ import annotations

import heapq
import inspect
import math
import random
from collections import deque
from collections.abc import Callable, Iterable
from types import GeneratorType
from typing import Any, TypeVar

from returns.result import Failure, Result, Success

from interpreters._core import (
    CALLS,
    WORK,
    BaseInterpreter,
    failed,
    log,
    program_of,
    run_process_blocking,
    store_failed,
)
from interpreters.stores import Store
from toolpipe.context import CancelSignal
from toolpipe.effects import (
    CallCancelled,
    CallOutcome,
    Effect,
    Expired,
    Gather,
    Interrupted,
    ProcessResult,
    RunProcess,
    Sleep,
    Unsupported,
    WithDeadline,
)
from toolpipe.errors import ProgramError
from toolpipe.program import Program, culprit, not_an_effect

R = TypeVar("R")

_ROOT, _SCOPE, _INVOKE = 0, 1, 2
_EXPIRE, _INTERRUPT, _CANCEL_CALL = 0, 1, 2
_INF = math.inf


class SimulationDeadlock(RuntimeError):
    """Every remaining task waits forever and no timer is pending."""


class _Frame:
    __slots__ = ("active", "deadline", "gen", "group", "kind", "remove", "seconds", "start",
                 "timer")

    def __init__(self, gen: Any, kind: int, deadline: float) -> None:
        self.gen = gen
        self.kind = kind
        self.deadline = deadline
        self.timer: list[Any] | None = None
        self.remove: Callable[[], None] | None = None
        self.seconds: float | None = None
        self.start = 0.0
        self.active = True
        self.group: _Group | None = None


class _Task:
    __slots__ = ("done", "error", "frames", "group", "id", "result", "slot", "token")

    def __init__(self, gen: Any, task_id: int, deadline: float = _INF) -> None:
        self.frames = [_Frame(gen, _ROOT, deadline)]
        self.token = 0
        self.done = False
        self.result: Any = None
        self.error: BaseException | None = None
        self.id = task_id
        self.group: _Group | None = None
        self.slot = 0


class _Group:
    """A ``Gather`` in progress: its parent waits in ``frame`` until every body is done."""

    __slots__ = ("bodies", "frame", "limit", "parent", "remaining", "results", "running",
                 "started")

    def __init__(self, parent: _Task, frame: _Frame, bodies: tuple[Any, ...],
                 limit: int) -> None:
        self.parent = parent
        self.frame = frame
        self.bodies = bodies
        self.limit = limit
        self.results: list[Any] = [None] * len(bodies)
        self.remaining = len(bodies)
        self.started = 0
        self.running: dict[int, _Task] = {}


class Handle:
    """A spawned program: ``done`` and ``result()`` once the simulation ran it."""

    __slots__ = ("_task",)

    def __init__(self, task: _Task) -> None:
        self._task = task

    @property
    def done(self) -> bool:
        return self._task.done

    def result(self) -> Any:
        task = self._task
        if not task.done:
            raise RuntimeError("the program has not finished; run the simulation first")
        if task.error is not None:
            raise task.error
        return task.result


ProcessRunner = Callable[[RunProcess], Result[ProcessResult, str]]


class SimulatedInterpreter(BaseInterpreter):
    """Run programs on a virtual clock. ``seed`` fixes every tie-break."""

    def __init__(
        self,
        seed: int = 0,
        store: Store | None = None,
        *,
        start: float = 0.0,
        record: bool = False,
        on_event: Callable[[Any], None] | None = None,
        process_runner: ProcessRunner | None = None,
        collect_events: bool = True,
    ) -> None:
        super().__init__(store, on_event=on_event, collect_events=collect_events,
                         record=record)
        if not math.isfinite(start):
            raise ValueError(f"start must be a finite time, got {start!r}")
        self._clock = float(start)
        self._rng = random.Random(seed)
        self._timers: list[list[Any]] = []
        self._seq = 0
        self._dead = 0  # disarmed timers still in the heap (deleted lazily)
        self._ready: deque[tuple[_Task, int, Any, BaseException | None]] = deque()
        self._pending: deque[tuple[_Task, _Frame, int]] = deque()
        self._live: dict[int, _Task] = {}
        self._next_id = 0
        self._process_runner = process_runner

    # --- public API ------------------------------------------------------------------------

    @property
    def now(self) -> float:
        """The virtual clock, in seconds."""
        return self._clock

    def _now_effect(self, _: object) -> float:
        return self._clock

    def spawn(self, program: Program[Any]) -> Handle:
        if type(program) is not GeneratorType:
            raise ProgramError(
                f"spawn() expects a program (a generator), got {type(program).__name__}"
            )
        task = _Task(program, self._next_id)
        self._next_id += 1
        self._live[task.id] = task
        self._ready.append((task, 0, None, None))
        return Handle(task)

    def run(self, program: Program[R]) -> R:
        """Run one program (and whatever else is spawned) until it finishes."""
        handle = self.spawn(program)
        task = handle._task
        self._loop(lambda: task.done)
        return handle.result()  # type: ignore[no-any-return]

    def run_all(self, programs: Iterable[Program[Any]]) -> list[Any]:
        """Run programs concurrently; results in the given order."""
        handles = [self.spawn(p) for p in programs]
        self._loop(lambda: not self._live)
        return [h.result() for h in handles]

    def run_until_complete(self) -> None:
        self._loop(lambda: not self._live)

    def cancel_at(self, signal: CancelSignal, at: float) -> None:
        """Fire ``signal`` at virtual time ``at`` (before wake-ups due at the same instant)."""
        if not isinstance(signal, CancelSignal):
            raise TypeError(f"signal must be a CancelSignal, got {type(signal).__name__}")
        if math.isnan(at):
            raise ValueError("at must be a time, got nan")
        self._schedule(max(at, self._clock), 0, signal.cancel)

    def advance(self, seconds: float) -> None:
        """Run everything due within the next ``seconds`` of virtual time."""
        if math.isnan(seconds) or seconds < 0:
            raise ValueError(f"seconds must be >= 0, got {seconds!r}")
        target = self._clock + seconds
        self._schedule(target, 2, lambda: None)
        self._loop(lambda: False, until_time=target)
        self._clock = max(self._clock, target)

    # --- the loop --------------------------------------------------------------------------

    def _schedule(self, at: float, prio: int, fn: Callable[..., None], *args: Any) -> list[Any]:
        self._seq += 1
        entry = [at, prio, self._rng.random(), self._seq, fn, *args]
        heapq.heappush(self._timers, entry)
        return entry

    def _loop(self, finished: Callable[[], bool], until_time: float = _INF) -> None:
        ready, pending, timers = self._ready, self._pending, self._timers
        advance = self._advance
        while True:
            if pending:
                self._unwind(*pending.popleft())
                continue
            if ready:
                task, token, value, exc = ready.popleft()
                if token == task.token and not task.done:
                    advance(task, value, exc)
                continue
            if finished():
                return
            if not timers:
                if until_time < _INF:
                    return
                self._deadlock()
            if timers[0][0] > until_time:
                return
            entry = heapq.heappop(timers)
            if entry[4] is None:
                self._dead -= 1
                continue
            if entry[0] > self._clock:
                self._clock = entry[0]
            fire, entry[4] = entry[4], None  # out of the heap: no longer disarmable
            fire(*entry[5:])

    def _deadlock(self) -> None:
        stuck = [
            f"task {t.id} in {culprit(t.frames[-1].gen)}" for t in list(self._live.values())[:5]
        ]
        raise SimulationDeadlock(
            f"{len(self._live)} program(s) wait forever and no timer is pending "
            f"(a tool that never returns, with no deadline around it?): {'; '.join(stuck)}"
        )

    def _wake(self, task: _Task, token: int) -> None:
        self._ready.append((task, token, None, None))

    def _finish(self, task: _Task) -> None:
        task.done = True
        self._live.pop(task.id, None)
        group = task.group
        if group is not None and group.running.pop(task.id, None) is not None:
            group.results[task.slot] = (
                Failure(task.error) if task.error is not None else Success(task.result)
            )
            group.remaining -= 1
            self._fill(group)

    def _gather(self, task: _Task, frame: _Frame, eff: Gather) -> None:
        """Start a group; the parent is woken (through the ready queue) when it is done."""
        group = _Group(task, frame, eff.bodies, eff.limit or len(eff.bodies))
        frame.group = group
        self._fill(group)

    def _fill(self, group: _Group) -> None:
        """Start bodies up to the limit; wake the parent when every body is done."""
        while group.started < len(group.bodies) and len(group.running) < group.limit:
            slot = group.started
            group.started += 1
            try:
                body = program_of(group.bodies[slot], "Gather")
            except KeyboardInterrupt:
                raise
            except BaseException as error:
                group.results[slot] = Failure(error)
                group.remaining -= 1
                continue
            child = _Task(body, self._next_id, group.frame.deadline)
            self._next_id += 1
            child.group, child.slot = group, slot
            group.running[child.id] = child
            self._live[child.id] = child
            self._ready.append((child, 0, None, None))
        if group.remaining == 0 and group.frame.group is group:
            group.frame.group = None
            parent = group.parent
            self._ready.append((parent, parent.token, tuple(group.results), None))

    def _kill(self, task: _Task) -> None:
        """Cancel a gathered body whose parent was cancelled: close its frames, top first."""
        task.done = True
        self._live.pop(task.id, None)
        self._close(task, None)

    def _close(self, task: _Task, down_to: _Frame | None) -> None:
        """Close the task's frames from the top down to ``down_to`` included (None: all),
        disarming each; a program that raises while closed is logged."""
        frames = task.frames
        while frames:
            top = frames.pop()
            self._disarm(top)
            try:
                top.gen.close()
            except KeyboardInterrupt:
                raise
            except BaseException:
                log.exception("a program raised while being cancelled: %s", culprit(top.gen))
            if top is down_to:
                return

    def _disarm(self, frame: _Frame) -> None:
        frame.active = False
        timer = frame.timer
        if timer is not None:
            frame.timer = None
            if timer[4] is not None:  # still waiting in the heap: delete it lazily
                timer[4] = None
                self._dead += 1
                timers = self._timers
                if self._dead > 256 and self._dead * 2 > len(timers):
                    # Compact: a long run of disarmed deadlines (say the engine's 600 s
                    # backstop on calls that end in milliseconds) must not pile up.
                    timers[:] = [entry for entry in timers if entry[4] is not None]
                    heapq.heapify(timers)
                    self._dead = 0
        if frame.remove is not None:
            frame.remove()
            frame.remove = None
        group = frame.group
        if group is not None:  # the gathering frame was cancelled: so are its bodies
            frame.group = None
            running, group.running = group.running, {}
            for child in running.values():
                self._kill(child)

    def _unwind(self, task: _Task, frame: _Frame, why: int) -> None:
        """Cancel ``frame`` and everything above it, then answer its parent."""
        if task.done or not frame.active:
            return
        self._close(task, frame)
        task.token += 1
        answer: Any
        if why == _EXPIRE:
            answer = Failure(Expired(frame.seconds))  # type: ignore[arg-type]
        elif why == _INTERRUPT:
            answer = Failure(Interrupted())
        else:
            answer = CallOutcome(Failure(CallCancelled()), self._clock - frame.start)
        self._ready.append((task, task.token, answer, None))

    def _listen(self, task: _Task, frame: _Frame, signal: CancelSignal, why: int) -> None:
        pending = self._pending
        frame.remove = signal.add_listener(lambda: pending.append((task, frame, why)))

    def _advance(self, task: _Task, value: Any, exc: BaseException | None) -> None:
        frames = task.frames
        immediate = self._immediate
        trace = self.trace
        while True:
            frame = frames[-1]
            gen = frame.gen
            try:
                if exc is None:
                    eff = gen.send(value)
                else:
                    error, exc = exc, None
                    eff = gen.throw(error)
            except StopIteration as stop:
                frames.pop()
                self._disarm(frame)
                if frame.kind == _ROOT:
                    task.result = stop.value
                    self._finish(task)
                    return
                if frame.kind == _SCOPE:
                    value = Success(stop.value)
                else:
                    value = CallOutcome(Success(stop.value), self._clock - frame.start)
                continue
            except KeyboardInterrupt:
                raise
            except BaseException as error:  # user code's fault: its own call's (or task's)
                frames.pop()
                self._disarm(frame)
                if frame.kind == _ROOT:
                    task.error = error
                    self._finish(task)
                    return
                if frame.kind == _SCOPE:
                    value, exc = None, error
                else:
                    value = failed(error, self._clock - frame.start)
                continue
            if trace is not None:
                trace.append(eff)
            kind = type(eff)
            handler = immediate.get(kind)
            if handler is not None:
                try:
                    value = handler(eff)
                except KeyboardInterrupt:
                    raise
                except BaseException as error:  # a store's fault: the asking call's
                    value, exc = None, store_failed(eff, error)
                continue
            value = None
            call = CALLS.get(kind)
            work = WORK.get(kind)
            if call is not None or work is not None or kind is RunProcess:
                try:
                    if call is not None:
                        fn, args, cancel = call(eff)
                        value = self._invoke(task, frame, fn, args, cancel)
                    elif work is not None:
                        value = work(eff)
                    else:
                        runner = self._process_runner
                        value = (
                            runner(eff) if runner is not None
                            else run_process_blocking(eff)
                        )
                except KeyboardInterrupt:
                    raise
                except BaseException as error:  # raised in the program that asked
                    value, exc = None, error
            elif kind is Sleep:
                if eff.seconds != _INF:
                    self._schedule(self._clock + eff.seconds, 1, self._wake, task, task.token)
                return
            elif kind is WithDeadline:
                signal = eff.cancel
                if signal is not None and signal.cancelled:
                    value = Failure(Interrupted())
                    continue
                try:
                    body = program_of(eff.body, "WithDeadline")
                except KeyboardInterrupt:
                    raise
                except BaseException as error:  # raised in the program that asked
                    exc = error
                    continue
                scope = _Frame(body, _SCOPE, frame.deadline)
                scope.seconds = eff.seconds
                if eff.seconds is not None:
                    due = self._clock + eff.seconds
                    if due < frame.deadline:  # only a tightening deadline arms a timer
                        scope.deadline = due
                        scope.timer = self._schedule(due, 0, self._unwind, task, scope, _EXPIRE)
                if signal is not None:
                    self._listen(task, scope, signal, _INTERRUPT)
                frames.append(scope)
            elif kind is Gather:
                if not eff.bodies:
                    value = ()
                    continue
                self._gather(task, frame, eff)
                return
            elif isinstance(eff, Effect):
                exc = ProgramError(f"the simulated interpreter has no handler for {eff!r:.80}")
            else:
                exc = not_an_effect(gen, eff)

    def _invoke(
        self,
        task: _Task,
        frame: _Frame,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        signal: CancelSignal | None = None,
    ) -> Any:
        """Call user code. Returns the answer, or None after pushing a program frame."""
        if signal is not None and signal.cancelled:
            return CallOutcome(Failure(CallCancelled()), 0.0)
        try:
            out = fn(*args)
        except KeyboardInterrupt:
            raise
        except BaseException as error:  # whatever user code raised ends its call only
            return failed(error, 0.0)
        if type(out) is str:  # the common case: a plain tool's text
            return CallOutcome(Success(out), 0.0)
        if type(out) is GeneratorType:
            call = _Frame(out, _INVOKE, frame.deadline)
            call.start = self._clock
            if signal is not None:
                self._listen(task, call, signal, _CANCEL_CALL)
            task.frames.append(call)
            return None
        if inspect.isawaitable(out):
            if inspect.iscoroutine(out):
                out.close()
            return CallOutcome(
                Failure(Unsupported(
                    f"{getattr(fn, '__qualname__', fn)!s} is a coroutine function; the "
                    "simulated interpreter runs only plain functions and programs "
                    "(generators yielding effects)"
                )),
                0.0,
            )
        return CallOutcome(Success(out), 0.0)


def run(program: Program[R], seed: int = 0) -> R:
    """Run one program on a fresh simulated interpreter."""
    return SimulatedInterpreter(seed).run(program)
