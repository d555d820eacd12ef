"""The engine around the pipeline: tool calls, wave planning, turn dispatch, id stamping,
and the agent loop.

Everything here is a program too: the engine yields ``Gather`` to run a wave's calls
concurrently and ``CallModel`` to ask the model, so a whole agent session runs on asyncio,
trio or the simulated clock, where the waves' timing is exact.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, Protocol

import attrs
from returns.result import Success

from toolpipe._json import NotJSONError, check_json_object
from toolpipe.context import CancelSignal, DispatchContext, ToolContext
from toolpipe.effects import CallModel, CallOutcome, Emit, Gather, IsCancelled, WithDeadline
from toolpipe.errors import ConfigError, PipelineError
from toolpipe.events import LoggedEvent
from toolpipe.layers._util import describe_failure, finite_number, positive_int, seconds_text
from toolpipe.layers.unknown_tool import did_you_mean
from toolpipe.pipeline import PipelineBuilder, ToolPipeline
from toolpipe.program import Program
from toolpipe.registry import ToolDeclaration, ToolRegistry, not_found_text
from toolpipe.result import DispatchResult

NO_RESULT = "dispatch produced no result"
DEFAULT_MAX_CONCURRENCY = 8
DEFAULT_CALL_DEADLINE = 600.0
"""The engine's backstop: a call still running after this many seconds is dropped with a
soft error, even in a pipeline without a timeout layer (a tool that never returns)."""

# --- tool calls ------------------------------------------------------------------------------


def _problem(id: object, name: object, input: object) -> str | None:
    if not isinstance(name, str) or not name.strip():
        return f"missing tool name (got {name!r:.40})"
    if not isinstance(id, str) or not id:
        return "missing id"
    try:
        check_json_object(input, "arguments")
    except NotJSONError as exc:
        return str(exc)
    return None


@attrs.frozen
class ToolCall:
    """One tool call as the model issued it.

    Construction never raises: a malformed call (no id, no name, arguments that are not a
    JSON object) records why in ``problem``, and the engine answers it with a soft error
    instead of dropping it. ``ToolCall.parse`` accepts arguments as JSON text.
    """

    id: str
    name: str
    input: Mapping[str, Any] = attrs.field(factory=dict)
    problem: str | None = None

    def __attrs_post_init__(self) -> None:
        if self.problem is None:
            object.__setattr__(self, "problem", _problem(self.id, self.name, self.input))

    @classmethod
    def parse(cls, id: object, name: object, arguments: object) -> ToolCall:
        """From a provider payload: ``arguments`` may be JSON text, a mapping or None."""
        call_id = id if isinstance(id, str) else ""
        tool = name if isinstance(name, str) else ""
        if arguments is None or arguments == "":
            arguments = {}
        if isinstance(arguments, str | bytes):
            try:
                arguments = json.loads(arguments, parse_constant=_reject_constant)
            except (ValueError, RecursionError) as exc:
                return cls(call_id, tool, {}, f"arguments are not valid JSON ({exc})")
        problem = _problem(call_id if id is not None else None, name, arguments)
        if problem is not None:
            return cls(call_id, tool, {}, problem)
        return cls(call_id, tool, arguments)  # type: ignore[arg-type]  # checked above


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# --- wave planning ---------------------------------------------------------------------------


@attrs.frozen
class Wave:
    """Indices (into the turn's calls) that run together; ``exclusive`` waves hold one call."""

    calls: tuple[int, ...]
    exclusive: bool


def plan_waves(
    calls: Sequence[ToolCall], registry: ToolRegistry, *, barriers: bool = False
) -> list[Wave]:
    """Greedy first-fit in the model's order.

    A call that is not safe for concurrent execution (the default, and every unregistered
    tool) gets its own closed wave. A safe call joins the earliest open wave that does not
    already hold its resource key, else opens a new wave. With ``barriers=True`` an
    exclusive call also closes every wave before it, so no call moves ahead of it.
    Middleware plays no part: only the declarations count.
    """
    waves: list[tuple[list[int], set[str | None], bool]] = []
    first_open = 0
    for index, call in enumerate(calls):
        tool = registry.get(call.name)
        if tool is None or not tool.declaration.concurrency_safe:
            waves.append(([index], set(), True))
            if barriers:
                first_open = len(waves)
            continue
        key = tool.declaration.resource_of(call.input)
        for members, keys, closed in waves[first_open:]:
            if not closed and (key is None or key not in keys):
                members.append(index)
                keys.add(key)
                break
        else:
            waves.append(([index], {key}, False))
    return [Wave(tuple(members), closed) for members, _, closed in waves]


# --- events ----------------------------------------------------------------------------------


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
    logger: str = attrs.field(default="toolpipe.engine", kw_only=True)

    def message(self) -> str:
        return f"dispatch of call {self.call_id!r} in turn {self.turn} raised: {self.error}"


# --- the engine ------------------------------------------------------------------------------


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
    ) -> Program[list[DispatchResult]]:
        """Run one turn's calls; results in the model's order, each stamped with its id.

        ``visible``: the tool names the model was shown (None: no filter). A call to any
        other name is answered here and never reaches the pipeline. Every call gets exactly
        one result.
        """
        self._started = True
        calls = list(calls)
        for i, call in enumerate(calls):
            if not isinstance(call, ToolCall):
                raise TypeError(f"calls[{i}]: expected a ToolCall, got {type(call).__name__}")
        shown = None if visible is None else frozenset(visible)
        return self._turn(calls, shown, turn, cancel or CancelSignal())

    def _turn(
        self, calls: list[ToolCall], shown: frozenset[str] | None, turn: int,
        signal: CancelSignal,
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
                results[i] = DispatchResult.error(ids[i], f"Invalid tool call: {problem}",
                                                  call.name)
            elif shown is not None and call.name not in shown:
                listed = names or ()  # the names shown, sorted (set whenever shown is)
                results[i] = DispatchResult.error(
                    ids[i], not_found_text(call.name, listed) + did_you_mean(call.name, listed),
                    call.name)
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
                    result = DispatchResult.error(ids[i], f"Tool '{calls[i].name}' cancelled",
                                                  calls[i].name)
                    results[i] = result
                    yield Emit(CallFinished(turn, i, calls[i].name, calls[i].input, result,
                                            False))
                continue
            ctxs = [
                DispatchContext(calls[i].name, calls[i].input, ids[i], turn, signal,
                                tool_context=self.tool_context)
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
                    yield Emit(DispatchFailed(turn=turn, call_id=ids[i], error=error))
                    result = DispatchResult.error(ids[i], NO_RESULT, calls[i].name)
                results[i] = result
                yield Emit(CallFinished(turn, i, calls[i].name, calls[i].input, result, True))
        return [r if r is not None else DispatchResult.error(ids[i], NO_RESULT, calls[i].name)
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
    return DispatchResult.error(
        ctx.call_id,
        f"Tool '{ctx.tool_name}' timed out after {seconds_text(seconds)}s "
        "(the engine's call deadline)",
        ctx.tool_name, seconds,
    )


def _ids(calls: Sequence[ToolCall], turn: int) -> list[str]:
    """The model's ids; a call without one gets a generated id so its result can pair."""
    return [c.id if c.id else f"toolpipe-{turn}-{i}" for i, c in enumerate(calls)]


# --- messages and models ---------------------------------------------------------------------


def _calls(value: Iterable[ToolCall]) -> tuple[ToolCall, ...]:
    return tuple(value)


def _results(value: Iterable[DispatchResult]) -> tuple[DispatchResult, ...]:
    return tuple(value)


@attrs.frozen
class UserMessage:
    text: str
    role: Literal["user"] = "user"


@attrs.frozen
class AssistantMessage:
    text: str = ""
    tool_calls: tuple[ToolCall, ...] = attrs.field(default=(), converter=_calls)
    role: Literal["assistant"] = "assistant"


@attrs.frozen
class ToolResultsMessage:
    """The results of one turn's calls, in the model's order."""

    results: tuple[DispatchResult, ...] = attrs.field(converter=_results)
    role: Literal["tool"] = "tool"


Message = UserMessage | AssistantMessage | ToolResultsMessage


@attrs.frozen
class ModelReply:
    """What a model answers: text, and the tool calls it wants run (none: it is done)."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = attrs.field(default=(), converter=_calls)


class Model(Protocol):
    """``respond`` may be a plain function, a coroutine function (asyncio/trio) or return a
    program; it must give a ``ModelReply``."""

    def respond(
        self, messages: Sequence[Message], tools: Sequence[ToolDeclaration]
    ) -> Any: ...


class ScriptedModel:
    """Replies from a script, one per turn; then a final text reply. For tests and demos.

    A script entry is a ``ModelReply``, a text, or a list of ``ToolCall``. Every request
    is kept in ``requests`` so a test can check what the model was shown.
    """

    def __init__(self, script: Iterable[ModelReply | str | Sequence[ToolCall]],
                 *, final: str = "Done.") -> None:
        self.script = [_reply(entry, i) for i, entry in enumerate(script)]
        self.final = final
        self.requests: list[tuple[tuple[Message, ...], tuple[ToolDeclaration, ...]]] = []

    def respond(
        self, messages: Sequence[Message], tools: Sequence[ToolDeclaration]
    ) -> ModelReply:
        self.requests.append((tuple(messages), tuple(tools)))
        turn = len(self.requests) - 1
        return self.script[turn] if turn < len(self.script) else ModelReply(self.final)


def _reply(entry: object, index: int) -> ModelReply:
    if isinstance(entry, ModelReply):
        return entry
    if isinstance(entry, str):
        return ModelReply(entry)
    if isinstance(entry, list | tuple) and all(isinstance(c, ToolCall) for c in entry):
        return ModelReply("", tuple(entry))
    raise ConfigError(
        f"script[{index}]: expected a ModelReply, a text or a list of ToolCall, got {entry!r:.60}"
    )


StopReason = Literal["done", "max_turns", "cancelled", "model_error"]


@attrs.frozen
class AgentRun:
    """The whole conversation, how many turns ran, and why the loop stopped."""

    messages: tuple[Message, ...]
    turns: int
    stop_reason: StopReason
    error: str | None = None

    @property
    def final_text(self) -> str:
        for message in reversed(self.messages):
            if isinstance(message, AssistantMessage):
                return message.text
        return ""


class Agent:
    """The agent loop: ask the model, run its tool calls through the engine, repeat.

    Turns are numbered from 1. The loop stops when the model calls no tool, after
    ``max_turns`` turns, when the cancel signal fires, or when the model fails.
    """

    def __init__(
        self,
        model: Model,
        registry: ToolRegistry,
        *,
        max_turns: int = 20,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        tool_context: ToolContext | None = None,
        tools: Iterable[str] | None = None,
        barriers: bool = False,
        call_deadline: float | None = DEFAULT_CALL_DEADLINE,
    ) -> None:
        if not callable(getattr(model, "respond", None)) and not callable(model):
            raise ConfigError(f"model must have a respond() method, got {model!r:.60}")
        self.model = model
        self.engine = Engine(registry, max_concurrency=max_concurrency,
                             tool_context=tool_context, barriers=barriers,
                             call_deadline=call_deadline)
        self.max_turns = positive_int("max_turns", max_turns)
        declared = registry.declarations()
        if tools is not None:
            wanted = list(tools)
            unknown = sorted(set(wanted) - {d.name for d in declared})
            if unknown:
                raise ConfigError(f"tools: not in the registry: {', '.join(unknown)}")
            declared = tuple(d for d in declared if d.name in set(wanted))
        self.declarations: tuple[ToolDeclaration, ...] = declared

    def set_pipeline(self, builder: PipelineBuilder) -> None:
        self.engine.set_pipeline(builder)

    def run(self, prompt: str, *, cancel: CancelSignal | None = None) -> Program[AgentRun]:
        if not isinstance(prompt, str):
            raise TypeError(f"prompt must be a str, got {type(prompt).__name__}")
        self.engine._started = True
        return self._loop(prompt, cancel or CancelSignal())

    def _loop(self, prompt: str, signal: CancelSignal) -> Program[AgentRun]:
        messages: list[Message] = [UserMessage(prompt)]
        shown = [d.name for d in self.declarations]
        for turn in range(1, self.max_turns + 1):
            if (yield IsCancelled(signal)):
                return AgentRun(tuple(messages), turn - 1, "cancelled")
            outcome: CallOutcome = yield CallModel(
                self.model, tuple(messages), self.declarations, signal
            )
            if not isinstance(outcome.value, Success):
                failure = outcome.value.failure()
                reason: StopReason = "cancelled" if signal.cancelled else "model_error"
                return AgentRun(tuple(messages), turn - 1, reason,
                                f"model {describe_failure(failure)}")
            reply = outcome.value.unwrap()
            if not isinstance(reply, ModelReply):
                return AgentRun(tuple(messages), turn - 1, "model_error",
                                f"model returned {reply!r:.60}, not a ModelReply")
            messages.append(AssistantMessage(reply.text, reply.tool_calls))
            if not reply.tool_calls:
                return AgentRun(tuple(messages), turn, "done")
            results = yield from self.engine.dispatch_turn(
                reply.tool_calls, visible=shown, turn=turn, cancel=signal
            )
            messages.append(ToolResultsMessage(tuple(results)))
        return AgentRun(tuple(messages), self.max_turns, "max_turns")
