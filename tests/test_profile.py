from interpreters.simulated import SimulatedInterpreter
from toolpipe import (
    ConstrainedProfile,
    DispatchContext,
    MemoizingMiddleware,
    NoopVerifier,
    NoPathExtractor,
    OutputLimitMiddleware,
    Tool,
    ToolRegistry,
    VerifyMiddleware,
)


def test_canonical_order_and_settings():
    builder = ConstrainedProfile().pipeline_builder()
    ol, verify, memo = builder.layers
    assert [m.name for m in builder.layers] == ["output_limit", "verify", "memoize"]
    assert isinstance(ol, OutputLimitMiddleware) and ol.max_chars == 16_384
    assert isinstance(verify, VerifyMiddleware) and isinstance(verify.verifier, NoopVerifier)
    assert verify.write_tools == {"Write", "Edit", "MultiEdit"}
    assert isinstance(memo, MemoizingMiddleware)
    assert memo.cached_tools == {"Read", "Glob", "Grep", "LS"}
    assert memo.write_tools == {"Write", "Edit", "MultiEdit"}
    assert isinstance(memo.path_extractor, NoPathExtractor) and memo.ttl == 5


def test_host_layers_land_inside_memoize():
    class Host:
        name = "host"

        def dispatch(self, ctx, next):
            return (yield from next(ctx))

    builder = ConstrainedProfile().pipeline_builder().with_middleware(Host())
    reg = ToolRegistry()
    assert builder.with_core(reg).build().middleware_names() == [
        "output_limit", "verify", "memoize", "host", "tool_call"]


def test_end_to_end_cap_verify_cache():
    reads = []

    def read(input, context):
        reads.append(1)
        return "r" * 20_000

    reg = ToolRegistry([Tool.from_function("Read", read),
                        Tool.from_function("Write", lambda i, c: "w")])
    p = ConstrainedProfile().pipeline_builder().with_core(reg).build()
    sim = SimulatedInterpreter()
    first = sim.run(p.dispatch(DispatchContext("Read")))
    again = sim.run(p.dispatch(DispatchContext("Read")))
    assert len(first.text) == 16_384 and first.text.endswith("\n[truncated]")
    assert len(again.text) == 16_384 and reads == [1]
    assert sim.run(p.dispatch(DispatchContext("Write"))).text == "w\n\n[verify] passed: "
    sim.run(p.dispatch(DispatchContext("Read")))
    assert reads == [1, 1]  # the write cleared the (path-less) cache
