"""Record a real session on asyncio or trio, replay it on the simulated clock: the same
results; through another pipeline: the differences; bad traces: errors naming the line.

No verdict depends on the machine's speed: the real deadline is 1 s, the quick tools take
milliseconds and the flaky one hangs 3 s on its first attempt. Each interpreter's session
is recorded once (about 1 s of real waiting) and shared by the module's tests."""

import asyncio
import io
import json
import time

import pytest
import trio

from interpreters.asyncio import AsyncioInterpreter
from interpreters.recording import TraceRecorder
from interpreters.simulated import SimulatedInterpreter
from interpreters.trio import TrioInterpreter
from toolpipe import (
    Engine,
    ImageContent,
    MemoizingMiddleware,
    MultipartContent,
    TextContent,
    TimeoutConfig,
    TimeoutMiddleware,
    Tool,
    ToolCall,
    ToolError,
    ToolPipeline,
    ToolRegistry,
)
from toolpipe.effects import Sleep
from toolpipe.session import TraceError, differences, load_trace, replay, replay_registry, verdict


def make_registry():
    attempts = {"flaky": 0}

    def read(input, context):
        yield Sleep(0.004)
        return f"contents of {input['path']}"

    def flaky(input, context):
        attempts["flaky"] += 1
        yield Sleep(3.0 if attempts["flaky"] == 1 else 0.003)  # hangs once, then answers
        return "pong"

    def snap(input, context):
        return MultipartContent((TextContent("shot"), ImageContent(b"\x89PNG")))

    def broken(input, context):
        raise ValueError("disk on fire")

    def refuse(input, context):
        raise ToolError("no such branch")

    return ToolRegistry([
        Tool.from_function("Read", read, concurrency_safe=True, resource_key_from="path"),
        Tool.from_function("Ping", flaky),
        Tool.from_function("Snap", snap),
        Tool.from_function("Broken", broken),
        Tool.from_function("Refuse", refuse),
        Tool.from_function("Odd", lambda input, context: 42),
    ])


def pipeline_layers(timeout=1.0, ttl=5):
    return (ToolPipeline.builder()
            .with_middleware(TimeoutMiddleware(TimeoutConfig(timeout, True, 1)))
            # Ping changes nothing; any other tool may change anything (it empties the cache)
            .with_middleware(MemoizingMiddleware(["Read"], ["Write"], ttl_turns=ttl,
                                                 read_only_tools=["Ping"])))


TURNS = [
    [ToolCall("a", "Read", {"path": "x"}), ToolCall("b", "Read", {"path": "y"}),
     ToolCall("c", "Ping")],
    [ToolCall("d", "Read", {"path": "x"}), ToolCall("e", "Snap"), ToolCall("f", "Broken"),
     ToolCall("g", "Refuse"), ToolCall("h", "Odd"), ToolCall("", "Read", {"path": "z"}),
     ToolCall("i", "Nope")],
]


def session(engine):
    results = []
    for turn, calls in enumerate(TURNS, start=1):
        results.append((yield from engine.dispatch_turn(calls, turn=turn)))
    return results


pytestmark = pytest.mark.xdist_group("replay")  # one worker records each session once
SESSIONS: dict[str, tuple[list, str]] = {}


def record(kind):
    """The session recorded on ``kind`` (once per test process)."""
    if kind not in SESSIONS:
        SESSIONS[kind] = _record(kind)
    return SESSIONS[kind]


def _record(kind):
    registry = make_registry()
    engine = Engine(registry)
    engine.set_pipeline(pipeline_layers())
    sink = io.StringIO()
    recorder = TraceRecorder(sink, interpreter=kind, pipeline=engine.middleware_names(),
                             tools=registry.declarations())
    if kind == "asyncio":
        async def main():
            return await AsyncioInterpreter(recorder=recorder).run(session(engine))

        results = asyncio.run(main())
    else:
        async def tmain():
            return await TrioInterpreter(recorder=recorder).run(session(engine))

        results = trio.run(tmain)
    return results, sink.getvalue()


def replayed(text, builder=None):
    trace = load_trace(io.StringIO(text))
    registry, recording = replay_registry(trace)
    out = SimulatedInterpreter().run(replay(trace, builder or pipeline_layers(), registry))
    return trace, out, recording


@pytest.mark.process
@pytest.mark.parametrize("kind", ["asyncio", "trio"])
def test_replay_reproduces_the_recorded_results(kind):
    recorded, text = record(kind)
    trace, again, _ = replayed(text)
    assert len(trace.turns) == 2 and trace.effects > 20
    texts = [[r.text for r in turn] for turn in again]
    assert texts == [[r.text for r in turn] for turn in recorded]
    assert [[r.is_error for r in turn] for turn in again] == [
        [r.is_error for r in turn] for turn in recorded]
    assert all(d.same for d in differences(trace, again))
    # every kind of outcome went through the trace
    second = texts[1]
    assert second[0].endswith("[cached]")
    assert second[2] == "Tool 'Broken' panicked: disk on fire"
    assert second[3] == "no such branch"
    assert second[4].startswith("Tool 'Odd' returned an unsupported type: int")
    assert second[5] == "Invalid tool call: missing id"
    assert again[1][1].output == MultipartContent((TextContent("shot"), ImageContent(b"\x89PNG")))
    # the latencies are the recorded ones, exactly
    (read_x,) = [r for _, r in trace.tools if r.tool == "Read" and r.input == {"path": "x"}]
    assert again[0][0].duration == read_x.duration


@pytest.mark.process
def test_the_flaky_call_replays_its_attempts_in_order():
    _, text = record("asyncio")
    trace, again, _ = replayed(text)
    pings = [r for _, r in trace.tools if r.tool == "Ping"]
    assert [type(r.outcome).__name__ for r in pings] == ["Abandoned", "Returned"]
    assert again[0][2].text == "pong"


@pytest.mark.process
def test_replay_through_another_pipeline_shows_what_changes():
    _, text = record("asyncio")
    # no retries: the flaky call times out; no cache: the repeated read runs again
    other = (ToolPipeline.builder()
             .with_middleware(TimeoutMiddleware(TimeoutConfig(1.0, False, 0)))
             .with_middleware(MemoizingMiddleware(["Read"], ["Write"], ttl_turns=0)))
    trace, again, _ = replayed(text, other)
    changed = {d.call_id: d for d in differences(trace, again) if not d.same}
    assert set(changed) == {"c", "d"}
    assert verdict(changed["c"].replayed) == "timed out"
    assert verdict(changed["d"].recorded) == "cache hit" and verdict(changed["d"].replayed) == "ok"


@pytest.mark.process
def test_a_run_the_recording_never_made_gets_a_soft_error():
    _, text = record("asyncio")
    trace = load_trace(io.StringIO(text))
    registry, recording = replay_registry(trace)
    engine = Engine(registry)
    (result,) = SimulatedInterpreter().run(
        engine.dispatch_turn([ToolCall("q", "Read", {"path": "never"})]))
    assert result.is_error and result.text == 'no recorded run of Read {"path":"never"}'
    assert recording.unmatched == [("Read", {"path": "never"})]


@pytest.mark.process
def test_replay_is_deterministic():
    _, text = record("asyncio")
    first = replayed(text)[1]
    assert first == replayed(text)[1]


# --- bad traces ----------------------------------------------------------------------------


@pytest.fixture()
def good():
    return record("asyncio")[1]


def lines_of(text):
    return text.splitlines(keepends=True)


def test_a_torn_trace_replays_its_intact_prefix_and_says_what_it_dropped(good):
    lines = lines_of(good)
    whole = load_trace(lines, source="t")
    cut = "".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2]
    torn = load_trace(io.StringIO(cut), source="t")
    last = whole.turns[-1]
    assert torn.dropped == (
        f"t:{len(lines)}: the last line is cut short ({len(lines[-1]) // 2:,} characters "
        "dropped); the intact prefix is replayed",
        f"t: turn {last.turn} has {len(last.calls) - 1} of its {len(last.calls)} results "
        "(the recording stopped during it); it is not replayed")
    assert torn.turns == whole.turns[:-1] and whole.dropped == ()
    registry, _ = replay_registry(torn)
    builder = ToolPipeline.builder().with_middleware(TimeoutMiddleware.from_secs(0.1))
    replayed = SimulatedInterpreter().run(replay(torn, builder, registry))
    assert len(replayed) == len(whole.turns) - 1
    # a bad line anywhere but at the torn end is still an error naming it
    middle = lines[:]
    middle[2] = middle[2][: len(middle[2]) // 2]
    with pytest.raises(TraceError, match=r"^t:3: not a JSON record \(cut short\)"):
        load_trace(middle, source="t")
    middle[2] += "\n"
    with pytest.raises(TraceError, match=r"^t:3: not a JSON record"):
        load_trace(middle, source="t")


def test_a_corrupted_line_is_named(good):
    lines = lines_of(good)
    lines[3] = lines[3].replace("{", "[", 1)
    with pytest.raises(TraceError, match=r"^t:4: "):
        load_trace(lines, source="t")
    lines = lines_of(good)
    record = json.loads(lines[5])
    record["kind"] = "mystery"
    lines[5] = json.dumps(record) + "\n"
    with pytest.raises(TraceError, match=r"^t:6: not a valid mystery record"):
        load_trace(lines, source="t")
    lines = lines_of(good)
    index = next(i for i, line in enumerate(lines) if '"kind":"result"' in line)
    lines[index] = lines[index].replace('"is_error":false', '"is_error":"no"', 1) \
        .replace('"is_error":true', '"is_error":"no"', 1)
    with pytest.raises(TraceError, match=rf"^t:{index + 1}: not a valid result record"):
        load_trace(lines, source="t")


def test_a_trace_from_a_newer_format(good):
    lines = lines_of(good)
    lines[0] = lines[0].replace('"version":1', '"version":2')
    with pytest.raises(TraceError, match="t:1: the trace has format version 2, newer than "
                                         "this toolpipe reads"):
        load_trace(lines, source="t")


def test_not_a_trace():
    with pytest.raises(TraceError, match="not a toolpipe trace"):
        load_trace(['{"hello": 1}\n'], source="t")
    with pytest.raises(TraceError, match="empty"):
        load_trace([], source="t")


def test_a_tool_missing_from_the_declarations_or_the_registry(good):
    lines = lines_of(good)
    header = json.loads(lines[0])
    header["tools"] = [t for t in header["tools"] if t["name"] != "Ping"]
    lines[0] = json.dumps(header) + "\n"
    first_ping = next(i for i, line in enumerate(lines)
                      if '"kind":"tool"' in line and '"tool":"Ping"' in line)
    with pytest.raises(TraceError, match=rf"^t:{first_ping + 1}: the trace runs tool 'Ping'"):
        load_trace(lines, source="t")
    trace = load_trace(io.StringIO(good))
    decls = [d for d in make_registry().declarations() if d.name != "Snap"]
    with pytest.raises(TraceError, match="'Snap', which is missing from the registry"):
        replay_registry(trace, decls)


def test_verdict_tells_a_permission_denial_from_a_file_error():
    from toolpipe import DispatchResult
    from toolpipe.failures import Denied

    denied = DispatchResult.failed("c", Denied("rm", "blocked by policy"))
    assert denied.text == "Permission blocked by policy for tool 'rm'"
    unreadable = DispatchResult.error("c", "Permission denied: 'secret.txt'", "Read")
    assert verdict(denied) == "denied"
    assert verdict(unreadable) == "error"
    # the verdict comes from the cause: a tool's text that looks like a denial is an error
    lookalike = DispatchResult.error("c", "Permission blocked by policy for tool 'rm'", "rm")
    assert verdict(lookalike) == "error"


class _HoldsTheLoop:
    """A layer inside the timeout that works (holds the loop, as a busy machine's layers
    may seem to) before or after the tool: real time the simulated clock does not see."""

    name = "holds_the_loop"

    def __init__(self, before: float, after: float) -> None:
        self.before, self.after = before, after

    def dispatch(self, ctx, next):
        hold(self.before)
        result = yield from next(ctx)
        hold(self.after)
        return result


def hold(seconds):
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        pass


@pytest.mark.parametrize("kind", ["asyncio", "trio"])
@pytest.mark.parametrize("before, after", [(0.03, 0.0), (0.0, 0.03), (0.0, 0.0)])
def test_a_call_replays_with_its_recorded_verdict_whatever_the_layers_took(kind, before, after):
    """The timeout's deadline (20 ms) passes in the layers' own work, before the tool
    (its answer then comes late: recorded as cut off) or after it (the tool answered in
    time: the call is in time, as on the simulated clock, where layers take no time). The
    replay through the same pipeline gives every call its recorded verdict. (Found by
    ``test_record_then_replay``, about one run in twelve beside a busy process.)"""
    def quick(input, context):  # a program: it runs on the loop, no thread between
        return "done"
        yield

    registry = ToolRegistry([Tool.from_function("Quick", quick)])
    engine = Engine(registry)

    def builder():
        return (ToolPipeline.builder()
                .with_middleware(TimeoutMiddleware(TimeoutConfig(0.02, False, 1)))
                .with_middleware(_HoldsTheLoop(before, after)))

    engine.set_pipeline(builder())
    sink = io.StringIO()
    recorder = TraceRecorder(sink, interpreter=kind, pipeline=engine.middleware_names(),
                             tools=registry.declarations())

    def calls():
        return (yield from engine.dispatch_turn([ToolCall("q", "Quick")], turn=1))

    async def main():
        interpreter = AsyncioInterpreter if kind == "asyncio" else TrioInterpreter
        return await interpreter(recorder=recorder).run(calls())

    (result,) = asyncio.run(main()) if kind == "asyncio" else trio.run(main)
    trace, again, _ = replayed(sink.getvalue(), builder())  # (real time: no virtual time)
    (run,) = [r for _, r in trace.tools]
    cut_off = type(run.outcome).__name__ == "Abandoned"
    # before: the answer comes 30 ms after a 20 ms deadline; otherwise in time, unless a
    # busy machine held this process 20 ms between the scope's start and the answer
    assert cut_off if before else (verdict(result) == "ok" or cut_off), result.text
    assert verdict(result) == ("timed out" if cut_off else "ok")
    assert [verdict(r) for r in again[0]] == [verdict(result)]
    assert all(d.same for d in differences(trace, again))
