"""The laws of DESIGN.md over random stacks of shipped layers, on the simulated clock,
each with a check that the wrong order really breaks the guarantee."""

from hypothesis import given, settings
from hypothesis import strategies as st

from interpreters.simulated import SimulatedInterpreter
from toolpipe import (
    DispatchContext,
    DisplayHint,
    MemoizingMiddleware,
    NoopVerifier,
    OutputLimitMiddleware,
    PermissionMiddleware,
    RedactingMiddleware,
    SafetyShieldMiddleware,
    TimeoutConfig,
    TimeoutMiddleware,
    Tool,
    ToolPipeline,
    ToolRegistry,
    UnknownToolMiddleware,
    VerifyMiddleware,
    VerifyResult,
)
from toolpipe.effects import Sleep

SECRET = "ghp_" + "Zz9" * 14
HINT = DisplayHint("code", "python")


def make_registry(output="out", latency=1.0):
    def tool(input, context):
        yield Sleep(latency)
        return input.get("text", output)

    return ToolRegistry([
        Tool.from_function(name, tool, display_hint=HINT) for name in ("Read", "Write", "Bash")
    ])


class Echoer:
    """A verifier that echoes the input back in its diagnostics."""

    def __init__(self):
        self.calls = 0

    def verify(self, context, tool, input):
        self.calls += 1
        return VerifyResult.ok(f"checked {input.get('text', '')}")


def shipped_layers(reg):
    """Shipped layers configured so that an ordinary call passes through them."""
    return st.sampled_from([
        lambda: OutputLimitMiddleware(10_000),
        lambda: VerifyMiddleware(NoopVerifier(), ["Write"]),
        lambda: MemoizingMiddleware(["Read"], ["Write"]),
        lambda: RedactingMiddleware(),
        lambda: TimeoutMiddleware(TimeoutConfig(100, True, 2)),
        lambda: PermissionMiddleware.allow_all(),
        lambda: UnknownToolMiddleware(reg),
        lambda: SafetyShieldMiddleware(),
    ]).map(lambda make: make())


REG = make_registry()
stacks = st.lists(shipped_layers(REG), max_size=6)
calls = st.lists(st.tuples(st.sampled_from(["Read", "Write", "Bash"]),
                           st.text("abc xyz", max_size=30)), min_size=1, max_size=4)


def run_all(layers, ctxs, reg=REG):
    p = ToolPipeline.builder().with_middlewares(layers).with_core(reg).build()
    sim = SimulatedInterpreter(record=True)
    return [sim.run(p.dispatch(c)) for c in ctxs], sim


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=1, max_value=40), stacks, calls)
def test_outer_output_limit_bounds_whatever_inner_layers_append(n, inner, cs):
    ctxs = [DispatchContext(t, {"text": x}) for t, x in cs]
    results, _ = run_all([OutputLimitMiddleware(n), *inner], ctxs)
    assert all(len(r.text) <= max(n, len("\n[truncated]")) for r in results)


def test_output_limit_inside_verify_is_broken():
    ctx = DispatchContext("Write", {"text": "w" * 5})
    (r,), _ = run_all([VerifyMiddleware(NoopVerifier(), ["Write"]), OutputLimitMiddleware(20)],
                      [ctx])
    assert len(r.text) > 20  # the verdict escaped the cap


@settings(max_examples=50, deadline=None)
@given(stacks, calls)
def test_deny_short_circuits_whatever_is_inside(inner, cs):
    ctxs = [DispatchContext(t, {"text": x}) for t, x in cs]
    results, sim = run_all([PermissionMiddleware.deny_all(), *inner], ctxs)
    assert sim.trace == [] and all(r.duration == 0 and r.is_error for r in results)


def test_deny_inside_other_layers_lets_them_work_first():
    ctx = DispatchContext("Read")
    (_,), sim = run_all([MemoizingMiddleware(["Read"], ["Write"]),
                         PermissionMiddleware.deny_all()], [ctx])
    assert sim.trace != []  # the cache was consulted before the deny


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Read", "Write"]), st.sampled_from(["a", "b"])),
                min_size=1, max_size=8))
def test_memoize_inside_verify_cache_never_holds_diagnostics_every_write_verified(cs):
    verifier = Echoer()
    layers = [VerifyMiddleware(verifier, ["Write"]), MemoizingMiddleware(["Read"], ["Write"])]
    ctxs = [DispatchContext(t, {"path": p, "text": p}) for t, p in cs]
    _, sim = run_all(layers, ctxs)
    writes = sum(1 for t, _ in cs if t == "Write")
    assert verifier.calls == writes
    entries = [e[0] for space in sim.store._spaces.values() for e in space.entries.values()]
    assert all("[verify]" not in e.result.text for e in entries)


def test_verify_inside_memoize_caches_diagnostics_and_skips_verification():
    # A tool that is both verified and cached (say a formatter): the wrong order caches
    # the verdict and serves it again without verifying.
    verifier = Echoer()
    layers = [MemoizingMiddleware(["Read"], ["Write"]), VerifyMiddleware(verifier, ["Read"])]
    ctx = DispatchContext("Read", {"path": "a", "text": "t"})
    results, _ = run_all(layers, [ctx, ctx])
    assert verifier.calls == 1 and "[verify]" in results[1].text and "[cached]" in results[1].text


@settings(max_examples=50, deadline=None)
@given(stacks, st.sampled_from(["Read", "Write", "Bash"]))
def test_redact_outside_verify_no_secret_survives(inner, tool):
    layers = [RedactingMiddleware(), VerifyMiddleware(Echoer(), ["Write", "Read", "Bash"]),
              *inner]
    (r,), _ = run_all(layers, [DispatchContext(tool, {"text": f"key {SECRET}"})])
    assert SECRET not in r.text


def test_redact_inside_verify_leaks_the_echoed_secret():
    layers = [VerifyMiddleware(Echoer(), ["Write"]), RedactingMiddleware()]
    (r,), _ = run_all(layers, [DispatchContext("Write", {"text": f"key {SECRET}"})])
    assert SECRET in r.text


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=1, max_value=30), calls)
def test_idempotence_of_output_limit_and_redaction(n, cs):
    ctxs = [DispatchContext(t, {"text": x + " " + SECRET}) for t, x in cs]
    once, _ = run_all([OutputLimitMiddleware(n)], ctxs)
    twice, _ = run_all([OutputLimitMiddleware(n), OutputLimitMiddleware(n)], ctxs)
    assert once == twice
    once, _ = run_all([RedactingMiddleware()], ctxs)
    twice, _ = run_all([RedactingMiddleware(), RedactingMiddleware()], ctxs)
    assert once == twice


@settings(max_examples=60, deadline=None)
@given(stacks, calls)
def test_display_hint_and_duration_survive_every_shipped_layer(inner, cs):
    ctxs = [DispatchContext(t, {"text": x}) for t, x in cs]
    results, _ = run_all(inner, ctxs)
    for r in results:
        assert r.display_hint == HINT and r.duration == 1.0 and not r.is_error


class Tag:
    """Emits before/after events around the rest of the chain."""

    def __init__(self, label):
        self.name = f"tag_{label}"
        self.label = label

    def dispatch(self, ctx, next):
        from toolpipe.effects import Emit

        yield Emit(("before", self.label))
        result = yield from next(ctx)
        yield Emit(("after", self.label))
        return result


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.integers(0, 99).map(Tag), shipped_layers(REG)), max_size=10),
       st.sampled_from(["Read", "Write", "Bash"]))
def test_order_before_in_registration_order_after_in_reverse_in_any_stack(layers, tool):
    _, sim = run_all(layers, [DispatchContext(tool, {"text": "x"})])
    tags = [layer.label for layer in layers if isinstance(layer, Tag)]
    events = [e for e in sim.events if isinstance(e, tuple) and e[0] in ("before", "after")]
    assert events == [("before", t) for t in tags] + [("after", t) for t in reversed(tags)]
