"""The observer: watching layers changes nothing, and it says which layers acted."""

import attrs
from hypothesis import given, settings

from interpreters.simulated import SimulatedInterpreter
from tests.test_laws import REG, calls, stacks
from toolpipe import (
    DispatchContext,
    MemoizingMiddleware,
    PermissionCheck,
    PermissionMiddleware,
    RedactingMiddleware,
    TimeoutConfig,
    TimeoutMiddleware,
    Tool,
    ToolPipeline,
    ToolRegistry,
)
from toolpipe.effects import Sleep
from toolpipe.observe import LayerActed, observed


def run(builder, ctxs, reg=REG):
    sim = SimulatedInterpreter()
    p = builder.with_core(reg).build()
    return [sim.run(p.dispatch(c)) for c in ctxs], sim.events


@settings(max_examples=60, deadline=None)
@given(stacks, calls)
def test_observation_is_transparent(layers, cs):
    ctxs = [DispatchContext(t, {"text": x}, call_id=f"c{i}") for i, (t, x) in enumerate(cs)]
    builder = ToolPipeline.builder().with_middlewares(layers)
    plain, _ = run(builder, ctxs)
    watched, events = run(observed(builder), ctxs)
    assert plain == watched
    assert {e.call_id for e in events if isinstance(e, LayerActed)} <= {c.call_id for c in ctxs}


def acted(builder, ctxs, reg):
    _, events = run(observed(builder), ctxs, reg)
    return [(e.call_id, e.layer, e.how) for e in events if isinstance(e, LayerActed)]


def test_what_each_kind_of_action_looks_like():
    attempts = []

    def flaky(input, context):
        attempts.append(1)
        yield Sleep(50 if len(attempts) == 1 else 1)
        return "ghp_" + "Ab1" * 12

    reg = ToolRegistry([Tool.from_function("Read", flaky),
                        Tool.from_function("rm", lambda i, c: "gone")])

    def policy(ctx):
        if ctx.tool_name == "rm":
            return PermissionCheck.deny("no")
        return PermissionCheck.modify({**ctx.input, "checked": True})

    builder = (ToolPipeline.builder()
               .with_middleware(PermissionMiddleware.from_context().with_check(policy))
               .with_middleware(RedactingMiddleware())
               .with_middleware(TimeoutMiddleware(TimeoutConfig(10, True, 1)))
               .with_middleware(MemoizingMiddleware(["Read"], ["rm"])))
    ctxs = [DispatchContext("Read", {"path": "a"}, call_id="r1"),
            DispatchContext("Read", {"path": "a"}, call_id="r2"),
            DispatchContext("rm", call_id="d1")]
    assert acted(builder, ctxs, reg) == [
        ("r1", "timeout", "ran 2 attempts"),
        ("r1", "redaction", "changed the result"),
        ("r1", "permission", "rewrote the input"),
        ("r2", "memoize", "answered"),
        ("r2", "redaction", "changed the result"),
        ("r2", "permission", "rewrote the input"),
        ("d1", "permission", "answered"),
    ]


def test_a_renaming_layer_is_reported():
    @attrs.frozen
    class Alias:
        name: str = "alias"

        def dispatch(self, ctx, next):
            return (yield from next(attrs.evolve(ctx, tool_name="Read")))

    reg = ToolRegistry([Tool.from_function("Read", lambda i, c: "ok")])
    builder = ToolPipeline.builder().with_middleware(Alias())
    assert acted(builder, [DispatchContext("cat", call_id="x")], reg) == [
        ("x", "alias", "renamed to Read")]
