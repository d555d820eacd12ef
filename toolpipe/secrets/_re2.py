"""The one place toolpipe talks to re2: compile a bytes pattern for the scanner, or a text
pattern to substitute with (echoed inputs).

re2 matches in time linear in the input by construction. Patterns are compiled for bytes
(Latin-1: a class such as ``[^A-Za-z0-9]`` takes one byte, never a whole UTF-8 character,
so a boundary is always one byte before what follows it), without capture groups (the
scanner needs only where a match starts and ends), with room for a large lazy DFA. The
scanner calls ``Match`` on the compiled object directly: one C call per match.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Protocol, cast

import re2  # type: ignore[import-untyped]
from re2 import _re2

UNANCHORED = re2._Anchor.UNANCHORED
ANCHOR_START = re2._Anchor.ANCHOR_START
escape = re2.escape


class TextPattern(Protocol):
    """What the echo matcher and the encoded separators use of a compiled text pattern
    (``re2.compile``)."""

    def sub(self, repl: str, text: str) -> str: ...

    def finditer(self, text: str | bytes) -> Iterator[re.Match[Any]]: ...

    def search(self, text: bytes, pos: int = 0) -> re.Match[Any] | None: ...


def compile_text(pattern: str, ignore_case: bool = False) -> TextPattern:
    """A text pattern with re's ``sub``, matched in linear time (leftmost-first, as re)."""
    options = re2.Options()
    options.max_mem = 64 << 20
    options.log_errors = False
    options.case_sensitive = not ignore_case
    return cast(TextPattern, re2.compile(pattern, options))


class Compiled(Protocol):
    """What the scanner uses of a compiled ``_re2.RE2``."""

    def Match(self, anchor: Any, text: bytes, pos: int, endpos: int
              ) -> list[tuple[int, int]]: ...

    def ProgramSize(self) -> int: ...


def compile_bytes(pattern: bytes) -> Compiled:
    options = re2.Options()
    # (a cap, not an allocation: the lazy DFA of the union of every trigger outgrew 64 MB
    # with ten more labels, and re2 then rebuilt its states over and over: half the speed)
    options.max_mem = 256 << 20
    options.never_capture = True
    options.log_errors = False
    options.encoding = re2.Options.Encoding.LATIN1
    compiled = _re2.RE2(pattern, options)
    if not compiled.ok():  # pragma: no cover - the patterns are ours
        raise ValueError(compiled.error())
    return cast(Compiled, compiled)


def run_table(chars: bytes) -> bytes:
    """A ``bytes.translate`` table: each of ``chars`` to ``a``, every other byte to a blank."""
    return bytes(0x61 if b in chars else 0x20 for b in range(256))


# a short text is looked at by C's bytes methods before a pass of re2 over it: a run of
# ``n`` such characters, or none (re2 costs a few microseconds a pass on 2 KB; the
# translation and the search, one)
SHORT_TEXT = 1 << 16


def has_run(buf: bytes, table: bytes, n: int) -> bool:
    """Does ``buf`` hold ``n`` bytes in a row that ``table`` maps to ``a``?"""
    return buf.translate(table).find(b"a" * n) >= 0
