"""The public test kit: hypothesis strategies, law checks for your own layers, the cache
law, and a deterministic simulation at scale. Needs hypothesis (``pip install
'toolpipe-middleware[test]'``).

    from toolpipe.testing import check_layer_laws
    check_layer_laws(MyLayer())          # raises LawViolation with a readable counterexample

Layout: strategies and the layer laws here; ``toolpipe._cache_law`` (the cache law) and
``toolpipe._simulation`` (the simulation at scale) behind it, both pure: they are handed
what runs programs. This module is the kit's edge that may run them: it uses the simulated
interpreter.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import attrs
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from interpreters.simulated import SimulatedInterpreter
from toolpipe._cache_law import cache_law_machine as cache_law_machine
from toolpipe._cache_law import check_cache_law as check_cache_law
from toolpipe._faults import ComponentFault
from toolpipe._simulation import Planned as Planned
from toolpipe._simulation import SimulationReport as SimulationReport
from toolpipe._simulation import plan as plan
from toolpipe._simulation import simulate_on
from toolpipe.agent import DispatchFailed, Engine, ToolCall, TurnPlanned, plan_waves
from toolpipe.config import OPTIONS
from toolpipe.context import Allow, CancelSignal, Decision, Deny, DispatchContext
from toolpipe.effects import Now, Sleep
from toolpipe.errors import ToolError
from toolpipe.layers.memoize import MemoizingMiddleware
from toolpipe.layers.output_limit import OutputLimitMiddleware
from toolpipe.layers.permission import PermissionMiddleware
from toolpipe.layers.redaction import RedactingMiddleware
from toolpipe.layers.shield import SafetyShieldMiddleware, UnixShield
from toolpipe.layers.timeout import TimeoutConfig, TimeoutMiddleware
from toolpipe.layers.unknown_tool import UnknownToolMiddleware
from toolpipe.layers.verify import NoopVerifier, VerifyMiddleware, VerifyResult
from toolpipe.observe import watched
from toolpipe.pipeline import Middleware, Next, PipelineBuilder
from toolpipe.program import Program
from toolpipe.registry import Tool, ToolRegistry
from toolpipe.result import DispatchResult, DisplayHint, TextContent

HINT = DisplayHint("code", "python")
"""The display hint every kit tool returns, so that the survival law means something."""

# --- tool behaviours -------------------------------------------------------------------------


@attrs.frozen
class ToolBehaviour:
    """How a test tool behaves: its latency, what it returns, whether it fails or hangs."""

    latency: float = 0.0
    output: str = "ok"
    failure: str | None = None  # None | "panic" | "soft"
    hangs: bool = False

    def describe(self) -> str:
        if self.hangs:
            return "never returns"
        what = {"panic": "raises RuntimeError", "soft": "raises ToolError"}.get(
            self.failure or "", "returns")
        text = self.output if len(self.output) <= 30 else self.output[:27] + "..."
        return f"after {self.latency:g}s {what} {text!r} ({len(self.output)} chars)"

    def program(self, input: Mapping[str, Any], context: Any) -> Program[str]:
        yield Sleep(math.inf if self.hangs else self.latency)
        if self.failure == "panic":
            raise RuntimeError(f"behaviour panic ({self.output[:20]})")
        if self.failure == "soft":
            raise ToolError(f"soft failure: {self.output[:20]}")
        return self.output

    def tool(self, name: str, *, concurrency_safe: bool = True) -> Tool:
        return Tool.from_function(name, self.program, display_hint=HINT,
                                  concurrency_safe=concurrency_safe)


SECRET = "ghp_" + "Zq7" * 13
OUTPUT_TEXT = st.one_of(
    st.text(st.characters(codec="utf-8"), max_size=40),
    st.just("x" * 3000),
    st.just(f"token: {SECRET}"),
)


@st.composite
def tool_behaviours(draw: st.DrawFn, *, hangs: bool = True) -> ToolBehaviour:
    """Latency (virtual seconds), output size and content, failure, hang."""
    return ToolBehaviour(
        latency=draw(st.sampled_from([0.0, 0.5, 1.0, 3.0, 30.0])),
        output=draw(OUTPUT_TEXT),
        failure=draw(st.sampled_from([None, None, None, "panic", "soft"])),
        hangs=draw(st.booleans()) if hangs and draw(st.integers(0, 7)) == 0 else False,
    )


def registry_of(behaviours: Mapping[str, ToolBehaviour]) -> ToolRegistry:
    return ToolRegistry(b.tool(name) for name, b in behaviours.items())


TOOL_NAMES = ("Read", "Write", "Bash")


@st.composite
def registries(draw: st.DrawFn, names: Sequence[str] = TOOL_NAMES, *,
               hangs: bool = False) -> ToolRegistry:
    """A registry of kit tools with drawn behaviours. With ``hangs=True`` a tool may never
    return: then put a timeout around what you test, or the simulator reports a deadlock."""
    return registry_of({name: draw(tool_behaviours(hangs=hangs)) for name in names})


JSON_INPUT = st.dictionaries(
    st.sampled_from(["path", "command", "text", "n"]),
    st.one_of(st.text(max_size=12), st.integers(-5, 5), st.just("rm -rf /")),
    max_size=3,
)


@st.composite
def contexts(draw: st.DrawFn, names: Sequence[str] = (*TOOL_NAMES, "Missing")
             ) -> DispatchContext:
    """A context for one of ``names`` with a small JSON input and a turn number."""
    return DispatchContext(draw(st.sampled_from(list(names))), draw(JSON_INPUT),
                           call_id=f"c{draw(st.integers(0, 999))}",
                           turn_number=draw(st.integers(1, 6)))


@st.composite
def results(draw: st.DrawFn) -> DispatchResult:
    return DispatchResult(f"c{draw(st.integers(0, 99))}", TextContent(draw(OUTPUT_TEXT)),
                          draw(st.booleans()), draw(st.floats(0, 100)),
                          draw(st.sampled_from(TOOL_NAMES)), HINT)


# --- shipped layers with random valid options ------------------------------------------------


class Echo:
    """A verifier that echoes the written input back in its diagnostics."""

    def verify(self, context: Any, tool: str, input: Mapping[str, Any]) -> VerifyResult:
        return VerifyResult.ok(f"checked {str(dict(input))[:60]}")


def _policy(denied: frozenset[str]) -> Callable[[DispatchContext], Decision]:
    def check(ctx: DispatchContext) -> Decision:
        return Deny("in the test's deny list") if ctx.tool_name in denied else Allow()

    return check


_TUNED = frozenset({"output_limit", "timeout", "permission", "unknown_tool", "memoize",
                    "verify", "redaction", "safety_shield"})  # layers with a strategy below


def shipped_layers(registry: ToolRegistry, names: Sequence[str] = TOOL_NAMES
                   ) -> st.SearchStrategy[Middleware]:
    """Any shipped layer, with random valid options."""
    tools = st.frozensets(st.sampled_from(list(names)))
    # a layer registered in config.OPTIONS without a strategy here joins with its defaults
    others = [st.just(options().build(registry)) for name, options in OPTIONS.items()
              if name not in _TUNED]
    return st.one_of(
        *others,
        st.integers(0, 5000).map(OutputLimitMiddleware),
        st.builds(lambda t, r, n: TimeoutMiddleware(TimeoutConfig(t, r, n)),
                  st.sampled_from([0.25, 1.0, 2.0, 10.0, 120.0]), st.booleans(),
                  st.integers(0, 3)),
        st.sampled_from([PermissionMiddleware.allow_all(), PermissionMiddleware.deny_all(),
                         PermissionMiddleware.from_context()]),
        tools.map(lambda d: PermissionMiddleware.from_context().with_check(_policy(d))),
        st.floats(0, 1).map(lambda t: UnknownToolMiddleware(registry, t)),
        st.builds(lambda c, w, ttl: MemoizingMiddleware(c, w, ttl_turns=ttl),
                  tools, tools, st.integers(0, 5)),
        st.builds(lambda v, w: VerifyMiddleware(v, w),
                  st.sampled_from([NoopVerifier(), Echo()]), tools),
        st.booleans().map(lambda e: RedactingMiddleware(
            None if e else RedactingMiddleware().patterns.without_entropy())),
        st.builds(lambda b, w: SafetyShieldMiddleware(UnixShield(block_threshold=b,
                                                                 warn_threshold=w)),
                  st.floats(0.3, 1.0), st.floats(0.0, 0.6)),
    )


def stacks(registry: ToolRegistry, *, max_size: int = 6
           ) -> st.SearchStrategy[list[Middleware]]:
    """Stacks of shipped layers, in random order, with random valid options."""
    return st.lists(shipped_layers(registry), max_size=max_size)


# --- law checks for any layer ----------------------------------------------------------------


class LawViolation(AssertionError):
    """A layer broke a law; the message is a readable counterexample."""


@attrs.frozen
class Scenario:
    """One drawn situation: tool behaviours, a turn of calls, an outer deadline, a cancel."""

    behaviours: Mapping[str, ToolBehaviour]
    calls: tuple[ToolCall, ...]
    deadline: float
    cancel_at: float | None

    def describe(self) -> str:
        used = sorted({c.name for c in self.calls})
        tools = "".join(
            f"\n    {n}: {self.behaviours[n].describe() if n in self.behaviours else 'missing'}"
            for n in used)
        calls = ", ".join(f"{c.id} {c.name}({dict(c.input)})" for c in self.calls)
        return (f"  calls: {calls}\n  tools:{tools}\n  outer deadline: {self.deadline}s"
                + (f", cancelled at {self.cancel_at}s" if self.cancel_at is not None else ""))


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    behaviours = {name: draw(tool_behaviours()) for name in TOOL_NAMES}
    raw = draw(st.lists(st.tuples(st.sampled_from([*TOOL_NAMES, "Missing"]), JSON_INPUT),
                        min_size=1, max_size=5))
    calls = tuple(ToolCall(f"call{i}", name, input) for i, (name, input) in enumerate(raw))
    cancel = draw(st.one_of(st.none(), st.sampled_from([0.0, 0.25, 1.5, 4.0])))
    return Scenario(behaviours, calls, draw(st.sampled_from([0.5, 2.0, 45.0])), cancel)


class _Spy:
    """Wraps the layer under test and keeps what went in and out of the rest of the chain."""

    def __init__(self, layer: Middleware, log: list[tuple[str, int, DispatchResult | None,
                                                          DispatchResult]]) -> None:
        self.layer = layer
        self.name = layer.name
        self.log = log

    def dispatch(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        result, seen, inner = yield from watched(self.layer, ctx, next)
        self.log.append((ctx.call_id, len(seen), inner[-1] if inner else None, result))
        return result


def _violation(law: str, layer: Middleware, scenario: Scenario, detail: str) -> LawViolation:
    return LawViolation(
        f"{layer.name!r} ({type(layer).__name__}) breaks the law: {law}\n{detail}\n"
        f"counterexample:\n{scenario.describe()}"
    )


def _turn(layer: Middleware, scenario: Scenario, *, outer_timeout: bool
          ) -> tuple[list[DispatchResult], float, list[Any], list[Any]]:
    registry = registry_of(scenario.behaviours)
    log: list[Any] = []
    builder = PipelineBuilder()
    if outer_timeout:
        builder = builder.with_middleware(TimeoutMiddleware.from_secs(scenario.deadline))
    builder = builder.with_middleware(_Spy(layer, log))
    engine = Engine(registry, call_deadline=None if outer_timeout else 3600.0)
    engine.set_pipeline(builder)
    signal = CancelSignal()
    sim = SimulatedInterpreter()
    if scenario.cancel_at is not None:
        sim.cancel_at(signal, scenario.cancel_at)

    def timed() -> Program[tuple[list[DispatchResult], float]]:
        start = yield Now()
        out = yield from engine.dispatch_turn(scenario.calls, cancel=signal)
        return out, (yield Now()) - start

    out, spent = sim.run(timed())
    return out, spent, log, sim.events


LAWS = ("no result lost", "the engine's id is final", "display hint and duration survive",
        "invisible to wave planning", "an outer timeout bounds the layer", "deterministic")


def check_scenario(make: Callable[[], Middleware], scenario: Scenario,
                   laws: Sequence[str] = LAWS) -> None:
    """Check the laws on one scenario; raise ``LawViolation`` on the first one broken."""
    layer = make()
    try:
        out, spent, log, events = _turn(layer, scenario, outer_timeout=False)
    except Exception as exc:
        raise _violation("no result lost", layer, scenario,
                         f"the turn raised {type(exc).__name__}: {exc}") from exc
    if "no result lost" in laws:
        # a layer that raises or returns junk costs its call only (the pipeline's guard),
        # but it is still broken: its fault event is the counterexample
        failed = [e for e in events if isinstance(e, DispatchFailed | ComponentFault)]
        if len(out) != len(scenario.calls) or failed:
            detail = failed[0].error if failed else f"{len(out)} results"
            raise _violation("no result lost", layer, scenario,
                             f"a dispatch produced no result: {detail}")
    if "the engine's id is final" in laws:
        ids = [r.tool_call_id for r in out]
        if ids != [c.id for c in scenario.calls]:
            raise _violation("the engine's id is final", layer, scenario,
                             f"ids {ids} do not pair with the calls")
    if "display hint and duration survive" in laws:
        for call_id, calls, inner, result in log:
            if calls != 1 or inner is None:
                continue  # answered without the chain, or retried: its own business
            if result.display_hint != inner.display_hint or result.duration != inner.duration:
                raise _violation(
                    "display hint and duration survive", layer, scenario,
                    f"call {call_id}: inner hint {inner.display_hint}, duration "
                    f"{inner.duration}; the layer returned hint {result.display_hint}, "
                    f"duration {result.duration}")
    if "invisible to wave planning" in laws:
        # scenario calls are well-formed and all shown, so the engine plans every one of
        # them and its indices are plan_waves' own
        waves = plan_waves(scenario.calls, registry_of(scenario.behaviours))
        expected = [tuple(wave.calls for wave in waves)]
        planned = [e.waves for e in events if isinstance(e, TurnPlanned)]
        if planned != expected:
            raise _violation("invisible to wave planning", layer, scenario,
                             f"waves {planned} with the layer, {expected} without it")
    if "an outer timeout bounds the layer" in laws:
        bounded, bounded_spent, _, _ = _turn(make(), scenario, outer_timeout=True)
        # each wave is bounded by the deadline; a turn has at most len(calls) waves
        limit = scenario.deadline * len(scenario.calls)
        if bounded_spent > limit + 1e-9 or len(bounded) != len(scenario.calls):
            raise _violation("an outer timeout bounds the layer", layer, scenario,
                             f"the turn took {bounded_spent}s under a {scenario.deadline}s "
                             "timeout per call")
    if "deterministic" in laws:
        again, again_spent, _, _ = _turn(make(), scenario, outer_timeout=False)
        if (again, again_spent) != (out, spent):
            raise _violation("deterministic", layer, scenario,
                             "the same scenario gave different results on a second run")


def check_layer_laws(layer: Middleware | Callable[[], Middleware], *,
                     max_examples: int = 100, laws: Sequence[str] = LAWS,
                     derandomize: bool = True) -> None:
    """Check middleware.md's guarantees on ``layer`` (or a factory of fresh layers) over
    random tools, turns, deadlines and cancellations, on the simulated clock.

    Laws: every call of a turn gets exactly one result and the layer never raises; the
    engine's ids pair the results; a result derived from the rest of the chain keeps its
    display hint and duration; the layer plays no part in wave planning; a timeout outside
    the layer bounds it; the same scenario gives the same results. Raises ``LawViolation``
    with a minimal counterexample.
    """
    make: Callable[[], Middleware]
    if hasattr(layer, "dispatch"):
        instance = cast(Middleware, layer)
        make = lambda: instance  # noqa: E731
    elif callable(layer):
        make = layer
    else:
        raise TypeError(f"check_layer_laws() expects a layer or a factory, got {layer!r:.60}")
    unknown = sorted(set(laws) - set(LAWS))
    if unknown:
        raise ValueError(f"unknown law(s) {unknown}; the laws are: {', '.join(LAWS)}")
    probe = make()
    if not isinstance(getattr(probe, "name", None), str) or not callable(
            getattr(probe, "dispatch", None)):
        raise TypeError(f"{probe!r:.60} is not a middleware (needs `name` and `dispatch`)")

    # No explain phase: it re-runs the failing scenario hundreds of times to annotate lines,
    # half the cost of a counterexample, and LawViolation already says what broke.
    @settings(max_examples=max_examples, deadline=None, derandomize=derandomize,
              database=None, suppress_health_check=list(HealthCheck),
              phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink))
    @given(scenarios())
    def run(scenario: Scenario) -> None:
        check_scenario(make, scenario, laws)

    run()


def simulate(dispatches: int = 10_000, seed: int = 0) -> SimulationReport:
    """Run ``dispatches`` concurrent dispatches, each with a random latency, timeout,
    retries and maybe a cancellation at a random virtual time, through a timeout layer on
    the simulated clock. Checks every result and its virtual end time against the plan."""
    return simulate_on(SimulatedInterpreter(seed), dispatches, seed)


__all__ = [
    "HINT", "LAWS", "LawViolation", "Scenario", "SimulationReport", "ToolBehaviour",
    "check_layer_laws", "check_scenario", "contexts", "registries", "registry_of",
    "results", "scenarios", "shipped_layers", "simulate", "stacks", "tool_behaviours",
]
