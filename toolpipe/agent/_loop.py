"""The agent loop: ask the model, run the tool calls it asks for through the engine,
hand back the results, until it is done, out of turns, cancelled or failing."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

import attrs
from returns.result import Success

from toolpipe._checks import describe_failure, positive_int
from toolpipe.agent._calls import ToolCall
from toolpipe.agent._conversation import (
    AssistantMessage,
    Message,
    Model,
    ModelReply,
    ToolResultsMessage,
    UserMessage,
)
from toolpipe.agent._engine import DEFAULT_CALL_DEADLINE, DEFAULT_MAX_CONCURRENCY, Engine
from toolpipe.context import CancelSignal, ToolContext
from toolpipe.effects import CallModel, CallOutcome, IsCancelled
from toolpipe.errors import ConfigError
from toolpipe.failures import AwaitingApproval, Denied
from toolpipe.pipeline import PipelineBuilder
from toolpipe.program import Program
from toolpipe.registry import ToolDeclaration, ToolRegistry
from toolpipe.result import DispatchResult

StopReason = Literal["done", "max_turns", "cancelled", "model_error", "awaiting_approval"]


@attrs.frozen
class AgentRun:
    """The whole conversation, how many turns ran, and why the loop stopped; ``paused``
    when it stopped on calls that wait on a person (``toolpipe.approvals``)."""

    messages: tuple[Message, ...]
    turns: int
    stop_reason: StopReason
    error: str | None = None
    paused: Any = None

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

    def resume(self, paused: Any, decisions: Mapping[str, Any], *,
               cancel: CancelSignal | None = None) -> Program[AgentRun]:
        """Continue a run that stopped on approvals (``AgentRun.paused``, or one read back
        with ``Paused.from_json``): each pending call by id gets its ``Approve``,
        ``Reject`` or ``Edit``; then the loop goes on with the model's next turn."""
        from toolpipe.approvals import Approve, Edit, Paused, Reject

        if not isinstance(paused, Paused):
            raise TypeError(f"paused must be a Paused, got {type(paused).__name__}")
        waiting = {p.call_id for p in paused.pending}
        missing, unknown = waiting - set(decisions), set(decisions) - waiting
        if missing or unknown:
            raise ConfigError(
                f"decisions: {'missing for ' + ', '.join(sorted(missing)) if missing else ''}"
                f"{'; ' if missing and unknown else ''}"
                f"{'no call waits under ' + ', '.join(sorted(unknown)) if unknown else ''}")
        for key, decision in decisions.items():
            if not isinstance(decision, Approve | Reject | Edit):
                raise ConfigError(f"decisions[{key!r}]: an Approve, Reject or Edit, got "
                                  f"{decision!r:.60}")
        self.engine._started = True
        return self._resumed(paused, decisions, cancel or CancelSignal())

    def _resumed(self, paused: Any, decisions: Mapping[str, Any],
                 signal: CancelSignal) -> Program[AgentRun]:
        from toolpipe.approvals import Edit, Reject

        results: dict[int, DispatchResult] = dict(paused.done)
        run: list[int] = []
        calls: list[ToolCall] = []
        for index, call in enumerate(paused.calls):
            if index in results:
                continue
            decision = decisions[call.id]
            if isinstance(decision, Reject):
                results[index] = DispatchResult.failed(call.id, Denied(
                    call.name, f"denied by a person: {decision.reason}", by_user=False))
                continue
            run.append(index)
            calls.append(ToolCall(call.id, call.name, dict(decision.input))
                         if isinstance(decision, Edit) else call)
        if calls:
            shown = [d.name for d in self.declarations]
            answers = yield from self.engine.dispatch_turn(
                calls, visible=shown, turn=paused.turn, cancel=signal, approved=True)
            results.update(zip(run, answers, strict=True))
        messages = [*paused.messages,
                    ToolResultsMessage(tuple(results[i] for i in range(len(paused.calls))))]
        return (yield from self._turns(messages, paused.turn + 1, signal))

    def _loop(self, prompt: str, signal: CancelSignal) -> Program[AgentRun]:
        return (yield from self._turns([UserMessage(prompt)], 1, signal))

    def _turns(self, messages: list[Message], first: int,
               signal: CancelSignal) -> Program[AgentRun]:
        from toolpipe.approvals import Paused, Pending

        shown = [d.name for d in self.declarations]
        for turn in range(first, self.max_turns + 1):
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
            messages.append(AssistantMessage(reply.text, reply.tool_calls,
                                             content=reply.content))
            if not reply.tool_calls:
                return AgentRun(tuple(messages), turn, "done")
            results = yield from self.engine.dispatch_turn(
                reply.tool_calls, visible=shown, turn=turn, cancel=signal
            )
            waiting = [(i, r) for i, r in enumerate(results)
                       if isinstance(r.cause, AwaitingApproval)]
            if waiting:  # a person decides later: the run stops here, resumable
                pending = tuple(Pending(r.tool_call_id, r.cause.tool,
                                        dict(reply.tool_calls[i].input), r.cause.prompt)
                                for i, r in waiting if isinstance(r.cause, AwaitingApproval))
                done = {i: r for i, r in enumerate(results)
                        if not isinstance(r.cause, AwaitingApproval)}
                paused = Paused(tuple(messages), turn, tuple(reply.tool_calls), done, pending)
                return AgentRun(tuple(messages), turn, "awaiting_approval", paused=paused)
            messages.append(ToolResultsMessage(tuple(results)))
        return AgentRun(tuple(messages), self.max_turns, "max_turns")
