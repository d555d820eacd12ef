"""The public test kit: strategies, check_layer_laws on shipped and broken layers, and the
deterministic simulation at scale."""

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreters.simulated import SimulatedInterpreter
from toolpipe import (
    DispatchContext,
    DispatchResult,
    DisplayHint,
    MemoizingMiddleware,
    NoopVerifier,
    OutputLimitMiddleware,
    PermissionMiddleware,
    RedactingMiddleware,
    SafetyShieldMiddleware,
    TextContent,
    TimeoutConfig,
    TimeoutMiddleware,
    ToolPipeline,
    ToolRegistry,
    UnknownToolMiddleware,
    VerifyMiddleware,
)
from toolpipe.testing import (
    LAWS,
    LawViolation,
    check_layer_laws,
    contexts,
    registries,
    results,
    simulate,
    stacks,
    tool_behaviours,
)

SHIPPED = {
    "permission": lambda: PermissionMiddleware.deny_all(),
    "timeout": lambda: TimeoutMiddleware(TimeoutConfig(1.0, True, 2)),
    "output_limit": lambda: OutputLimitMiddleware(10),
    "unknown_tool": lambda: UnknownToolMiddleware(ToolRegistry()),
    "memoize": lambda: MemoizingMiddleware(["Read"], ["Write"]),
    "verify": lambda: VerifyMiddleware(NoopVerifier(), ["Write", "Bash"]),
    "redaction": lambda: RedactingMiddleware(),
    "safety_shield": lambda: SafetyShieldMiddleware(),
}


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_every_shipped_layer_keeps_the_laws(name):
    check_layer_laws(SHIPPED[name], max_examples=25)


@attrs.frozen
class DropsHint:
    name: str = "drops_hint"

    def dispatch(self, ctx, next):
        result = yield from next(ctx)
        return attrs.evolve(result, display_hint=DisplayHint())


@attrs.frozen
class ResetsDuration:
    name: str = "resets_duration"

    def dispatch(self, ctx, next):
        result = yield from next(ctx)
        return attrs.evolve(result, duration=0.0)


@attrs.frozen
class RaisesOnBash:
    name: str = "raises_on_bash"

    def dispatch(self, ctx, next):
        if ctx.tool_name == "Bash":
            raise KeyError("no handler for Bash")
        return (yield from next(ctx))


class Flaky:
    """Non-deterministic: appends a random number."""

    name = "flaky"

    def __init__(self):
        self.rng = random.Random()

    def dispatch(self, ctx, next):
        result = yield from next(ctx)
        return attrs.evolve(result, output=TextContent(f"{result.text} {self.rng.random()}"))


@pytest.mark.parametrize(("layer", "law", "detail"), [
    (DropsHint(), "display hint and duration survive", "the layer returned hint"),
    (ResetsDuration(), "display hint and duration survive", "duration 0.0"),
    (RaisesOnBash(), "no result lost", "no handler for Bash"),
    (Flaky(), "deterministic", "different results"),
])
def test_broken_layers_get_a_readable_counterexample(layer, law, detail):
    with pytest.raises(LawViolation) as caught:
        check_layer_laws(layer, max_examples=30)
    message = str(caught.value)
    assert f"breaks the law: {law}" in message and detail in message
    assert "counterexample:\n  calls: call0 " in message
    assert "\n  tools:\n    " in message and len(message) < 1200


def test_the_laws_can_be_chosen_and_arguments_are_checked():
    check_layer_laws(ResetsDuration(), laws=["no result lost", "deterministic"],
                     max_examples=10)
    with pytest.raises(ValueError, match="unknown law"):
        check_layer_laws(ResetsDuration(), laws=["be nice"])
    with pytest.raises(TypeError, match="not a middleware"):
        check_layer_laws(lambda: 42)
    assert len(LAWS) == 6


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_strategies_build_valid_values(data):
    reg = data.draw(registries(hangs=True))
    assert set(reg.names()) == {"Bash", "Read", "Write"}
    ctx = data.draw(contexts())
    assert isinstance(ctx, DispatchContext)
    assert isinstance(data.draw(results()), DispatchResult)
    behaviour = data.draw(tool_behaviours(hangs=False))
    assert not behaviour.hangs
    layers = data.draw(stacks(reg))
    # tools may hang: a timeout outermost guarantees an answer
    p = (ToolPipeline.builder().with_middleware(TimeoutMiddleware.from_secs(100))
         .with_middlewares(layers).with_core(reg).build())
    r = SimulatedInterpreter().run(p.dispatch(attrs.evolve(ctx, cancel=ctx.cancel)))
    assert isinstance(r, DispatchResult)


def test_the_simulation_suite_at_scale():
    """5,000 concurrent dispatches, each as planned (its speed, 10,000 a second or so, is
    the benchmarks' business, not a test's)."""
    report = simulate(5_000, seed=2026)
    assert report.ok, report.mismatches
    assert len(report.outcomes) == 5_000
    texts = {text.split(" after ")[0] for text, _ in report.outcomes}
    assert texts == {"done", "Tool 't' timed out", "Tool 't' cancelled"}


def test_a_seed_replays_the_simulation_bit_for_bit():
    first = simulate(1_000, seed=7)
    assert first == simulate(1_000, seed=7)
    assert first.outcomes != simulate(1_000, seed=8).outcomes


def test_a_registered_layer_joins_the_test_kit_with_one_line(monkeypatch):
    """Adding a layer is its module and its line in config.OPTIONS: the law tests then
    draw it (with its default options) without touching the test kit."""
    import attrs
    from hypothesis import find

    from toolpipe import config, testing

    @attrs.frozen
    class Stamp:
        name = "stamp"

        def dispatch(self, ctx, next):
            return (yield from next(ctx))

    @attrs.frozen(kw_only=True)
    class StampOptions:
        def build(self, registry):
            return Stamp()

    assert testing._TUNED <= set(config.OPTIONS)
    monkeypatch.setitem(config.OPTIONS, "stamp", StampOptions)
    drawn = find(testing.shipped_layers(ToolRegistry()), lambda layer: layer.name == "stamp")
    assert isinstance(drawn, Stamp)
