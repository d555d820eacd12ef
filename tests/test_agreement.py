"""The same programs give the same results on the simulated, asyncio and trio interpreters
(durations aside, for the real clocks)."""

import asyncio

import attrs
import trio
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreters.asyncio import AsyncioInterpreter
from interpreters.simulated import SimulatedInterpreter
from interpreters.trio import TrioInterpreter
from toolpipe import DispatchContext, TextContent, Tool, ToolPipeline, ToolRegistry
from toolpipe.effects import CacheGet, CachePut, Emit, Sleep, WithDeadline


def upper(input, context):
    yield Sleep(0)
    return str(input.get("text", "")).upper()


def panicky(input, context):
    yield Sleep(0)
    raise ValueError(f"bad {input.get('text')}")


def plain(input, context):
    return f"plain:{sorted(input)}"


REGISTRY = ToolRegistry([
    Tool.from_function("upper", upper),
    Tool.from_function("panicky", panicky),
    Tool.from_function("plain", plain),
])


@attrs.frozen
class PassThrough:
    name: str = "pass"

    def dispatch(self, ctx, next):
        return (yield from next(ctx))


@attrs.frozen
class Rename:
    src: str
    dst: str
    name: str = "rename"

    def dispatch(self, ctx, next):
        if ctx.tool_name == self.src:
            ctx = attrs.evolve(ctx, tool_name=self.dst)
        return (yield from next(ctx))


@attrs.frozen
class AddInput:
    key: str
    name: str = "add_input"

    def dispatch(self, ctx, next):
        return (yield from next(attrs.evolve(ctx, input={**ctx.input, self.key: 1})))


@attrs.frozen
class Suffix:
    text: str
    name: str = "suffix"

    def dispatch(self, ctx, next):
        r = yield from next(ctx)
        yield Emit(self.text)
        return attrs.evolve(r, output=TextContent(r.text + self.text))


@attrs.frozen
class ShortCircuit:
    tool: str
    name: str = "short"

    def dispatch(self, ctx, next):
        if ctx.tool_name == self.tool:
            from toolpipe import DispatchResult

            return DispatchResult.error(ctx.call_id, "short-circuited", ctx.tool_name)
        return (yield from next(ctx))


@attrs.frozen
class Scoped:
    name: str = "scoped"

    def dispatch(self, ctx, next):
        answer = yield WithDeadline(30.0, lambda: next(ctx))
        return answer.unwrap()


@attrs.frozen
class Cache:
    name: str = "cache"

    def dispatch(self, ctx, next):
        hit = yield CacheGet("agree", ctx.tool_name)
        r = yield from next(ctx)
        yield CachePut("agree", ctx.tool_name, r.text)
        return attrs.evolve(r, output=TextContent(r.text + f"|seen={hit.value_or('-')}"))


tools = st.sampled_from(["upper", "panicky", "plain", "missing"])
layers = st.one_of(
    st.just(PassThrough()),
    st.builds(Rename, tools, tools),
    st.builds(AddInput, st.sampled_from(["a", "b"])),
    st.builds(Suffix, st.text("xyz", min_size=1, max_size=3)),
    st.builds(ShortCircuit, tools),
    st.just(Scoped()),
    st.just(Cache()),
)


def normalise(results):
    return [attrs.evolve(r, duration=0.0) for r in results]


def run_sim(pipeline, ctxs):
    return SimulatedInterpreter().run_all([pipeline.dispatch(c) for c in ctxs])


def run_asyncio(pipeline, ctxs):
    async def main():
        interp = AsyncioInterpreter()
        return [await interp.run(pipeline.dispatch(c)) for c in ctxs]

    return asyncio.run(main())


def run_trio(pipeline, ctxs):
    async def main():
        interp = TrioInterpreter()
        return [await interp.run(pipeline.dispatch(c)) for c in ctxs]

    return trio.run(main)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(layers, max_size=6),
    st.lists(st.tuples(tools, st.text(max_size=4)), min_size=1, max_size=3),
)
def test_same_results_on_all_three_interpreters(stack, calls):
    pipeline = ToolPipeline.builder().with_middlewares(stack).with_core(REGISTRY).build()
    ctxs = [DispatchContext(t, {"text": x}, call_id=f"c{i}") for i, (t, x) in enumerate(calls)]
    # sequential on the simulator too, so that the cache layer sees the same history
    sim = SimulatedInterpreter()
    simulated = [sim.run(pipeline.dispatch(c)) for c in ctxs]
    assert normalise(simulated) == normalise(run_asyncio(pipeline, ctxs))
    assert normalise(simulated) == normalise(run_trio(pipeline, ctxs))
