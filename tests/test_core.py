"""The core ToolCallMiddleware, on every interpreter."""

import asyncio

import pytest
import trio

from toolpipe import (
    CancelSignal,
    DispatchContext,
    DisplayHint,
    ImageContent,
    MultipartContent,
    TextContent,
    Tool,
    ToolError,
    ToolPipeline,
    ToolRegistry,
)
from toolpipe.effects import Sleep
from toolpipe.registry import not_found_text

from .helpers import INTERPRETERS, dispatch, echo, registry, sleeper


def boom(input, context):
    raise ValueError("disk on fire")


def silent(input, context):
    raise RuntimeError()


def soft(input, context):
    raise ToolError("no such file: a.txt")


def returns_int(input, context):
    return 42


def program_boom(input, context):
    yield Sleep(0.001)
    raise KeyError("k")


def test_not_found_lists_alphabetically_at_most_ten():
    assert not_found_text("x", ("b", "a")) == "Tool not found: x. Available: b, a"
    names = tuple(sorted(f"t{i:02}" for i in range(13)))
    assert not_found_text("x", names) == (
        "Tool not found: x. Available: t00, t01, t02, t03, t04, t05, t06, t07, t08, t09"
        " … and 3 more"
    )
    assert not_found_text("x", ()) == "Tool not found: x. Available: (none)"


@pytest.mark.parametrize("kind", INTERPRETERS)
def test_registry_miss_is_a_soft_error(kind):
    reg = registry(zeta=echo, alpha=echo)
    r = dispatch(kind, ToolPipeline.new(reg), DispatchContext("nope", call_id="c"))
    assert r.is_error and r.text == "Tool not found: nope. Available: alpha, zeta"
    assert r.resolved_tool_name == "nope" and r.tool_call_id == "c"


@pytest.mark.parametrize("kind", INTERPRETERS)
@pytest.mark.parametrize(
    ("fn", "text"),
    [
        (boom, "Tool 't' panicked: disk on fire"),
        (silent, "Tool 't' panicked: (unknown payload)"),
        (program_boom, "Tool 't' panicked: 'k'"),
        (soft, "no such file: a.txt"),
        (returns_int, "Tool 't' returned an unsupported type: int (expected str or ToolContent)"),
    ],
)
def test_misbehaving_tools_become_soft_errors(kind, fn, text):
    r = dispatch(kind, ToolPipeline.new(registry(t=fn)), DispatchContext("t"))
    assert r.is_error and r.text == text and r.resolved_tool_name == "t"


@pytest.mark.parametrize("kind", INTERPRETERS)
def test_keyboard_interrupt_is_not_a_panic(kind):
    def interrupt(input, context):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        dispatch(kind, ToolPipeline.new(registry(t=interrupt)), DispatchContext("t"))


@pytest.mark.parametrize("kind", INTERPRETERS)
def test_content_types_pass_through(kind):
    multi = MultipartContent([TextContent("a"), ImageContent(b"png")])
    reg = ToolRegistry([
        Tool.from_function("m", lambda i, c: multi, display_hint=DisplayHint("code", "py")),
        Tool.from_function("e", echo),
    ])
    r = dispatch(kind, ToolPipeline.new(reg), DispatchContext("m"))
    assert r.output == multi and not r.is_error and r.display_hint == DisplayHint("code", "py")
    assert dispatch(kind, ToolPipeline.new(reg), DispatchContext("e", {"text": "t"})).text == "t"


def test_duration_is_the_tools_time_on_the_virtual_clock():
    r = dispatch("simulated", ToolPipeline.new(registry(s=sleeper(7.25))), DispatchContext("s"))
    assert r.duration == 7.25 and r.text == "done"


@pytest.mark.parametrize("kind", ["asyncio", "trio"])
def test_duration_on_real_clocks(kind):
    r = dispatch(kind, ToolPipeline.new(registry(s=sleeper(0.02))), DispatchContext("s"))
    assert 0.015 <= r.duration < 0.5


def test_coroutine_tool_on_the_simulator_says_so():
    async def fetch(input, context):
        return "never"

    r = dispatch("simulated", ToolPipeline.new(registry(fetch=fetch)), DispatchContext("fetch"))
    assert r.is_error and "coroutine function" in r.text and "simulated" in r.text


def test_coroutine_tools_run_on_asyncio_and_trio():
    async def a_tool(input, context):
        await asyncio.sleep(0.001)
        return "asyncio ok"

    async def t_tool(input, context):
        await trio.sleep(0.001)
        return "trio ok"

    assert dispatch("asyncio", ToolPipeline.new(registry(t=a_tool)), DispatchContext("t")).text \
        == "asyncio ok"
    assert dispatch("trio", ToolPipeline.new(registry(t=t_tool)), DispatchContext("t")).text \
        == "trio ok"


@pytest.mark.parametrize("kind", INTERPRETERS)
def test_cancelled_before_running(kind):
    signal = CancelSignal()
    signal.cancel()
    ran = []
    r = dispatch(kind, ToolPipeline.new(registry(t=lambda i, c: ran.append(1) or "x")),
                 DispatchContext("t", cancel=signal))
    assert r.is_error and r.text == "Tool 't' cancelled" and ran == []


def test_cancelled_while_running_on_the_simulator():
    from interpreters.simulated import SimulatedInterpreter

    signal = CancelSignal()
    cleaned = []

    def long(input, context):
        try:
            yield Sleep(100)
            return "finished"
        finally:
            cleaned.append(True)

    sim = SimulatedInterpreter()
    sim.cancel_at(signal, 3.0)
    r = sim.run(ToolPipeline.new(registry(t=long)).dispatch(DispatchContext("t", cancel=signal)))
    assert r.text == "Tool 't' cancelled" and r.duration == 3.0 and cleaned == [True]
    assert sim.now == 3.0


def test_registry_rules():
    reg = ToolRegistry()
    reg.register(Tool.from_function("a", echo, concurrency_safe=True, resource_key="k"))
    with pytest.raises(ValueError, match="already registered"):
        reg.register(Tool.from_function("a", echo))
    with pytest.raises(TypeError):
        reg.register("a")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="name"):
        Tool.from_function("  ", echo)
    with pytest.raises(TypeError, match="callable"):
        Tool.from_function("b", "nope")  # type: ignore[arg-type]
    assert reg.declarations()[0].concurrency_safe and reg.declarations()[0].resource_key == "k"

    @reg.tool("b", description="B tool")
    def b(input, context):
        return "b"

    assert reg.names() == ("a", "b") and "b" in reg and len(reg) == 2
    assert reg.get("b").declaration.description == "B tool"
    assert reg.get("a").kind == "function" and Tool.from_function("s", sleeper(1)).kind == "program"
