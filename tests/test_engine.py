"""The engine: set_pipeline, wave planning, turn dispatch, id stamping, the agent loop."""

import asyncio

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreters.asyncio import AsyncioInterpreter
from interpreters.simulated import SimulatedInterpreter
from tests.helpers import INTERPRETERS, run_program
from toolpipe import (
    Agent,
    CancelSignal,
    ConfigError,
    DispatchResult,
    Engine,
    ModelReply,
    PermissionMiddleware,
    PipelineError,
    ScriptedModel,
    TextContent,
    Tool,
    ToolCall,
    ToolPipeline,
    ToolRegistry,
    UnknownToolMiddleware,
    plan_waves,
)
from toolpipe._faults import ComponentFault
from toolpipe.agent import CallFinished, TurnPlanned
from toolpipe.effects import Now, Sleep
from toolpipe.failures import ComponentFailed


def sleeper(name, latency=1.0, *, safe=False, key_from=None, key=None):
    def tool(input, context):
        yield Sleep(input.get("latency", latency))
        return f"{name}:{input.get('path', '')}"

    return Tool.from_function(name, tool, concurrency_safe=safe, resource_key_from=key_from,
                              resource_key=key)


def make_registry():
    return ToolRegistry([
        sleeper("Read", safe=True, key_from="path"),
        sleeper("Glob", safe=True),
        sleeper("Write"),
        sleeper("Lock", safe=True, key="db"),
    ])


def call(name, i, **input):
    return ToolCall(f"c{i}", name, input)


# --- set_pipeline --------------------------------------------------------------------------


def test_default_pipeline_is_the_core_alone():
    assert Engine(make_registry()).middleware_names() == ["tool_call"]


def test_set_pipeline_injects_the_engines_registry():
    engine = Engine(make_registry())
    engine.set_pipeline(ToolPipeline.builder().with_middleware(PermissionMiddleware.allow_all()))
    assert engine.middleware_names() == ["permission", "tool_call"]
    assert engine.pipeline.core.registry is engine.registry


def test_set_pipeline_refuses_a_builder_with_a_core():
    engine = Engine(make_registry())
    with pytest.raises(PipelineError, match="already has a core"):
        engine.set_pipeline(ToolPipeline.builder().with_core(make_registry()))


def test_with_core_on_an_engine_builder_is_an_error():
    builder = Engine(make_registry()).pipeline_builder()
    with pytest.raises(PipelineError, match="engine injects"):
        builder.with_core(make_registry())


def test_set_pipeline_after_the_first_run_is_an_error():
    engine = Engine(make_registry())
    SimulatedInterpreter().run(engine.dispatch_turn([call("Read", 0, path="a")]))
    with pytest.raises(PipelineError, match="first run"):
        engine.set_pipeline(ToolPipeline.builder())


def test_bad_engine_arguments():
    with pytest.raises(ConfigError, match="max_concurrency"):
        Engine(make_registry(), max_concurrency=0)
    with pytest.raises(ConfigError, match="registry"):
        Engine({"Read": None})
    with pytest.raises(PipelineError, match="PipelineBuilder"):
        Engine(make_registry()).set_pipeline("permission")


# --- wave planning -------------------------------------------------------------------------


def waves(calls, **kw):
    return [(w.calls, w.exclusive) for w in plan_waves(calls, make_registry(), **kw)]


def test_exclusive_calls_get_their_own_closed_wave():
    calls = [call("Write", 0), call("Write", 1)]
    assert waves(calls) == [((0,), True), ((1,), True)]


def test_safe_calls_share_a_wave_unless_they_share_a_resource_key():
    calls = [call("Read", 0, path="a"), call("Read", 1, path="b"), call("Read", 2, path="a"),
             call("Glob", 3), call("Lock", 4), call("Lock", 5)]
    assert waves(calls) == [((0, 1, 3, 4), False), ((2, 5), False)]


def test_first_fit_joins_the_earliest_open_wave():
    # The spec's rule: a safe call joins the earliest open wave without its key, even one
    # before an exclusive call.
    calls = [call("Read", 0, path="a"), call("Write", 1), call("Read", 2, path="b"),
             call("Read", 3, path="a")]
    assert waves(calls) == [((0, 2), False), ((1,), True), ((3,), False)]


def test_barriers_keep_calls_behind_an_exclusive_call():
    calls = [call("Read", 0, path="a"), call("Write", 1), call("Read", 2, path="b")]
    assert waves(calls, barriers=True) == [((0,), False), ((1,), True), ((2,), False)]


def test_unregistered_tools_are_exclusive():
    assert waves([call("Nope", 0), call("Read", 1, path="x")]) == [((0,), True), ((1,), False)]


# --- turn dispatch -------------------------------------------------------------------------


def timed(program):
    start = yield Now()
    out = yield from program
    return out, (yield Now()) - start


def test_waves_timing_on_the_simulated_clock():
    engine = Engine(make_registry())
    calls = [call("Read", 0, path="a", latency=1), call("Read", 1, path="b", latency=3),
             call("Write", 2, latency=2), call("Read", 3, path="c", latency=2)]
    sim = SimulatedInterpreter()
    results, spent = sim.run(timed(engine.dispatch_turn(calls)))
    # wave 1: reads a, b, c at once (3 s); wave 2: the write (2 s)
    assert spent == 5
    assert [r.tool_call_id for r in results] == ["c0", "c1", "c2", "c3"]
    (planned,) = [e for e in sim.events if isinstance(e, TurnPlanned)]
    assert (planned.turn, planned.calls, planned.waves) == (1, 4, ((0, 1, 3), (2,)))
    assert planned.tool_calls == tuple(calls) and planned.visible is None


def test_max_concurrency_bounds_a_wave():
    engine = Engine(make_registry(), max_concurrency=8)
    calls = [call("Read", i, path=str(i)) for i in range(20)]
    _, spent = SimulatedInterpreter().run(timed(engine.dispatch_turn(calls)))
    assert spent == 3  # 8 + 8 + 4 calls of one second
    engine = Engine(make_registry(), max_concurrency=20)
    _, spent = SimulatedInterpreter().run(timed(engine.dispatch_turn(calls)))
    assert spent == 1


@attrs.frozen
class CorruptId:
    name: str = "corrupt"

    def dispatch(self, ctx, next):
        result = yield from next(attrs.evolve(ctx, call_id="wrong"))
        return attrs.evolve(result, tool_call_id="also-wrong")


def test_the_engine_stamps_ids_last():
    engine = Engine(make_registry())
    engine.set_pipeline(engine.pipeline_builder().with_middleware(CorruptId()))
    results = SimulatedInterpreter().run(engine.dispatch_turn(
        [call("Read", 0, path="a"), call("Write", 1)]))
    assert [r.tool_call_id for r in results] == ["c0", "c1"]


def test_unshown_names_are_answered_by_the_engine_and_never_reach_the_pipeline():
    reached = []

    @attrs.frozen
    class Spy:
        name: str = "spy"

        def dispatch(self, ctx, next):
            reached.append(ctx.tool_name)
            return (yield from next(ctx))

    reg = make_registry()
    engine = Engine(reg)
    engine.set_pipeline(engine.pipeline_builder().with_middleware(Spy())
                        .with_middleware(UnknownToolMiddleware(reg)))
    results = SimulatedInterpreter().run(engine.dispatch_turn(
        [call("Raed", 0), call("Write", 1), call("Glob", 2)], visible=["Read", "Write"]))
    assert reached == ["Write"]
    assert results[0].is_error and results[0].tool_call_id == "c0"
    assert results[0].text == "Tool not found: Raed. Available: Read, Write. Did you mean 'Read'?"
    assert results[2].text == "Tool not found: Glob. Available: Read, Write"


def test_malformed_calls_get_soft_errors_and_keep_their_slots():
    engine = Engine(make_registry())
    calls = [
        ToolCall.parse(None, "Read", '{"path": "a"}'),
        ToolCall.parse("x", "Read", "{not json"),
        ToolCall.parse("y", "Read", "[1, 2]"),
        ToolCall.parse("z", None, "{}"),
        ToolCall.parse("d", "Read", {"path": "b"}),
        ToolCall.parse("d", "Write", {}),
        ToolCall.parse("n", "Read", '{"x": NaN}'),
    ]
    results = SimulatedInterpreter().run(engine.dispatch_turn(calls))
    texts = [r.text for r in results]
    assert len(results) == len(calls)
    assert texts[0] == "Invalid tool call: missing id"
    assert results[0].tool_call_id == "toolpipe-1-0"
    assert texts[1].startswith("Invalid tool call: arguments are not valid JSON")
    assert texts[2] == "Invalid tool call: arguments: expected a JSON object (a mapping), got list"
    assert texts[3].startswith("Invalid tool call: missing tool name")
    assert texts[4] == "Read:b" and not results[4].is_error
    assert texts[5] == "Invalid tool call: duplicate id 'd' (already used by call 4)"
    assert texts[6].startswith("Invalid tool call: arguments are not valid JSON")
    assert all(r.is_error for i, r in enumerate(results) if i != 4)


@attrs.frozen
class Broken:
    name: str = "broken"

    def dispatch(self, ctx, next):
        if ctx.tool_name == "Write":
            raise RuntimeError("layer bug")
        return (yield from next(ctx))


@pytest.mark.parametrize("kind", INTERPRETERS)
def test_a_broken_layer_costs_its_slot_only(kind):
    engine = Engine(make_registry())
    engine.set_pipeline(engine.pipeline_builder().with_middleware(Broken()))
    sim = SimulatedInterpreter() if kind == "simulated" else None
    results = run_program(kind, lambda: engine.dispatch_turn(
        [call("Read", 0, path="a", latency=0.01), call("Write", 1, latency=0.01)]), sim)
    assert results[0].text == "Read:a"
    # the call names the culprit (the pipeline's fault guard), the other call is untouched
    assert results[1].text == ("Tool 'Write' failed: layer 'broken' raised RuntimeError: "
                               "layer bug") and results[1].is_error
    assert isinstance(results[1].cause, ComponentFailed)
    assert results[1].tool_call_id == "c1"
    if sim is not None:
        assert any(isinstance(e, ComponentFault) and "layer bug" in e.error for e in sim.events)


def test_cancellation_mid_turn():
    engine = Engine(make_registry())
    signal = CancelSignal()
    sim = SimulatedInterpreter()
    sim.cancel_at(signal, 1.5)
    calls = [call("Write", 0, latency=1), call("Write", 1, latency=1),
             call("Write", 2, latency=1)]
    results, spent = sim.run(timed(engine.dispatch_turn(calls, cancel=signal)))
    assert [r.text for r in results] == ["Write:", "Tool 'Write' cancelled",
                                         "Tool 'Write' cancelled"]
    assert spent == 1.5 and [r.tool_call_id for r in results] == ["c0", "c1", "c2"]


@pytest.mark.parametrize("kind", INTERPRETERS)
def test_same_turn_results_on_every_interpreter(kind):
    engine = Engine(make_registry())
    calls = [call("Read", 0, path="a", latency=0.02), call("Write", 1, latency=0.01),
             call("Glob", 2, latency=0.01), call("Nope", 3)]
    results = run_program(kind, lambda: engine.dispatch_turn(calls))
    assert [r.text for r in results] == [
        "Read:a", "Write:", "Glob:", "Tool not found: Nope. Available: Glob, Lock, Read, Write"]


class Recorder:
    """A pipeline layer recording what it sees: middleware must not change planning."""

    name = "rec"

    def __init__(self):
        self.seen = []

    def dispatch(self, ctx, next):
        self.seen.append(ctx.turn_number)
        return (yield from next(ctx))


names = st.sampled_from(["Read", "Glob", "Write", "Lock", "Nope"])
raw_calls = st.lists(st.tuples(st.sampled_from(["a", "b", "a", None, "dup"]), names,
                               st.sampled_from(['{"path": "p"}', "{}", "oops", '{"path": "q"}'])),
                     max_size=12)


@settings(max_examples=80, deadline=None)
@given(raw_calls, st.integers(1, 4), st.booleans())
def test_every_call_gets_exactly_one_result_in_order(raw, limit, with_layers):
    engine = Engine(make_registry(), max_concurrency=limit)
    if with_layers:
        engine.set_pipeline(engine.pipeline_builder().with_middleware(Recorder())
                            .with_middleware(PermissionMiddleware.deny_all()))
    calls = [ToolCall.parse(i, n, a) for i, n, a in raw]
    sim = SimulatedInterpreter()
    results = sim.run(engine.dispatch_turn(calls, visible=["Read", "Glob", "Write", "Lock"]))
    assert len(results) == len(calls)
    assert all(isinstance(r, DispatchResult) for r in results)
    for c, r in zip(calls, results, strict=True):
        assert r.tool_call_id == (c.id or r.tool_call_id)
    finished = sorted(e.index for e in sim.events if isinstance(e, CallFinished))
    assert finished == list(range(len(calls)))
    # planning comes from declarations only: the same plan with or without layers
    plain = Engine(make_registry(), max_concurrency=limit)
    sim2 = SimulatedInterpreter()
    sim2.run(plain.dispatch_turn(calls, visible=["Read", "Glob", "Write", "Lock"]))
    plan = [e for e in sim.events if isinstance(e, TurnPlanned)]
    assert plan == [e for e in sim2.events if isinstance(e, TurnPlanned)]


# --- the agent loop ------------------------------------------------------------------------


def test_agent_loop_runs_turns_from_one_until_the_model_stops():
    recorder = Recorder()
    model = ScriptedModel([
        [call("Read", 0, path="a"), call("Read", 1, path="b")],
        ModelReply("writing", (call("Write", 2),)),
        "All done.",
    ])
    agent = Agent(model, make_registry())
    agent.set_pipeline(agent.engine.pipeline_builder().with_middleware(recorder))
    run, spent = SimulatedInterpreter().run(timed(agent.run("go")))
    assert run.stop_reason == "done" and run.turns == 3 and run.final_text == "All done."
    assert recorder.seen == [1, 1, 2]
    assert spent == 2  # one wave of two reads, then the write
    roles = [m.role for m in run.messages]
    assert roles == ["user", "assistant", "tool", "assistant", "tool", "assistant"]
    # the model saw the results of the earlier turns, and every declaration
    messages, tools = model.requests[2]
    assert [r.text for r in messages[-1].results] == ["Write:"]
    assert {t.name for t in tools} == {"Read", "Glob", "Write", "Lock"}


def test_agent_stops_at_max_turns():
    model = ScriptedModel([[call("Glob", i)] for i in range(10)])
    run = SimulatedInterpreter().run(Agent(model, make_registry(), max_turns=3).run("go"))
    assert run.stop_reason == "max_turns" and run.turns == 3
    assert len(model.requests) == 3


def test_agent_cancellation():
    signal = CancelSignal()
    sim = SimulatedInterpreter()
    sim.cancel_at(signal, 2.5)
    model = ScriptedModel([[call("Write", i)] for i in range(10)])
    run = sim.run(Agent(model, make_registry()).run("go", cancel=signal))
    assert run.stop_reason == "cancelled" and run.turns == 3 and sim.now == 2.5
    last = run.messages[-1]
    assert last.results[0].text == "Tool 'Write' cancelled"


def test_agent_model_failures_stop_the_loop_with_a_reason():
    class Raising:
        def respond(self, messages, tools):
            raise ConnectionError("rate limited")

    run = SimulatedInterpreter().run(Agent(Raising(), make_registry()).run("go"))
    assert run.stop_reason == "model_error" and run.error == (
        "model raised ConnectionError: rate limited")

    class Junk:
        def respond(self, messages, tools):
            return {"tool_calls": []}

    run = SimulatedInterpreter().run(Agent(Junk(), make_registry()).run("go"))
    assert run.stop_reason == "model_error" and "not a ModelReply" in run.error


def test_agent_with_a_coroutine_model_on_asyncio():
    class AsyncModel:
        def __init__(self):
            self.turn = 0

        async def respond(self, messages, tools):
            await asyncio.sleep(0)
            self.turn += 1
            if self.turn == 1:
                return ModelReply("", (call("Glob", 0, latency=0.01),))
            return ModelReply(f"saw {messages[-1].results[0].text}")

    async def main():
        return await AsyncioInterpreter().run(Agent(AsyncModel(), make_registry()).run("go"))

    run = asyncio.run(main())
    assert run.final_text == "saw Glob:" and run.turns == 2


def test_agent_arguments_are_checked():
    with pytest.raises(ConfigError, match="max_turns"):
        Agent(ScriptedModel([]), make_registry(), max_turns=0)
    with pytest.raises(ConfigError, match="model"):
        Agent(object(), make_registry())
    with pytest.raises(ConfigError, match="not in the registry: Nope"):
        Agent(ScriptedModel([]), make_registry(), tools=["Read", "Nope"])
    with pytest.raises(ConfigError, match=r"script\[0\]"):
        ScriptedModel([42])


def test_agent_shows_only_the_chosen_tools():
    model = ScriptedModel([[call("Write", 0)]])
    run = SimulatedInterpreter().run(Agent(model, make_registry(), tools=["Read"]).run("go"))
    result = run.messages[2].results[0]
    assert result.text.startswith("Tool not found: Write. Available: Read")


def test_tool_call_parse_keeps_good_calls_intact():
    c = ToolCall.parse("id1", "Read", '{"path": "a", "n": [1, 2]}')
    assert c == ToolCall("id1", "Read", {"path": "a", "n": [1, 2]}) and c.problem is None
    assert ToolCall.parse("id2", "Glob", None).input == {}
    assert DispatchResult("x", TextContent("t")).tool_call_id == "x"


def test_a_tool_that_never_returns_meets_the_engines_backstop():
    def hang(input, context):
        yield Sleep(float("inf"))
        return "never"

    reg = ToolRegistry([Tool.from_function("Hang", hang, concurrency_safe=True),
                        Tool.from_function("Quick", lambda i, c: "ok", concurrency_safe=True)])
    engine = Engine(reg)
    sim = SimulatedInterpreter()
    results, spent = sim.run(timed(engine.dispatch_turn([ToolCall("h", "Hang"),
                                                          ToolCall("q", "Quick")])))
    assert results[0].text == "Tool 'Hang' timed out after 600s (the engine's call deadline)"
    assert results[0].is_error and results[0].tool_call_id == "h"
    assert results[1].text == "ok" and spent == 600
    # without the backstop the simulator names the stuck program instead of hanging
    from interpreters.simulated import SimulationDeadlock

    with pytest.raises(SimulationDeadlock, match="hang"):
        SimulatedInterpreter().run(Engine(reg, call_deadline=None).dispatch_turn(
            [ToolCall("h", "Hang")]))
    with pytest.raises(ConfigError, match="call_deadline"):
        Engine(reg, call_deadline=-1)
