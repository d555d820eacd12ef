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
class Acts:
    """What a layer did to one call, as a value (``describe`` puts it in words)."""

    answered: bool = False  # it gave the result without the rest of the chain's last word
    renamed_to: str | None = None
    rewrote_input: bool = False
    attempts: int = 1  # how many times it ran the rest of the chain
    changed_result: bool = False


@attrs.frozen
class LayerActed:
    call_id: str
    layer: str
    how: str
    acts: Acts = attrs.field(factory=Acts)


class Observed:
    """``layer``, watched. Same name, same behaviour, plus ``LayerActed`` events."""

    def __init__(self, layer: Middleware) -> None:
        self.layer = layer
        self.name = layer.name

    def __repr__(self) -> str:
        return f"Observed({self.layer!r})"

    def dispatch(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        result, seen, inner = yield from watched(self.layer, ctx, next)
        done = acts_of(ctx, seen, inner, result)
        how = describe_acts(done)
        if how:
            yield Emit(LayerActed(ctx.call_id, self.name, how, done))
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


def acts_of(ctx: DispatchContext, seen: list[DispatchContext],
            inner: list[DispatchResult], result: DispatchResult) -> Acts:
    """What a layer did, from what it sent on and got back."""
    if not seen:
        return Acts(answered=True, attempts=0)
    first = seen[0]
    renamed = first.tool_name if first.tool_name != ctx.tool_name else None
    return Acts(answered=not inner, renamed_to=renamed,
                rewrote_input=renamed is None and first.input != ctx.input,
                attempts=len(seen), changed_result=bool(inner) and result != inner[-1])


def describe_acts(acts: Acts) -> str:
    """A short phrase for what a layer did, or "" when it passed the call through."""
    if acts.attempts == 0:
        return "answered"
    words: list[str] = []
    if acts.renamed_to is not None:
        words.append(f"renamed to {acts.renamed_to}")
    elif acts.rewrote_input:
        words.append("rewrote the input")
    if acts.attempts > 1:
        words.append(f"ran {acts.attempts} attempts")
    if acts.answered:
        words.append("answered")
    elif acts.changed_result:
        words.append("changed the result")
    return ", ".join(words)


def observed(builder: PipelineBuilder) -> PipelineBuilder:
    """The same builder with every layer wrapped in ``Observed``."""
    return attrs.evolve(builder, layers=tuple(Observed(layer) for layer in builder.layers))
