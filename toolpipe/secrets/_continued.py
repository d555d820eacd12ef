"""A value that goes on past its line: what follows a secret found, when the text says the
value continues there. A backslash right after it ends the line (`export TOKEN=abc\\` then
the rest on the next line: shell, C, Dockerfile), or the value is a string literal
concatenated with the next one, on its line or the next (`"abc" + "def"`, `'abc' .`,
`"abc" &`, or Python's two literals side by side, `("abc"` then `"def")`). The
continuation is redacted with the same kind when it is token-shaped (8 characters or
more, a digit and a letter among them, or both cases for a literal, no blank): `--data
@file` after a bearer token's backslash is a new argument, not the token."""

from __future__ import annotations

import re

_BACKSLASH = re.compile(rb"\\\r?\n[ \t]*(?P<v>[A-Za-z0-9+/=_.~-]{8,4096})(?![A-Za-z0-9+/=_.~-])")
# (on the same line too: `"abc" + "def"`, PHP's `'abc' . 'def'`, Lua's `..`, SQL's `||`,
# Python's `"abc" "def"`)
_CONCATENATED = re.compile(rb"""(?P<q>["'])[ \t]*(?:\+|\.\.|\.|&|\|\|)?[ \t]*(?:\r?\n[ \t]*)?"""
                           rb"""(?:(?:[+.&]|\|\|)[ \t]*)?(?P=q)(?P<v>[A-Za-z0-9+/=_.~-]{8,4096})"""
                           rb"""(?P=q)""")
_DIGIT = re.compile(rb"[0-9]")
_LETTER = re.compile(rb"[A-Za-z]")
MAX_PARTS = 16  # continuations followed from one value


def continued(buf: bytes, found: list[tuple[int, int, str, int]]
              ) -> list[tuple[int, int, str, int]]:
    """The continuations of each span of ``found`` (spans into ``buf``), as spans."""
    out: list[tuple[int, int, str, int]] = []
    for _, hi, kind, priority in found:
        for _ in range(MAX_PARTS):
            m = _BACKSLASH.match(buf, hi) or _CONCATENATED.match(buf, hi)
            if m is None:
                break
            value = m.group("v")
            # (a literal joined on: letters of both cases will do, `'abc' . 'ErtMYOahlwaE'`)
            if _LETTER.search(value) is None or (_DIGIT.search(value) is None and not (
                    m.re is _CONCATENATED and value != value.lower() and
                    value != value.upper())):
                break
            out.append((m.start("v"), m.end("v"), kind, priority))
            hi = m.end("v")
    return out
