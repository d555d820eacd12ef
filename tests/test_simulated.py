"""The simulated interpreter: virtual time, deadlines, ties, cancellation, deadlocks."""

import math
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from returns.result import Failure, Success

from interpreters.simulated import SimulatedInterpreter, SimulationDeadlock
from toolpipe import CancelSignal, DispatchContext, ProgramError, ToolPipeline
from toolpipe.effects import (
    Emit,
    Expired,
    Interrupted,
    IsCancelled,
    Now,
    Sleep,
    WithDeadline,
)

from .helpers import registry, sleeper


def sleep_then(seconds, value):
    yield Sleep(seconds)
    return value


def test_clock_jumps_and_two_minute_timeout_takes_microseconds():
    sim = SimulatedInterpreter()

    def prog():
        return (yield WithDeadline(120.0, lambda: sleep_then(math.inf, "never")))

    start = time.perf_counter()
    assert sim.run(prog()) == Failure(Expired(120.0))
    assert time.perf_counter() - start < 1.0  # 120 s on the virtual clock, no real wait
    assert sim.now == 120.0


def test_nested_deadline_inner_tighter_and_looser():
    sim = SimulatedInterpreter()

    def inner_tight():
        return (yield WithDeadline(1.0, lambda: sleep_then(5, "x")))

    def outer():
        inner = yield WithDeadline(10.0, inner_tight)
        return inner, (yield Now())

    assert sim.run(outer()) == (Success(Failure(Expired(1.0))), 1.0)

    sim2 = SimulatedInterpreter()

    def inner_loose():
        return (yield WithDeadline(50.0, lambda: sleep_then(20, "x")))

    def outer2():
        return (yield WithDeadline(10.0, inner_loose))

    assert sim2.run(outer2()) == Failure(Expired(10.0))  # the outer deadline wins
    assert sim2.now == 10.0
    # the looser inner deadline armed no timer: only the outer one was ever scheduled
    assert sim2._seq == 2  # outer deadline + the sleep's wake-up


def test_deadline_fires_before_a_wakeup_at_the_same_instant():
    for seed in range(20):
        sim = SimulatedInterpreter(seed)

        def prog():
            return (yield WithDeadline(2.0, lambda: sleep_then(2.0, "made it")))

        assert sim.run(prog()) == Failure(Expired(2.0))


def test_body_cleanup_runs_on_expiry():
    cleaned = []

    def body():
        try:
            yield Sleep(10)
        finally:
            cleaned.append("closed")

    def prog():
        return (yield WithDeadline(1.0, body))

    SimulatedInterpreter().run(prog())
    assert cleaned == ["closed"]


def test_exception_in_scope_body_is_raised_in_the_parent():
    def body():
        yield Sleep(1)
        raise LookupError("inner")

    def prog():
        try:
            yield WithDeadline(5.0, body)
        except LookupError as exc:
            return f"caught {exc}"

    assert SimulatedInterpreter().run(prog()) == "caught inner"


def test_signal_interrupts_a_scope_at_the_scheduled_time():
    sim = SimulatedInterpreter()
    signal = CancelSignal()
    sim.cancel_at(signal, 4.5)

    def prog():
        answer = yield WithDeadline(None, lambda: sleep_then(10, "x"), signal)
        return answer, (yield Now()), (yield IsCancelled(signal))

    assert sim.run(prog()) == (Failure(Interrupted()), 4.5, True)


def test_seed_breaks_ties_and_replays_exactly():
    def order(seed):
        sim = SimulatedInterpreter(seed)

        def prog(i):
            yield Sleep(1.0)
            yield Emit(i)
            return i

        sim.run_all([prog(i) for i in range(8)])
        return sim.events

    assert order(1) == order(1)
    assert len({tuple(order(s)) for s in range(6)}) > 1  # different seeds, different ties


def test_deadlock_is_reported():
    def forever():
        yield Sleep(math.inf)

    with pytest.raises(SimulationDeadlock, match="wait forever"):
        SimulatedInterpreter().run(forever())


def test_run_rejects_non_programs():
    with pytest.raises(ProgramError, match="expects a program"):
        SimulatedInterpreter().run("nope")  # type: ignore[arg-type]


def test_bad_body_factory():
    def prog():
        return (yield WithDeadline(1.0, lambda: "not a program"))

    with pytest.raises(ProgramError, match="body factory"):
        SimulatedInterpreter().run(prog())


def test_sleep_validation():
    with pytest.raises(ValueError):
        Sleep(-1)
    with pytest.raises(ValueError):
        Sleep(float("nan"))
    with pytest.raises(ValueError):
        WithDeadline(0, lambda: None)


def test_advance_runs_only_what_is_due():
    sim = SimulatedInterpreter()
    h = sim.spawn(sleep_then(5, "x"))
    sim.advance(4)
    assert not h.done and sim.now == 4
    sim.advance(1)
    assert h.done and h.result() == "x"


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=1000), min_size=1, max_size=60),
       st.integers(0, 2**16))
def test_many_concurrent_dispatches_virtual_times_exact(latencies, seed):
    sim = SimulatedInterpreter(seed)
    reg = registry(**{f"t{i}": sleeper(lat / 8) for i, lat in enumerate(latencies)})
    p = ToolPipeline.new(reg)

    def timed(i):
        start = yield Now()
        r = yield from p.dispatch(DispatchContext(f"t{i}"))
        return r, (yield Now()) - start

    out = sim.run_all([timed(i) for i in range(len(latencies))])
    for (r, spent), lat in zip(out, latencies, strict=True):
        assert r.duration == lat / 8 and spent == lat / 8
    assert sim.now == max(latencies) / 8


def test_thousands_of_dispatches_quickly():
    sim = SimulatedInterpreter()
    p = ToolPipeline.new(registry(s=sleeper(1.0)))
    start = time.perf_counter()
    results = sim.run_all([p.dispatch(DispatchContext("s")) for _ in range(5000)])
    assert len(results) == 5000 and all(r.duration == 1.0 for r in results)
    assert sim.now == 1.0
    assert time.perf_counter() - start < 5


def test_disarmed_deadlines_do_not_pile_up_in_the_timer_heap():
    """Thousands of calls that finish long before their deadline: the heap is compacted,
    and a deadline that does fire is not miscounted."""
    from toolpipe.effects import Now, Sleep, WithDeadline

    def quick():
        return (yield WithDeadline(600, lambda: (yield Sleep(0.001)) or "ok"))

    def slow():
        return (yield WithDeadline(0.5, lambda: (yield Sleep(5)) or "late"))

    sim = SimulatedInterpreter(collect_events=False)
    for i in range(3000):
        answer = sim.run(slow() if i % 100 == 0 else quick())
        assert answer.unwrap() == "ok" if i % 100 else answer.failure().seconds == 0.5
        assert len(sim._timers) <= 2 * 256 + 2
    assert sim._dead == sum(1 for entry in sim._timers if entry[4] is None)

    def clock():
        return (yield Now())

    expected = 0.0
    for i in range(3000):  # the simulator's own float arithmetic, in the same order
        expected += 0.5 if i % 100 == 0 else 0.001
    assert sim.run(clock()) == expected
    assert sim.events == []  # collect_events=False keeps nothing
