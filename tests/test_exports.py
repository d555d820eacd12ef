"""The public API is re-exported from toolpipe/__init__.py and nothing goes missing."""

import toolpipe

EXPECTED = {
    "DispatchContext", "DispatchResult", "ToolContent", "TextContent", "ImageContent",
    "MultipartContent", "DisplayHint", "PermissionCheck", "CancelSignal", "ToolContext",
    "Middleware", "ToolPipeline", "PipelineBuilder", "Tool", "ToolDeclaration", "ToolRegistry",
    "ToolCallMiddleware", "Program", "PipelineError", "ProgramError", "ConfigError",
    "ToolError", "TimeoutMiddleware", "TimeoutConfig", "PermissionMiddleware",
    "OutputLimitMiddleware", "UnknownToolMiddleware", "MemoizingMiddleware",
    "WritePathExtractor", "NoPathExtractor", "VerifyMiddleware", "Verifier", "VerifyResult",
    "NoopVerifier", "CommandVerifier", "RedactingMiddleware", "SecretPatternSet",
    "SafetyShieldMiddleware", "ToolSafetyShield", "UnixShield", "ConstrainedProfile",
    "Engine", "Agent", "AgentRun", "ToolCall", "ModelReply", "Model", "ScriptedModel",
    "UserMessage", "AssistantMessage", "ToolResultsMessage", "plan_waves",
}


def test_public_names_exported():
    assert EXPECTED <= set(toolpipe.__all__)
    for name in toolpipe.__all__:
        assert hasattr(toolpipe, name), name


def test_layer_names_are_the_specs():
    from toolpipe import (
        MemoizingMiddleware,
        NoopVerifier,
        OutputLimitMiddleware,
        PermissionMiddleware,
        RedactingMiddleware,
        SafetyShieldMiddleware,
        TimeoutMiddleware,
        ToolRegistry,
        UnknownToolMiddleware,
        VerifyMiddleware,
    )

    layers = [PermissionMiddleware(), TimeoutMiddleware(), OutputLimitMiddleware(1),
              UnknownToolMiddleware(ToolRegistry()), MemoizingMiddleware([], []),
              VerifyMiddleware(NoopVerifier(), []), RedactingMiddleware(),
              SafetyShieldMiddleware()]
    assert [m.name for m in layers] == ["permission", "timeout", "output_limit",
                                        "unknown_tool", "memoize", "verify", "redaction",
                                        "safety_shield"]
