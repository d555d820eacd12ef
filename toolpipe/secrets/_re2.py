"""The one place toolpipe talks to re2: compile a bytes pattern for the scanner.

re2 matches in time linear in the input by construction. Patterns are compiled for bytes
(Latin-1: a class such as ``[^A-Za-z0-9]`` takes one byte, never a whole UTF-8 character,
so a boundary is always one byte before what follows it), without capture groups (the
scanner needs only where a match starts and ends), with room for a large lazy DFA. The
scanner calls ``Match`` on the compiled object directly: one C call per match.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

import re2  # type: ignore[import-untyped]
from re2 import _re2

UNANCHORED = re2._Anchor.UNANCHORED
escape = re2.escape


class Compiled(Protocol):
    """What the scanner uses of a compiled ``_re2.RE2``."""

    def Match(self, anchor: Any, text: bytes, pos: int, endpos: int
              ) -> list[tuple[int, int]]: ...

    def ProgramSize(self) -> int: ...


def compile_bytes(pattern: bytes) -> Compiled:
    options = re2.Options()
    options.max_mem = 64 << 20
    options.never_capture = True
    options.log_errors = False
    options.encoding = re2.Options.Encoding.LATIN1
    compiled = _re2.RE2(pattern, options)
    if not compiled.ok():  # pragma: no cover - the patterns are ours
        raise ValueError(compiled.error())
    return cast(Compiled, compiled)
