"""Converters between the engine's messages and provider payloads.

``toolpipe.formats.openai`` speaks the chat-completions shape (``tool_calls``,
``role: tool``); ``toolpipe.formats.openai_responses`` the Responses API (``function_call``,
``function_call_output``); ``toolpipe.formats.anthropic`` the messages shape (``tool_use``,
``tool_result``). All are pure functions on plain dicts or the SDKs' objects (anything
with ``model_dump``): no client library is imported.
"""

from toolpipe.formats import anthropic, openai, openai_responses

__all__ = ["anthropic", "openai", "openai_responses"]
