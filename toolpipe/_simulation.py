"""The test kit's deterministic simulation at scale: thousands of concurrent dispatches with
random latencies, timeouts, retries and cancellations on the simulated clock, each checked
against its planned fate. Pure: the simulated interpreter is handed in by the public face,
:func:`toolpipe.testing.simulate` (the kit's edge)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import attrs

from toolpipe.context import CancelSignal, DispatchContext
from toolpipe.effects import Now, Sleep
from toolpipe.layers.timeout import TimeoutConfig, TimeoutMiddleware
from toolpipe.pipeline import ToolPipeline
from toolpipe.program import Program
from toolpipe.registry import Tool, ToolRegistry

# --- deterministic simulation at scale -------------------------------------------------------


@attrs.frozen
class Planned:
    """One dispatch of the simulation, and what must happen to it, computed by hand."""

    latency: float
    timeout: float
    retries: int
    cancel_at: float | None
    expected_text: str
    expected_end: float


@attrs.frozen
class SimulationReport:
    dispatches: int
    seed: int
    outcomes: tuple[tuple[str, float], ...]
    """(text, virtual end time) of every dispatch, in order."""
    mismatches: tuple[str, ...]
    virtual_end: float

    @property
    def ok(self) -> bool:
        return not self.mismatches and len(self.outcomes) == self.dispatches


def plan(rng: random.Random, index: int) -> Planned:
    """Draw one dispatch and work out its fate: attempts under doubling deadlines, then a
    possible cancellation, with the simulator's exact float arithmetic."""
    latency = round(rng.uniform(0.0, 40.0), 3)
    timeout = rng.choice([1.0, 2.5, 5.0, 10.0])
    retries = rng.choice([0, 0, 1, 2, 3])
    cancel_at = round(rng.uniform(0.0, 60.0), 4) + 0.00005 if rng.random() < 0.3 else None
    clock, deadline, text = 0.0, timeout, ""
    for attempt in range(retries + 1):
        if latency < deadline:
            clock, text = clock + latency, "done"
            break
        clock += deadline
        if attempt == retries:
            text = f"Tool 't' timed out after {deadline:g}s"
        else:
            deadline *= 2
    if cancel_at is not None and cancel_at < clock:
        clock, text = cancel_at, "Tool 't' cancelled"
    return Planned(latency, timeout, retries, cancel_at, text, clock)


def simulate_on(sim: Any, dispatches: int, seed: int) -> SimulationReport:
    """Run ``dispatches`` concurrent dispatches on ``sim`` (a ``SimulatedInterpreter``
    seeded with ``seed``), each with a random latency, timeout, retries and maybe a
    cancellation at a random virtual time, through a timeout layer. Checks every result
    and its virtual end time against the plan."""
    rng = random.Random(seed)
    plans = [plan(rng, i) for i in range(dispatches)]

    def tool(input: Mapping[str, Any], context: Any) -> Program[str]:
        yield Sleep(input["latency"])
        return "done"

    registry = ToolRegistry([Tool.from_function("t", tool)])
    pipelines: dict[tuple[float, int], ToolPipeline] = {}
    programs = []
    for p in plans:
        key = (p.timeout, p.retries)
        if key not in pipelines:
            layer = TimeoutMiddleware(TimeoutConfig(p.timeout, p.retries > 0, p.retries))
            pipelines[key] = ToolPipeline.builder().with_middleware(layer) \
                .with_core(registry).build()
        signal = CancelSignal()
        if p.cancel_at is not None:
            sim.cancel_at(signal, p.cancel_at)
        ctx = DispatchContext("t", {"latency": p.latency}, cancel=signal)
        programs.append(_ended(pipelines[key], ctx))
    outcomes = tuple(sim.run_all(programs))
    mismatches = tuple(
        f"dispatch {i}: planned {p.expected_text!r} at {p.expected_end}, got {text!r} at {end}"
        for i, (p, (text, end)) in enumerate(zip(plans, outcomes, strict=True))
        if (text, end) != (p.expected_text, p.expected_end)
    )
    return SimulationReport(dispatches, seed, outcomes, mismatches[:20], sim.now)


def _ended(pipeline: ToolPipeline, ctx: DispatchContext) -> Program[tuple[str, float]]:
    result = yield from pipeline.dispatch(ctx)
    return result.text, (yield Now())
