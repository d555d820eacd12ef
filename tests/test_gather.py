"""The Gather effect: concurrent bodies, a limit, results in order, failures isolated, and
cancellation of the gatherer reaching every running body, on all three interpreters."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from returns.result import Failure, Success

from interpreters.simulated import SimulatedInterpreter
from tests.helpers import INTERPRETERS, run_program
from toolpipe import CancelSignal
from toolpipe.effects import Gather, Now, Sleep, WithDeadline
from toolpipe.errors import ProgramError


class Meter:
    """Counts how many bodies run at once."""

    def __init__(self):
        self.now = 0
        self.peak = 0
        self.closed = 0

    def body(self, latency, value):
        def program():
            self.now += 1
            self.peak = max(self.peak, self.now)
            try:
                yield Sleep(latency)
            finally:
                self.now -= 1
                self.closed += 1
            return value

        return program


@pytest.mark.parametrize("kind", INTERPRETERS)
def test_results_in_order_and_limit_respected(kind):
    meter = Meter()
    latencies = [0.03, 0.01, 0.02, 0.0, 0.01]

    def main():
        return (yield Gather([meter.body(lat, i) for i, lat in enumerate(latencies)], limit=2))

    results = run_program(kind, main)
    assert results == tuple(Success(i) for i in range(5))
    assert meter.peak == 2


def test_virtual_time_is_exact_with_a_limit():
    meter = Meter()

    def main():
        start = yield Now()
        yield Gather([meter.body(1.0, i) for i in range(5)], limit=2)
        return (yield Now()) - start

    assert SimulatedInterpreter().run(main()) == 3.0  # 2 + 2 + 1 bodies, one second each


def test_no_limit_runs_everything_at_once():
    meter = Meter()

    def main():
        yield Gather([meter.body(4.0, i) for i in range(100)])
        return (yield Now())

    assert SimulatedInterpreter().run(main()) == 4.0 and meter.peak == 100


@pytest.mark.parametrize("kind", INTERPRETERS)
def test_a_failing_body_does_not_disturb_its_siblings(kind):
    def bad():
        yield Sleep(0)
        raise ValueError("boom")

    def good():
        yield Sleep(0.01)
        return "ok"

    def main():
        return (yield Gather([bad, good, lambda: "not a program"]))

    first, second, third = run_program(kind, main)
    assert isinstance(first, Failure) and str(first.failure()) == "boom"
    assert second == Success("ok")
    assert isinstance(third.failure(), ProgramError)


@pytest.mark.parametrize("kind", INTERPRETERS)
def test_empty_gather(kind):
    def main():
        return (yield Gather([]))

    assert run_program(kind, main) == ()


@pytest.mark.parametrize("kind", INTERPRETERS)
def test_deadline_around_a_gather_cancels_every_running_body(kind):
    meter = Meter()

    def main():
        answer = yield WithDeadline(
            0.05, lambda: (yield Gather([meter.body(10, i) for i in range(4)], limit=3))
        )
        return answer

    answer = run_program(kind, main)
    assert isinstance(answer, Failure)
    assert meter.closed == 3 and meter.now == 0  # the three started bodies were closed


def test_signal_around_a_gather_cancels_bodies_at_the_exact_time():
    meter = Meter()
    signal = CancelSignal()
    sim = SimulatedInterpreter()
    sim.cancel_at(signal, 2.5)

    def gathered():
        return (yield Gather([meter.body(i + 1.0, i) for i in range(5)]))

    def main():
        answer = yield WithDeadline(None, gathered, signal)
        return answer, (yield Now())

    answer, now = sim.run(main())
    assert isinstance(answer, Failure) and now == 2.5
    assert meter.closed == 5 and meter.now == 0


def test_nested_gathers():
    def inner(n):
        return lambda: (yield Gather([lambda i=i: (yield Sleep(i)) or i for i in range(n)]))

    def main():
        return (yield Gather([inner(2), inner(3)], limit=1)), (yield Now())

    results, now = SimulatedInterpreter().run(main())
    assert [r.unwrap() for r in results] == [(Success(0), Success(1)),
                                             (Success(0), Success(1), Success(2))]
    assert now == 1 + 2


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=0, max_size=20), st.integers(1, 6),
       st.integers(0, 2**16))
def test_makespan_is_greedy_list_scheduling(latencies, limit, seed):
    """Bodies start in order as slots free up: the finish time is the list-scheduling
    makespan, whatever the seed."""
    meter = Meter()

    def main():
        yield Gather([meter.body(lat, i) for i, lat in enumerate(latencies)], limit=limit)
        return (yield Now())

    slots = [0] * limit
    for lat in latencies:
        slots.sort()
        slots[0] += lat
    assert SimulatedInterpreter(seed).run(main()) == max(slots, default=0)
    assert meter.peak <= limit


def test_limit_is_validated():
    with pytest.raises(ValueError, match="limit"):
        Gather([], limit=0)
