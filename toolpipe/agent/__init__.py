"""The agent wing: tool calls, waves, the engine that runs a turn's calls through the
pipeline, the conversation with a model, and the agent loop.

Layout (private modules behind this face):

- ``_calls``: ``ToolCall`` (checked as the model sends it) and ``plan_waves``;
- ``_engine``: ``Engine`` (waves dispatched concurrently, ids stamped, a backstop deadline)
  and its events ``TurnPlanned``, ``CallFinished``, ``DispatchFailed``;
- ``_conversation``: the messages, ``ModelReply``, the ``Model`` protocol, ``ScriptedModel``;
- ``_loop``: ``Agent`` and ``AgentRun``;
- ``_redact``: ``redact_messages``, secrets scrubbed from what goes to the model.

It may import the kernel (context, effects, pipeline, registry, result, program, errors)
and ``layers`` for nothing but their helpers; nothing in the kernel or in ``layers``
imports it.
"""

from toolpipe.agent._calls import ToolCall as ToolCall
from toolpipe.agent._calls import Wave as Wave
from toolpipe.agent._calls import plan_waves as plan_waves
from toolpipe.agent._conversation import AssistantMessage as AssistantMessage
from toolpipe.agent._conversation import Message as Message
from toolpipe.agent._conversation import Model as Model
from toolpipe.agent._conversation import ModelReply as ModelReply
from toolpipe.agent._conversation import ScriptedModel as ScriptedModel
from toolpipe.agent._conversation import ToolResultsMessage as ToolResultsMessage
from toolpipe.agent._conversation import UserMessage as UserMessage
from toolpipe.agent._engine import DEFAULT_CALL_DEADLINE as DEFAULT_CALL_DEADLINE
from toolpipe.agent._engine import DEFAULT_MAX_CONCURRENCY as DEFAULT_MAX_CONCURRENCY
from toolpipe.agent._engine import NO_RESULT as NO_RESULT
from toolpipe.agent._engine import CallFinished as CallFinished
from toolpipe.agent._engine import DispatchFailed as DispatchFailed
from toolpipe.agent._engine import Engine as Engine
from toolpipe.agent._engine import TurnPlanned as TurnPlanned
from toolpipe.agent._loop import Agent as Agent
from toolpipe.agent._loop import AgentRun as AgentRun
from toolpipe.agent._loop import StopReason as StopReason
from toolpipe.agent._redact import redact_messages as redact_messages

__all__ = [
    "DEFAULT_CALL_DEADLINE", "DEFAULT_MAX_CONCURRENCY", "NO_RESULT", "Agent", "AgentRun",
    "AssistantMessage", "CallFinished", "DispatchFailed", "Engine", "Message", "Model",
    "ModelReply", "ScriptedModel", "StopReason", "ToolCall", "ToolResultsMessage",
    "TurnPlanned", "UserMessage", "Wave", "plan_waves", "redact_messages",
]
