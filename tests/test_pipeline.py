import re

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from returns.result import Failure, Success

from interpreters.simulated import SimulatedInterpreter
from toolpipe import (
    CancelSignal,
    DispatchCancelled,
    DispatchContext,
    OutputLimitMiddleware,
    PipelineError,
    ToolPipeline,
    ToolRegistry,
)
from toolpipe._faults import ComponentFault
from toolpipe.effects import Emit
from toolpipe.failures import BadReturn, ComponentFailed

from .helpers import echo, registry


class Tag:
    """Records before/after order through Emit events and appends its name to the output."""

    def __init__(self, name):
        self.name = name

    def dispatch(self, ctx, next):
        yield Emit(("before", self.name))
        result = yield from next(ctx)
        yield Emit(("after", self.name))
        return attrs.evolve(result, output=type(result.output)(result.text + self.name))


class Rename:
    name = "rename"

    def __init__(self, to):
        self.to = to

    def dispatch(self, ctx, next):
        return (yield from next(attrs.evolve(ctx, tool_name=self.to)))


def test_middleware_names_outermost_first_ending_with_core():
    p = ToolPipeline.builder().with_middleware(Tag("a")).with_middleware(Tag("b"))
    assert p.with_core(ToolRegistry()).build().middleware_names() == ["a", "b", "tool_call"]
    assert ToolPipeline.new(ToolRegistry()).middleware_names() == ["tool_call"]


def test_builder_errors():
    with pytest.raises(PipelineError, match="empty"):
        ToolPipeline.builder().build()
    with pytest.raises(PipelineError, match="missing core"):
        ToolPipeline.builder().with_middleware(Tag("a")).build()
    owned = attrs.evolve(ToolPipeline.builder(), engine_owned=True)
    with pytest.raises(PipelineError, match="engine"):
        owned.with_core(ToolRegistry())
    with pytest.raises(PipelineError, match="already has a core"):
        ToolPipeline.builder().with_core(ToolRegistry()).with_core(ToolRegistry())
    with pytest.raises(TypeError, match="with_middleware"):
        ToolPipeline.builder().with_middleware(object())  # type: ignore[arg-type]


def test_build_with_injects_a_registry_as_core():
    builder = ToolPipeline.builder().with_middleware(Tag("a"))
    p = builder.build_with(registry(echo=echo))
    assert p.middleware_names() == ["a", "tool_call"]
    with pytest.raises(PipelineError):
        builder.with_core(ToolRegistry()).build_with(ToolRegistry())


def test_order_before_in_registration_order_after_in_reverse():
    sim = SimulatedInterpreter()
    p = (ToolPipeline.builder().with_middleware(Tag("a")).with_middleware(Tag("b"))
         .with_middleware(Tag("c")).with_core(registry(echo=echo)).build())
    result = sim.run(p.dispatch(DispatchContext("echo", {"text": "x"})))
    assert sim.events == [("before", "a"), ("before", "b"), ("before", "c"),
                          ("after", "c"), ("after", "b"), ("after", "a")]
    assert result.text == "xcba"  # the outermost layer post-processes last


def test_core_uses_the_rewritten_name():
    p = (ToolPipeline.builder().with_middleware(Rename("echo"))
         .with_core(registry(echo=echo)).build())
    result = SimulatedInterpreter().run(p.dispatch(DispatchContext("alias", {"text": "hi"})))
    assert result.text == "hi" and result.resolved_tool_name == "echo" and not result.is_error


names = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=5)


@given(names, names, names)
def test_associativity_of_builder_concatenation(xs, ys, zs):
    def b(ns):
        return ToolPipeline.builder().with_middlewares([Tag(n) for n in ns])

    reg = registry(echo=echo)
    left = b(xs).then(b(ys)).then(b(zs)).with_core(reg).build()
    right = b(xs).then(b(ys).then(b(zs))).with_core(reg).build()
    ctx = DispatchContext("echo", {"text": "t"})
    s1, s2 = SimulatedInterpreter(), SimulatedInterpreter()
    assert s1.run(left.dispatch(ctx)) == s2.run(right.dispatch(ctx))
    assert s1.events == s2.events and left.middleware_names() == right.middleware_names()


@given(st.text(max_size=10))
def test_identity_empty_pipeline_is_its_core(text):
    reg = registry(echo=echo)
    ctx = DispatchContext("echo", {"text": text})
    core = reg and ToolPipeline.new(reg).core
    via_pipeline = SimulatedInterpreter().run(ToolPipeline.new(reg).dispatch(ctx))
    via_core = SimulatedInterpreter().run(core.dispatch(ctx, None))
    assert via_pipeline == via_core


def test_layer_returning_a_non_program_is_a_clear_error():
    class Bad:
        name = "bad"

        def dispatch(self, ctx, next):
            return "not a program"

    p = ToolPipeline.builder().with_middleware(Bad()).with_core(ToolRegistry()).build()
    result = SimulatedInterpreter().run(p.dispatch(DispatchContext("x")))
    # the fault stays in its call: an error result that names the layer
    assert result.is_error and isinstance(result.cause, BadReturn)
    assert result.cause.component == "layer 'bad'" and result.cause.expected == "a program"
    assert result.text == "Tool 'x' failed: layer 'bad' returned str, not a program"


def test_layer_yielding_a_non_effect_names_the_culprit():
    class Junk:
        name = "junk"

        def dispatch(self, ctx, next):
            yield 42
            return (yield from next(ctx))

    p = ToolPipeline.builder().with_middleware(Junk()).with_core(ToolRegistry()).build()
    sim = SimulatedInterpreter()
    result = sim.run(p.dispatch(DispatchContext("x")))
    assert result.is_error and isinstance(result.cause, ComponentFailed)
    assert result.cause.component == "layer 'junk'"
    assert re.search(r"ProgramError: .*Junk.dispatch .* yielded 42", result.text)
    (fault,) = [e for e in sim.events if isinstance(e, ComponentFault)]
    assert fault.where.endswith("test_pipeline.py:" + str(Junk.dispatch.__code__.co_firstlineno
                                                          + 1))


class _PassThrough:
    def __init__(self, name):
        self.name = name

    def dispatch(self, ctx, next):
        return (yield from next(ctx))


class _ReturnsJunk:
    name = "junk_return"

    def dispatch(self, ctx, next):
        yield from next(ctx)
        return {"not": "a result"}


def _junk_helper(ctx, next):
    yield from next(ctx)
    return 7


class _ReturnsJunkViaHelper:
    """Its ``dispatch`` is a plain function that returns a generator made elsewhere."""

    name = "junk_helper"

    def dispatch(self, ctx, next):
        return _junk_helper(ctx, next)


@pytest.mark.parametrize("junk", [_ReturnsJunk(), _ReturnsJunkViaHelper()],
                         ids=["generator function", "function returning a generator"])
@pytest.mark.parametrize("outer", ["user", "shipped"])
def test_an_inner_layer_returning_junk_is_named_not_the_layer_around_it(junk, outer):
    """The junk reaches the outer layer's ``yield from`` first: the culprit is the inner
    layer that returned it, whether or not its ``dispatch`` is a generator function (the
    check on a generator function's return is not the guard's final check)."""
    around = _PassThrough("around") if outer == "user" else OutputLimitMiddleware(100)
    reg = registry(echo=echo)
    p = ToolPipeline.builder().with_middleware(around).with_middleware(junk).with_core(
        reg).build()
    result = SimulatedInterpreter().run(p.dispatch(DispatchContext("echo", {"text": "a"})))
    assert result.is_error and isinstance(result.cause, BadReturn)
    assert result.cause.component == f"layer '{junk.name}'"
    assert result.cause.expected == "a DispatchResult"


def test_dispatch_rejects_non_context():
    with pytest.raises(TypeError, match="DispatchContext"):
        ToolPipeline.new(ToolRegistry()).dispatch("Read")  # type: ignore[arg-type]


def test_dispatch_all_runs_in_order():
    p = ToolPipeline.new(registry(echo=echo))
    calls = [DispatchContext("echo", {"text": str(i)}) for i in range(3)]
    answer = SimulatedInterpreter().run(p.dispatch_all(calls))
    assert isinstance(answer, Success)
    assert [r.text for r in answer.unwrap()] == ["0", "1", "2"]


def test_dispatch_all_cancelled_before_start_is_a_hard_failure():
    signal = CancelSignal()
    signal.cancel()
    p = ToolPipeline.new(registry(echo=echo))
    answer = SimulatedInterpreter().run(p.dispatch_all([DispatchContext("echo")], signal))
    assert answer == Failure(DispatchCancelled(0))


def test_dispatch_all_cancelled_after_a_call_drops_earlier_results():
    signal = CancelSignal()

    def cancelling(input, context):
        signal.cancel()
        return "ran"

    p = ToolPipeline.new(registry(c=cancelling, echo=echo))
    calls = [DispatchContext("c", cancel=signal), DispatchContext("echo", cancel=signal)]
    answer = SimulatedInterpreter().run(p.dispatch_all(calls))
    assert answer == Failure(DispatchCancelled(1))


@pytest.mark.parametrize("helper", ["_read", "_write"])
def test_a_fault_in_a_shipped_layers_helper_program_is_that_layers(monkeypatch, helper):
    """Memoize's dispatch returns its read or write program and keeps no frame of its own
    (one frame less per effect): a fault in that program is still blamed on memoize, not on
    the layer outside it or the core."""
    from toolpipe import MemoizingMiddleware, OutputLimitMiddleware
    from toolpipe.layers import memoize

    def broken(*args, **kwargs):
        raise RuntimeError("the key could not be made")

    if helper == "_read":
        monkeypatch.setattr(memoize, "cache_key", broken)
    else:
        monkeypatch.setattr(MemoizingMiddleware, "_write_targets", broken)
    reg = registry(Read=echo, Write=echo)
    p = (ToolPipeline.builder().with_middleware(OutputLimitMiddleware(100))
         .with_middleware(MemoizingMiddleware(["Read"], ["Write"])).with_core(reg).build())
    sim = SimulatedInterpreter()
    tool = "Read" if helper == "_read" else "Write"
    result = sim.run(p.dispatch(DispatchContext(tool, {"text": "x"})))
    assert result.is_error and isinstance(result.cause, ComponentFailed)
    assert result.cause.component == "layer 'memoize'"
    assert "the key could not be made" in result.text
