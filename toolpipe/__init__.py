"""toolpipe: stackable, pure-functional middleware around every tool call an agent makes.

Layers return *programs* (generators of effect values); interpreters in the separate
``interpreters`` package perform the effects on asyncio, trio or a simulated clock.
"""

__version__ = "0.1.0"

from toolpipe import effects
from toolpipe._json import JSONObject, JSONValue, NotJSONError, canonical_json
from toolpipe.agent import (
    Agent,
    AgentRun,
    AssistantMessage,
    Engine,
    Message,
    Model,
    ModelReply,
    ScriptedModel,
    ToolCall,
    ToolResultsMessage,
    UserMessage,
    Wave,
    plan_waves,
    redact_messages,
)
from toolpipe.context import (
    Allow,
    Ask,
    CancelSignal,
    Decision,
    Deny,
    DispatchContext,
    Modify,
    PermissionCheck,
    ToolContext,
)
from toolpipe.errors import ConfigError, PipelineError, ProgramError, ToolError, ToolpipeError
from toolpipe.layers.memoize import MemoEntry, MemoizingMiddleware, cache_key
from toolpipe.layers.output_limit import OutputLimitMiddleware
from toolpipe.layers.paths import NoPathExtractor, PathExtractor, WritePathExtractor
from toolpipe.layers.permission import PermissionMiddleware
from toolpipe.layers.redaction import RedactingMiddleware, SecretPatternSet
from toolpipe.layers.shield import (
    CallRecord,
    SafetyShieldMiddleware,
    ShieldDecision,
    ToolSafetyShield,
    UnixShield,
)
from toolpipe.layers.timeout import TimeoutConfig, TimeoutMiddleware
from toolpipe.layers.unknown_tool import UnknownToolMiddleware, similarity
from toolpipe.layers.verify import (
    CommandVerifier,
    NoopVerifier,
    Verifier,
    VerifyMiddleware,
    VerifyResult,
)
from toolpipe.pipeline import (
    DispatchCancelled,
    Middleware,
    Next,
    PipelineBuilder,
    ToolPipeline,
)
from toolpipe.profiles import ConstrainedProfile
from toolpipe.program import Program, map_program, pure, run_pure, sequence
from toolpipe.registry import Tool, ToolCallMiddleware, ToolDeclaration, ToolRegistry
from toolpipe.result import (
    DispatchResult,
    DisplayHint,
    ImageContent,
    MultipartContent,
    TextContent,
    ToolContent,
)

__all__ = [
    "Agent",
    "AgentRun",
    "Allow",
    "Ask",
    "AssistantMessage",
    "CallRecord",
    "CancelSignal",
    "CommandVerifier",
    "ConfigError",
    "ConstrainedProfile",
    "Decision",
    "Deny",
    "DispatchCancelled",
    "DispatchContext",
    "DispatchResult",
    "DisplayHint",
    "Engine",
    "ImageContent",
    "JSONObject",
    "JSONValue",
    "MemoEntry",
    "MemoizingMiddleware",
    "Message",
    "Middleware",
    "Model",
    "ModelReply",
    "Modify",
    "MultipartContent",
    "Next",
    "NoPathExtractor",
    "NoopVerifier",
    "NotJSONError",
    "OutputLimitMiddleware",
    "PathExtractor",
    "PermissionCheck",
    "PermissionMiddleware",
    "PipelineBuilder",
    "PipelineError",
    "Program",
    "ProgramError",
    "RedactingMiddleware",
    "SafetyShieldMiddleware",
    "ScriptedModel",
    "SecretPatternSet",
    "ShieldDecision",
    "TextContent",
    "TimeoutConfig",
    "TimeoutMiddleware",
    "Tool",
    "ToolCall",
    "ToolCallMiddleware",
    "ToolContent",
    "ToolContext",
    "ToolDeclaration",
    "ToolError",
    "ToolPipeline",
    "ToolRegistry",
    "ToolResultsMessage",
    "ToolSafetyShield",
    "ToolpipeError",
    "UnixShield",
    "UnknownToolMiddleware",
    "UserMessage",
    "Verifier",
    "VerifyMiddleware",
    "VerifyResult",
    "Wave",
    "WritePathExtractor",
    "cache_key",
    "canonical_json",
    "effects",
    "map_program",
    "plan_waves",
    "pure",
    "redact_messages",
    "run_pure",
    "sequence",
    "similarity",
]
