"""The engine around the pipeline: a turn's calls planned into waves, each wave
dispatched concurrently (``Gather``), ids stamped after the pipeline, a backstop deadline,
and its events (``TurnPlanned``, ``CallFinished``, ``DispatchFailed``)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs
from returns.result import Success

from toolpipe._approval_marks import APPROVED
from toolpipe._checks import finite_number, positive_int
from toolpipe._names import did_you_mean
from toolpipe.agent._calls import ToolCall, plan_waves
from toolpipe.context import CancelSignal, DispatchContext, ToolContext
from toolpipe.effects import Emit, Gather, IsCancelled, WithDeadline
from toolpipe.errors import ConfigError, PipelineError
from toolpipe.events import LoggedEvent
from toolpipe.failures import NO_RESULT as NO_RESULT
from toolpipe.failures import Cancelled, Invalid, NoResult, NotFound, TimedOut
from toolpipe.pipeline import PipelineBuilder, ToolPipeline
from toolpipe.program import Program
from toolpipe.registry import ToolRegistry
from toolpipe.result import DispatchResult
from toolpipe.secrets import SecretPatternSet

_SCRUB = SecretPatternSet.default_common()

DEFAULT_MAX_CONCURRENCY = 8
DEFAULT_CALL_DEADLINE = 600.0
"""The engine's backstop: a call still running after this many seconds is dropped with a
soft error, even in a pipeline without a timeout layer (a tool that never returns)."""


@attrs.frozen
class TurnPlanned:
    """Emitted before a turn runs: how many calls, the waves they run in, and the calls as
    the model issued them (with the names it was shown), so a trace can replay the turn."""

    turn: int
    calls: int
    waves: tuple[tuple[int, ...], ...]
    tool_calls: tuple[ToolCall, ...] = ()
    visible: tuple[str, ...] | None = None


@attrs.frozen
class CallFinished:
    """Emitted as soon as a call of a turn has its final, stamped result."""

    turn: int
    index: int
    name: str
    input: Mapping[str, Any]
    result: DispatchResult
    reached_pipeline: bool


@attrs.frozen
class DispatchFailed(LoggedEvent):
    """A dispatch raised (a broken layer): its slot gets the soft error NO_RESULT."""

    turn: int = 0
    call_id: str = ""
    error: str = ""
    level: int = attrs.field(default=logging.ERROR, kw_only=True)
    logger: str = attrs.field(default="toolpipe.agent", kw_only=True)

    def message(self) -> str:
        return f"dispatch of call {self.call_id!r} in turn {self.turn} raised: {self.error}"


class Engine:
    """Dispatches the model's tool calls through the pipeline, a turn at a time.

    ``set_pipeline(builder)`` installs layers; the engine injects its own registry as the
    core. Without it the pipeline is the core alone.
    """

    def __init__(
        self,
        registry: ToolRegistry,
        *,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        tool_context: ToolContext | None = None,
        barriers: bool = False,
        call_deadline: float | None = DEFAULT_CALL_DEADLINE,
    ) -> None:
        if not isinstance(registry, ToolRegistry):
            raise ConfigError(f"registry must be a ToolRegistry, got {type(registry).__name__}")
        if tool_context is not None and not isinstance(tool_context, ToolContext):
            raise ConfigError(
                f"tool_context must be a ToolContext, got {type(tool_context).__name__}"
            )
        self.registry = registry
        self.max_concurrency = positive_int("max_concurrency", max_concurrency)
        self.tool_context = tool_context or ToolContext()
        self.barriers = bool(barriers)
        self.call_deadline = (None if call_deadline is None
                              else finite_number("call_deadline", call_deadline, positive=True))
        self._pipeline = ToolPipeline.new(registry)
        self._started = False

    @property
    def pipeline(self) -> ToolPipeline:
        return self._pipeline

    def pipeline_builder(self) -> PipelineBuilder:
        """An empty builder for this engine: ``with_core()`` on it is an error."""
        return PipelineBuilder(engine_owned=True)

    def set_pipeline(self, builder: PipelineBuilder) -> None:
        """Install the builder's layers around this engine's registry (before the first run)."""
        if not isinstance(builder, PipelineBuilder):
            raise PipelineError(
                f"set_pipeline() expects a PipelineBuilder, got {type(builder).__name__}"
            )
        if self._started:
            raise PipelineError("set_pipeline() after the engine's first run")
        if builder.core is not None:
            raise PipelineError(
                "the builder already has a core: do not call with_core() on a builder handed "
                "to an engine; the engine injects its own registry"
            )
        self._pipeline = attrs.evolve(builder, engine_owned=True).build_with(self.registry)

    def middleware_names(self) -> list[str]:
        return self._pipeline.middleware_names()

    def dispatch_turn(
        self,
        calls: Iterable[ToolCall],
        *,
        visible: Iterable[str] | None = None,
        turn: int = 1,
        cancel: CancelSignal | None = None,
        approved: bool = False,
    ) -> Program[list[DispatchResult]]:
        """Run one turn's calls; results in the model's order, each stamped with its id.

        ``visible``: the tool names the model was shown (None: no filter). A call to any
        other name is answered here and never reaches the pipeline. Every call gets exactly
        one result. ``approved``: a person approved these calls (a resumed run), so a layer
        that would ask does not.
        """
        self._started = True
        calls = list(calls)
        for i, call in enumerate(calls):
            if not isinstance(call, ToolCall):
                raise TypeError(f"calls[{i}]: expected a ToolCall, got {type(call).__name__}")
        shown = None if visible is None else frozenset(visible)
        context = self.tool_context if not approved else attrs.evolve(
            self.tool_context, state={**self.tool_context.state, APPROVED: True})
        return self._turn(calls, shown, turn, cancel or CancelSignal(), context)

    def _turn(
        self, calls: list[ToolCall], shown: frozenset[str] | None, turn: int,
        signal: CancelSignal, tool_context: ToolContext,
    ) -> Program[list[DispatchResult]]:
        n = len(calls)
        ids = _ids(calls, turn)
        results: list[DispatchResult | None] = [None] * n
        runnable: list[int] = []
        names = None if shown is None else tuple(sorted(shown))
        first_use: dict[str, int] = {}
        for i, call in enumerate(calls):
            problem = call.problem
            if problem is None and call.id in first_use:
                problem = f"duplicate id '{call.id}' (already used by call {first_use[call.id]})"
            first_use.setdefault(call.id, i)
            if problem is not None:
                results[i] = DispatchResult.failed(ids[i], Invalid(call.name, problem))
            elif shown is not None and call.name not in shown:
                listed = names or ()  # the names shown, sorted (set whenever shown is)
                results[i] = DispatchResult.failed(ids[i], NotFound(
                    call.name, listed, did_you_mean(call.name, listed)))
            else:
                runnable.append(i)
        waves = plan_waves([calls[i] for i in runnable], self.registry, barriers=self.barriers)
        plan = tuple(tuple(runnable[j] for j in wave.calls) for wave in waves)
        yield Emit(TurnPlanned(turn, n, plan, tuple(calls), names))
        for i, result in enumerate(results):
            if result is not None:
                yield Emit(CallFinished(turn, i, calls[i].name, calls[i].input, result, False))
        pipeline = self._pipeline
        for wave_calls in plan:
            if (yield IsCancelled(signal)):
                for i in wave_calls:
                    result = DispatchResult.failed(ids[i], Cancelled(calls[i].name))
                    results[i] = result
                    yield Emit(CallFinished(turn, i, calls[i].name, calls[i].input, result,
                                            False))
                continue
            ctxs = [
                DispatchContext(calls[i].name, calls[i].input, ids[i], turn, signal,
                                tool_context=tool_context)
                for i in wave_calls
            ]
            answers = yield Gather(
                [_dispatcher(pipeline, ctx, self.call_deadline) for ctx in ctxs],
                limit=self.max_concurrency,
            )
            for i, answer in zip(wave_calls, answers, strict=True):
                value = answer.unwrap() if isinstance(answer, Success) else None
                if isinstance(value, DispatchResult):
                    result = attrs.evolve(value, tool_call_id=ids[i])  # the engine's id
                else:
                    error = (repr(answer.failure()) if not isinstance(answer, Success)
                             else f"returned {value!r:.60}, not a DispatchResult")
                    # an exception's text may quote what the tool printed: no raw secret
                    # goes into an event or a log
                    yield Emit(DispatchFailed(turn=turn, call_id=ids[i],
                                              error=_SCRUB.redact(error)))
                    result = DispatchResult.failed(ids[i], NoResult(calls[i].name))
                results[i] = result
                yield Emit(CallFinished(turn, i, calls[i].name, calls[i].input, result, True))
        return [r if r is not None else DispatchResult.failed(ids[i], NoResult(calls[i].name))
                for i, r in enumerate(results)]


def _dispatcher(
    pipeline: ToolPipeline, ctx: DispatchContext, deadline: float | None
) -> Callable[[], Any]:
    if deadline is None:
        return lambda: pipeline.dispatch(ctx)
    return lambda: _backstop(pipeline, ctx, deadline)


def _backstop(
    pipeline: ToolPipeline, ctx: DispatchContext, seconds: float
) -> Program[DispatchResult]:
    answer = yield WithDeadline(seconds, lambda: pipeline.dispatch(ctx))
    if isinstance(answer, Success):
        return answer.unwrap()  # type: ignore[no-any-return]
    return DispatchResult.failed(ctx.call_id, TimedOut(ctx.tool_name, seconds, engine=True),
                                 seconds)


def _ids(calls: Sequence[ToolCall], turn: int) -> list[str]:
    """The model's ids; a call without one gets a generated id so its result can pair."""
    return [c.id if c.id else f"toolpipe-{turn}-{i}" for i, c in enumerate(calls)]
