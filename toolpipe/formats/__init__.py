"""Converters between the engine's messages and provider payloads.

``toolpipe.formats.openai`` speaks the chat-completions shape (``tool_calls``,
``role: tool``); ``toolpipe.formats.anthropic`` the messages shape (``tool_use``,
``tool_result``). Both are pure functions on plain dicts: no client library is imported.
"""

from toolpipe.formats import anthropic, openai

__all__ = ["anthropic", "openai"]
