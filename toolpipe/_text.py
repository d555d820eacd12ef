"""Text helpers the guards share (the shield's literals and the redaction's escapes read
code points alike)."""

from __future__ import annotations


def character(code: int) -> str:
    """The character of a code point an escape names (U+FFFD for a surrogate or none)."""
    return chr(code) if code < 0x110000 and not 0xD800 <= code < 0xE000 else "\ufffd"
