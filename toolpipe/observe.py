"""Which layers acted on a call: a wrapper that watches a layer from outside.

``observed(builder)`` wraps every layer. A wrapped layer emits ``LayerActed`` when it
answered without running the rest of the chain, rewrote the call, ran the rest more than
once (retries), or changed the result. Layers are untouched: the wrapper only compares
what went in and came out, so it works for any layer, shipped or yours.
"""

from __future__ import annotations

import attrs

from toolpipe.context import DispatchContext
from toolpipe.effects import Emit
from toolpipe.pipeline import Middleware, Next, PipelineBuilder
from toolpipe.program import Program
from toolpipe.result import DispatchResult


@attrs.frozen
class LayerActed:
    call_id: str
    layer: str
    how: str


class Observed:
    """``layer``, watched. Same name, same behaviour, plus ``LayerActed`` events."""

    def __init__(self, layer: Middleware) -> None:
        self.layer = layer
        self.name = layer.name

    def __repr__(self) -> str:
        return f"Observed({self.layer!r})"

    def dispatch(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        result, seen, inner = yield from watched(self.layer, ctx, next)
        how = describe(ctx, seen, inner, result)
        if how:
            yield Emit(LayerActed(ctx.call_id, self.name, how))
        return result


def watched(layer: Middleware, ctx: DispatchContext, next: Next
            ) -> Program[tuple[DispatchResult, list[DispatchContext], list[DispatchResult]]]:
    """Run ``layer`` and keep what it passed to the rest of the chain and got back:
    (its result, the contexts it sent on, the results that came back), in order."""
    seen: list[DispatchContext] = []
    inner: list[DispatchResult] = []

    def spy(inner_ctx: DispatchContext) -> Program[DispatchResult]:
        seen.append(inner_ctx)
        result = yield from next(inner_ctx)
        inner.append(result)
        return result

    result = yield from layer.dispatch(ctx, spy)
    return result, seen, inner


def describe(ctx: DispatchContext, seen: list[DispatchContext],
             inner: list[DispatchResult], result: DispatchResult) -> str:
    """A short phrase for what a layer did, or "" when it passed the call through."""
    if not seen:
        return "answered"
    acts: list[str] = []
    first = seen[0]
    if first.tool_name != ctx.tool_name:
        acts.append(f"renamed to {first.tool_name}")
    elif first.input != ctx.input:
        acts.append("rewrote the input")
    if len(seen) > 1:
        acts.append(f"ran {len(seen)} attempts")
    if not inner:
        acts.append("answered")
    elif result != inner[-1]:
        acts.append("changed the result")
    return ", ".join(acts)


def observed(builder: PipelineBuilder) -> PipelineBuilder:
    """The same builder with every layer wrapped in ``Observed``."""
    return attrs.evolve(builder, layers=tuple(Observed(layer) for layer in builder.layers))
