"""TimeoutMiddleware, on the simulated clock first, then on asyncio and trio."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreters.simulated import SimulatedInterpreter
from toolpipe import (
    CancelSignal,
    ConfigError,
    DispatchContext,
    TimeoutConfig,
    TimeoutMiddleware,
    ToolPipeline,
)
from toolpipe.effects import Now, Sleep

from .helpers import dispatch, registry, sleeper


def pipeline(layer, **tools):
    return ToolPipeline.builder().with_middleware(layer).with_core(registry(**tools)).build()


def timed(p, ctx):
    start = yield Now()
    r = yield from p.dispatch(ctx)
    return r, (yield Now()) - start


def test_defaults():
    assert TimeoutConfig() == TimeoutConfig(120.0, False, 0)
    assert TimeoutMiddleware().config.timeout == 120.0
    assert TimeoutMiddleware.from_secs(30).config == TimeoutConfig(30.0, False, 0)
    assert TimeoutMiddleware.none().config.timeout is None
    assert TimeoutMiddleware().name == "timeout"


@pytest.mark.parametrize("bad", [-1, 0, float("nan"), float("inf"), "10", True])
def test_bad_timeouts_rejected_naming_the_argument(bad):
    with pytest.raises(ConfigError, match="timeout"):
        TimeoutConfig(timeout=bad)


@pytest.mark.parametrize("bad", [-1, 1.5, None])
def test_bad_retries_rejected(bad):
    with pytest.raises(ConfigError, match="max_retries"):
        TimeoutConfig(max_retries=bad)


def test_default_two_minutes_on_the_simulated_clock():
    p = pipeline(TimeoutMiddleware(), slow=sleeper(math.inf))
    r, spent = SimulatedInterpreter().run(timed(p, DispatchContext("slow")))
    assert r.is_error and r.text == "Tool 'slow' timed out after 120s"
    assert r.duration == 120.0 and spent == 120.0


# Latencies and deadlines in eighths of a second: exact in binary floating point.
eighths = st.integers(min_value=1, max_value=400).map(lambda n: n / 8)


@settings(max_examples=200, deadline=None)
@given(eighths, eighths, st.integers(min_value=0, max_value=5), st.booleans())
def test_law_succeeds_iff_latency_below_some_doubled_deadline(latency, deadline, retries, retry):
    layer = TimeoutMiddleware(TimeoutConfig(deadline, retry, retries))
    p = pipeline(layer, t=sleeper(latency, "ok"))
    r, spent = SimulatedInterpreter().run(timed(p, DispatchContext("t")))
    allowed = retries if retry else 0
    winning = [k for k in range(allowed + 1) if latency < deadline * 2**k]
    if winning:
        k = winning[0]
        assert not r.is_error and r.text == "ok" and r.duration == latency
        assert spent == deadline * (2**k - 1) + latency
    else:
        last = deadline * 2**allowed
        assert r.is_error and r.text == f"Tool 't' timed out after {last:g}s"
        assert r.duration == last
        assert spent == deadline * (2 ** (allowed + 1) - 1)


def test_at_most_one_plus_max_retries_attempts_and_cleanup_runs_each_time():
    attempts, cleaned = [], []

    def tool(input, context):
        attempts.append(1)
        try:
            yield Sleep(1000)
        finally:
            cleaned.append(1)
        return "never"

    p = pipeline(TimeoutMiddleware(TimeoutConfig(1, True, 3)), t=tool)
    r = SimulatedInterpreter().run(p.dispatch(DispatchContext("t")))
    assert r.text == "Tool 't' timed out after 8s" and r.duration == 8
    assert len(attempts) == 4 and len(cleaned) == 4


def test_retry_flag_off_ignores_max_retries():
    p = pipeline(TimeoutMiddleware(TimeoutConfig(1, False, 5)), t=sleeper(1.5))
    r = SimulatedInterpreter().run(p.dispatch(DispatchContext("t")))
    assert r.text == "Tool 't' timed out after 1s"


def test_fractional_deadline_text():
    p = pipeline(TimeoutMiddleware.from_secs(0.5), t=sleeper(1))
    assert SimulatedInterpreter().run(p.dispatch(DispatchContext("t"))).text == (
        "Tool 't' timed out after 0.5s"
    )


def test_cancelled_from_outside():
    signal = CancelSignal()
    sim = SimulatedInterpreter()
    sim.cancel_at(signal, 2.0)
    p = pipeline(TimeoutMiddleware.from_secs(10), t=sleeper(5))
    r, spent = sim.run(timed(p, DispatchContext("t", cancel=signal)))
    assert r.is_error and r.text == "Tool 't' cancelled" and r.duration == 0.0 and spent == 2.0


def test_none_never_times_out():
    p = pipeline(TimeoutMiddleware.none(), t=sleeper(10_000))
    r = SimulatedInterpreter().run(p.dispatch(DispatchContext("t")))
    assert not r.is_error and r.duration == 10_000


def test_timeout_bounds_the_layers_inside_it():
    class SlowLayer:
        name = "slow_layer"

        def dispatch(self, ctx, next):
            yield Sleep(3)
            return (yield from next(ctx))

    p = (ToolPipeline.builder().with_middleware(TimeoutMiddleware.from_secs(2))
         .with_middleware(SlowLayer()).with_core(registry(t=sleeper(0.5))).build())
    r = SimulatedInterpreter().run(p.dispatch(DispatchContext("t")))
    assert r.text == "Tool 't' timed out after 2s"


@pytest.mark.process
@pytest.mark.parametrize("kind", ["asyncio", "trio"])
def test_real_clocks_timeout_and_retry(kind):
    """A 1 s deadline against a tool that hangs on its first attempt and answers at once on
    its second: no verdict depends on the machine's speed (about 1 s of real waiting)."""
    attempts = []

    def hangs_once(input, context):
        attempts.append(1)
        if len(attempts) == 1:
            yield Sleep(math.inf)
        return "ok"

    p = pipeline(TimeoutMiddleware(TimeoutConfig(1.0, True, 1)), t=hangs_once)
    r = dispatch(kind, p, DispatchContext("t"))
    assert not r.is_error and r.text == "ok" and len(attempts) == 2


@pytest.mark.parametrize("kind", ["asyncio", "trio"])
def test_real_clock_cleanup_of_the_in_flight_attempt(kind):
    cleaned = []

    def tool(input, context):
        try:
            yield Sleep(5)
        finally:
            cleaned.append(1)
        return "x"

    r = dispatch(kind, pipeline(TimeoutMiddleware.from_secs(0.02), t=tool), DispatchContext("t"))
    assert r.text == "Tool 't' timed out after 0.02s" and cleaned == [1]


def test_a_pipeline_files_timeout_retries_only_what_is_safe_to_run_twice():
    """A write that timed out may still have happened: only readers, searchers and tools
    declared idempotent are run again (the MCP proxy's ledger tool ran twice before)."""
    from toolpipe import Tool, ToolRegistry
    from toolpipe.config import load_pipeline

    runs: dict[str, int] = {}

    def slow_once(name):
        def tool(input, context):
            runs[name] = runs.get(name, 0) + 1
            yield Sleep(5 if runs[name] == 1 else 0.1)
            return f"{name} done"
        return tool

    reg = ToolRegistry([
        Tool.from_function("append_ledger", slow_once("append_ledger")),  # role other
        Tool.from_function("Write", slow_once("Write")),  # a writer by its name
        Tool.from_function("Read", slow_once("Read")),  # a reader by its name
        Tool.from_function("get_status", slow_once("get_status"), idempotent=True),
        Tool.from_function("read_file", slow_once("read_file"), idempotent=False),
    ])
    text = ('[[layer]]\nname = "timeout"\ntimeout = 1\nretry_on_timeout = true\n'
            'max_retries = 2\n')
    pipe = load_pipeline(text, reg).with_core(reg).build()
    texts = {name: SimulatedInterpreter().run(pipe.dispatch(DispatchContext(name))).text
             for name in ("append_ledger", "Write", "Read", "get_status", "read_file")}
    assert runs == {"append_ledger": 1, "Write": 1, "Read": 2, "get_status": 2,
                    "read_file": 1}
    assert texts["append_ledger"] == "Tool 'append_ledger' timed out after 1s"
    assert texts["Read"] == "Read done" and texts["get_status"] == "get_status done"
    # in code, without retry_tools, every tool is retried as before
    everyone = ToolPipeline.builder().with_middleware(TimeoutMiddleware(
        TimeoutConfig(1, True, 2))).with_core(reg).build()
    assert SimulatedInterpreter().run(everyone.dispatch(DispatchContext(
        "append_ledger"))).text == "append_ledger done"


def test_mcp_hints_say_what_is_safe_to_retry():
    from toolpipe.integrations.mcp import registry_from_tools

    tools = [{"name": "ledger", "inputSchema": {"type": "object"}},
             {"name": "status", "annotations": {"readOnlyHint": True}},
             {"name": "put", "annotations": {"idempotentHint": True,
                                             "destructiveHint": True}},
             {"name": "delete", "annotations": {"destructiveHint": True}}]
    reg = registry_from_tools(object(), tools)
    safe = {t.name for t in (reg.get(n) for n in reg.names()) if t.declaration.retry_safe}
    assert safe == {"status", "put"}
