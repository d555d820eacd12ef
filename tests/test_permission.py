import asyncio

import pytest
import trio

from interpreters.simulated import SimulatedInterpreter
from toolpipe import (
    DispatchContext,
    PermissionCheck,
    PermissionMiddleware,
    ToolPipeline,
)
from toolpipe.effects import Sleep

from .helpers import dispatch, echo, registry, sleeper


def pipeline(layer, **tools):
    tools = tools or {"echo": echo, "slow": sleeper(5)}
    return ToolPipeline.builder().with_middleware(layer).with_core(registry(**tools)).build()


def run(layer, ctx, **tools):
    sim = SimulatedInterpreter(record=True)
    result = sim.run(pipeline(layer, **tools).dispatch(ctx))
    return result, sim.trace


def test_deny_all_short_circuits_with_no_inner_effect_and_zero_duration():
    r, trace = run(PermissionMiddleware.deny_all(), DispatchContext("slow", call_id="c"))
    assert r.is_error and r.text == "Permission blocked by policy for tool 'slow'"
    assert r.duration == 0.0 and trace == [] and r.tool_call_id == "c"


def test_allow_all_passes():
    r, trace = run(PermissionMiddleware.allow_all(), DispatchContext("echo", {"text": "x"}))
    assert r.text == "x" and not r.is_error and len(trace) == 1


def test_from_context_honours_ctx_permission():
    layer = PermissionMiddleware.from_context()
    r, _ = run(layer, DispatchContext("echo", permission=PermissionCheck.deny("no way")))
    assert r.text == "Permission no way for tool 'echo'"
    r, _ = run(layer, DispatchContext("echo", {"text": "y"}))
    assert r.text == "y"


def test_check_function_and_modify():
    def check(ctx):
        if ctx.tool_name == "rm":
            return PermissionCheck.deny("destructive in this session")
        if ctx.input.get("text") == "secret":
            return PermissionCheck.modify({"text": "redacted"})
        return PermissionCheck.allow()

    layer = PermissionMiddleware.deny_all().with_check(check)
    r, trace = run(layer, DispatchContext("rm"), rm=echo)
    assert r.text == "Permission destructive in this session for tool 'rm'" and trace == []
    r, _ = run(layer, DispatchContext("echo", {"text": "secret"}))
    assert r.text == "redacted"


def test_check_that_raises_or_returns_junk_denies():
    def broken(ctx):
        raise RuntimeError("oops")

    r, trace = run(PermissionMiddleware().with_check(broken), DispatchContext("echo"))
    assert r.is_error and "check failed (RuntimeError: oops)" in r.text and trace == []
    r, _ = run(PermissionMiddleware().with_check(lambda ctx: "yes"), DispatchContext("echo"))
    assert r.is_error and "not a PermissionCheck" in r.text


def test_ask_without_resolver_is_denied_headless():
    layer = PermissionMiddleware().with_check(lambda ctx: PermissionCheck.ask("run it?"))
    r, trace = run(layer, DispatchContext("echo"))
    assert r.text == "Permission permission required: run it? for tool 'echo'" and trace == []


def sync_yes(prompt, tool):
    return True


def sync_no(prompt, tool):
    return False


def program_yes(prompt, tool):
    yield Sleep(2)  # a human takes a while
    return True


@pytest.mark.parametrize(("resolver", "allowed"), [(sync_yes, True), (sync_no, False),
                                                   (program_yes, True)])
def test_ask_with_sync_and_program_resolvers(resolver, allowed):
    layer = (PermissionMiddleware().with_check(lambda ctx: PermissionCheck.ask("ok?"))
             .with_ask_resolver(resolver))
    r, _ = run(layer, DispatchContext("echo", {"text": "ran"}))
    if allowed:
        assert r.text == "ran" and not r.is_error
    else:
        assert r.text == "Permission denied by user for tool 'echo'" and r.is_error


def test_ask_resolver_receives_prompt_and_tool():
    seen = []

    def resolver(prompt, tool):
        seen.append((prompt, tool))
        return True

    layer = (PermissionMiddleware().with_check(lambda ctx: PermissionCheck.ask("sure?"))
             .with_ask_resolver(resolver))
    run(layer, DispatchContext("echo"))
    assert seen == [("sure?", "echo")]


def test_ask_with_async_resolver_on_asyncio_and_trio():
    async def a_yes(prompt, tool):
        await asyncio.sleep(0.001)
        return True

    async def t_no(prompt, tool):
        await trio.sleep(0.001)
        return False

    ask = PermissionMiddleware().with_check(lambda ctx: PermissionCheck.ask("?"))
    r = dispatch("asyncio", pipeline(ask.with_ask_resolver(a_yes)), DispatchContext("echo",
                 {"text": "ok"}))
    assert r.text == "ok"
    r = dispatch("trio", pipeline(ask.with_ask_resolver(t_no)), DispatchContext("echo"))
    assert r.text == "Permission denied by user for tool 'echo'"


def test_resolver_that_raises_or_returns_junk_denies():
    def broken(prompt, tool):
        raise ValueError("no human")

    ask = PermissionMiddleware().with_check(lambda ctx: PermissionCheck.ask("?"))
    r, _ = run(ask.with_ask_resolver(broken), DispatchContext("echo"))
    assert r.is_error and "ask resolver failed (raised ValueError: no human)" in r.text
    r, _ = run(ask.with_ask_resolver(lambda p, t: "maybe"), DispatchContext("echo"))
    assert r.is_error and "not a bool" in r.text


def test_bad_arguments_are_rejected():
    with pytest.raises(ValueError):
        PermissionMiddleware("sometimes")
    with pytest.raises(TypeError, match="check"):
        PermissionMiddleware().with_check("nope")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="ask_resolver"):
        PermissionMiddleware().with_ask_resolver(3)  # type: ignore[arg-type]
