"""toolpipe: stackable, pure-functional middleware around every tool call an agent makes.

Layers return *programs* (generators of effect values); interpreters in the separate
``interpreters`` package perform the effects on asyncio, trio or a simulated clock.
"""

from toolpipe import effects
from toolpipe._json import JSONObject, JSONValue, NotJSONError, canonical_json
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
from toolpipe.pipeline import (
    DispatchCancelled,
    Middleware,
    Next,
    PipelineBuilder,
    ToolPipeline,
)
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
    "Allow",
    "Ask",
    "CancelSignal",
    "ConfigError",
    "Decision",
    "Deny",
    "DispatchCancelled",
    "DispatchContext",
    "DispatchResult",
    "DisplayHint",
    "ImageContent",
    "JSONObject",
    "JSONValue",
    "Middleware",
    "Modify",
    "MultipartContent",
    "Next",
    "NotJSONError",
    "PermissionCheck",
    "PipelineBuilder",
    "PipelineError",
    "Program",
    "ProgramError",
    "TextContent",
    "Tool",
    "ToolCallMiddleware",
    "ToolContent",
    "ToolContext",
    "ToolDeclaration",
    "ToolError",
    "ToolPipeline",
    "ToolRegistry",
    "ToolpipeError",
    "canonical_json",
    "effects",
    "map_program",
    "pure",
    "run_pure",
    "sequence",
]
