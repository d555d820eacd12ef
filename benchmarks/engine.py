"""Engine figures: a turn's wall time against the ideal on asyncio, and simulated turns/s.

The ideal of a turn is what its tools' latencies allow: the longest latency when every call
can run at once, the sum when none can, the list-scheduling makespan under a concurrency
limit. The ratio measured/ideal is the engine's overhead (1.00 is perfect).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from benchmarks.common import eight_layer_builder
from interpreters.asyncio import AsyncioInterpreter
from interpreters.simulated import SimulatedInterpreter
from toolpipe import Engine, Tool, ToolCall, ToolRegistry
from toolpipe.effects import Sleep

LATENCY = 0.02
CALLS = 32


def sleeper(input: Any, context: Any) -> Any:
    yield Sleep(input.get("latency", LATENCY))
    return "x" * 256


def registry() -> ToolRegistry:
    return ToolRegistry([
        Tool.from_function("Read", sleeper, concurrency_safe=True, resource_key_from="path"),
        Tool.from_function("Write", sleeper),
    ])


def turn(tool: str, n: int = CALLS) -> list[ToolCall]:
    return [ToolCall(f"c{i}", tool, {"path": f"f{i}"}) for i in range(n)]


def makespan(latencies: list[float], limit: int) -> float:
    slots = [0.0] * limit
    for latency in latencies:
        slots.sort()
        slots[0] += latency
    return max(slots)


async def wall(engine: Engine, calls: list[ToolCall], repeats: int) -> float:
    interp = AsyncioInterpreter()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        await interp.run(engine.dispatch_turn(calls))
        best = min(best, time.perf_counter() - start)
    return best


def asyncio_turns(repeats: int) -> list[tuple[str, float, float]]:
    """(case, measured seconds, ideal seconds)."""
    reg = registry()
    lat = [LATENCY] * CALLS

    async def main() -> list[tuple[str, float, float]]:
        rows = []
        for label, tool, limit, ideal in (
            ("32 safe calls, max_concurrency 32", "Read", 32, max(lat)),
            ("32 safe calls, max_concurrency 8 (default)", "Read", 8, makespan(lat, 8)),
            ("32 exclusive calls", "Write", 8, sum(lat)),
        ):
            engine = Engine(reg, max_concurrency=limit)
            engine.set_pipeline(eight_layer_builder(reg))
            rows.append((label, await wall(engine, turn(tool), repeats), ideal))
        return rows

    return asyncio.run(main())


def simulated_turns(n: int, repeats: int) -> dict[str, float]:
    """Turns per second of wall time, 8 calls a turn (6 safe reads, 2 writes)."""
    reg = registry()
    calls = [*turn("Read", 6), ToolCall("w1", "Write", {"path": "a"}),
             ToolCall("w2", "Write", {"path": "b"})]
    out = {}
    for label, layered in (("core only", False), ("eight shipped layers", True)):
        engine = Engine(reg)
        if layered:
            engine.set_pipeline(eight_layer_builder(reg))
        best = float("inf")
        for _ in range(repeats):
            sim = SimulatedInterpreter()
            start = time.perf_counter()
            for t in range(n):
                sim.run(engine.dispatch_turn(calls, turn=t + 1))
            best = min(best, time.perf_counter() - start)
        out[label] = n / best
    return out


def report(rows: list[tuple[str, float, float]], sim: dict[str, float]) -> list[str]:
    lines = [
        "## The engine",
        "",
        f"A turn of {CALLS} calls whose tools each take {LATENCY * 1e3:.0f} ms "
        "(`yield Sleep`), through all eight shipped layers, on asyncio. The ideal is what "
        "the latencies allow: the longest one when all calls run at once, the "
        "list-scheduling makespan under the concurrency limit, the sum when every call is "
        "exclusive.",
        "",
        "| turn | wall | ideal | wall / ideal |",
        "|---|---:|---:|---:|",
    ]
    for label, measured, ideal in rows:
        lines.append(f"| {label} | {measured * 1e3:.1f} ms | {ideal * 1e3:.1f} ms | "
                     f"{measured / ideal:.2f}x |")
    lines += [
        "",
        "Simulated engine, turns of 8 calls (6 concurrent reads in one wave, then 2 "
        "writes), wall-clock turns per second: "
        + ", ".join(f"**{v:,.0f}/s** ({k})" for k, v in sim.items()) + ".",
        "",
    ]
    return lines
