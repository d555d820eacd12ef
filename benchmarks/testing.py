"""Figures of the test kit: the simulation suite's dispatches per second, and replay speed
in effects per second (a recorded session replayed on the simulated clock)."""

from __future__ import annotations

import asyncio
import io
import time
from typing import Any

from benchmarks.common import eight_layer_builder
from interpreters.asyncio import AsyncioInterpreter
from interpreters.recording import TraceRecorder
from interpreters.simulated import SimulatedInterpreter
from toolpipe import Engine, Tool, ToolCall, ToolRegistry
from toolpipe.effects import Sleep
from toolpipe.session import load_trace, replay, replay_registry
from toolpipe.testing import simulate


def simulation(n: int, repeats: int) -> float:
    best = float("inf")
    for seed in range(repeats):
        start = time.perf_counter()
        report = simulate(n, seed)
        best = min(best, time.perf_counter() - start)
        assert report.ok, report.mismatches
    return n / best


def _tool(input: Any, context: Any) -> Any:
    yield Sleep(0.0005)
    return f"output of {input['path']}"


def recorded_session(turns: int) -> str:
    """A real asyncio session: ``turns`` turns of 8 calls through the eight shipped layers."""
    reg = ToolRegistry([
        Tool.from_function("Read", _tool, concurrency_safe=True, resource_key_from="path"),
        Tool.from_function("Write", _tool),
    ])
    engine = Engine(reg)
    engine.set_pipeline(eight_layer_builder(reg))
    sink = io.StringIO()
    recorder = TraceRecorder(sink, interpreter="asyncio", tools=reg.declarations())

    def session() -> Any:
        for t in range(1, turns + 1):
            calls = [ToolCall(f"r{t}-{i}", "Read", {"path": f"f{(t + i) % 11}"})
                     for i in range(6)]
            calls += [ToolCall(f"w{t}", "Write", {"path": f"f{t % 11}"}),
                      ToolCall(f"g{t}", "Glob", {"pattern": "*"})]
            yield from engine.dispatch_turn(calls, turn=t)

    async def main() -> None:
        await AsyncioInterpreter(recorder=recorder).run(session())

    asyncio.run(main())
    return sink.getvalue()


def replay_speed(turns: int, repeats: int) -> tuple[int, float, float]:
    """(effects recorded, replayed effects per second, trace lines loaded per second)."""
    text = recorded_session(turns)
    lines = text.splitlines(keepends=True)
    best_load = best_run = float("inf")
    effects = 0
    for _ in range(repeats):
        start = time.perf_counter()
        trace = load_trace(lines)
        best_load = min(best_load, time.perf_counter() - start)
        registry, _ = replay_registry(trace)
        sim = SimulatedInterpreter(record=True)
        start = time.perf_counter()
        sim.run(replay(trace, eight_layer_builder(registry), registry))
        best_run = min(best_run, time.perf_counter() - start)
        effects = len(sim.trace or [])
    return trace.effects, effects / best_run, len(lines) / best_load


def report(sim_rate: float, replayed: tuple[int, float, float]) -> list[str]:
    recorded, effects_per_s, lines_per_s = replayed
    return [
        "## The test kit",
        "",
        f"- Simulation suite (`toolpipe.testing.simulate`): 10,000 concurrent dispatches "
        f"with random latencies, timeouts, retries and cancellations, each checked against "
        f"its planned fate: **{sim_rate:,.0f} dispatches/s** (wall clock).",
        f"- Replay: a real asyncio session of {recorded:,} effects (turns of 8 calls through "
        f"the eight shipped layers) replayed on the simulated clock: **{effects_per_s:,.0f} "
        f"effects/s**; loading and checking the trace: **{lines_per_s:,.0f} lines/s**.",
        "",
    ]
