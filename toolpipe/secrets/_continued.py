"""A value that goes on past its line: what follows a secret found, when the text says the
value continues there (or past an escaped separator in it: `abc\\:def`). A backslash
right after it ends the line (`export TOKEN=abc\\` then the rest on the next line:
shell, C, Dockerfile), or the value is a string literal concatenated with the next one,
on its line or the next (`"abc" + "def"`, `'abc' .`, `"abc" &`, or Python's two literals
side by side, `("abc"` then `"def")`), or a long value that fills its line is cut there
by a width (`base64 -w 40`, a PEM-like block, a terminal's or a log viewer's wrap): the
next lines, no longer than its own and indented no further than the value, up to the
first that is shorter (the tail). The continuation is redacted with the same kind when
it is token-shaped (8 characters or more, a digit and a letter among them, or both cases
for a literal, no blank): `--data @file` after a bearer token's backslash is a new
argument, not the token. A plain word diff's old value goes on in its new one
(`KEY=[-old-]{+new+}`)."""

from __future__ import annotations

import re

from toolpipe.secrets._lines import HEAD, agreed, line_start

_BACKSLASH = re.compile(rb"\\\r?\n[ \t]*(?P<v>[A-Za-z0-9+/=_.~-]{8,4096})(?![A-Za-z0-9+/=_.~-])")
# (on the same line too: `"abc" + "def"`, PHP's `'abc' . 'def'`, Lua's `..`, SQL's `||`,
# Python's `"abc" "def"`)
_CONCATENATED = re.compile(rb"""(?P<q>["'])[ \t]*(?:\+|\.\.|\.|&|\|\|)?[ \t]*(?:\r?\n[ \t]*)?"""
                           rb"""(?:(?:[+.&]|\|\|)[ \t]*)?(?P=q)(?P<v>[A-Za-z0-9+/=_.~-]{8,4096})"""
                           rb"""(?P=q)""")
# a line of a value cut by a width: token characters alone (and the quote that closes it)
# (base64's padding at its end only: `DB_PASSWORD=…` on the next line is a line of its own)
# (indented no further than the value's own column: a describe command's or a log
# viewer's wrap aligns it there, `token:      eyJ…⏎              …`)
_TAIL = rb"(?P<v>[A-Za-z0-9+/_.~-]{8,4096}={0,2})[\"']?,?[ \t]*(?=\r?\n|$)"
_WRAPPED = re.compile(rb"\r?\n(?P<i>[ \t]{0,256})" + _TAIL)
# (an app's or a CI's tags standing for a log's head: `[app] `, `##[debug] `, `[worker-3] `)
_TAGS = re.compile(rb"[ \t]*(?:#{0,3}\[[^\]\r\n]{1,64}\][ \t]+)+")
# (the rest of a line after a log's head: the same, with no line break or indent before)
_TAIL_LINE = re.compile(_TAIL)
# a value that fills its line is cut by a width when the line is this wide and the value
# this long at least (a terminal's, `base64 -w`'s, PEM's and MIME's widths are 64 to 120)
WIDE, LONG = 40, 16
TAIL = 12  # a wrapped line this long needs no digit nor both cases (`YGSLKICYFLXF"`)
# git's word diff after an old value: `-]{+new+}`
_WORD_DIFF = re.compile(rb"-?\]\{\+(?P<v>[^\s}]{1,4096}?)\+?\}")
# an escaped separator or blank inside a value (Java properties' `\:`, `\=`, a shell's
# `\ `): the value goes on past it, whatever follows
_ESCAPED_ON = re.compile(rb"(?:\\[:=#! ][^\s\"'`,;<>(){}\[\]\\|&]{0,255}){1,16}")
_DIGIT = re.compile(rb"[0-9]")
_LETTER = re.compile(rb"[A-Za-z]")
MAX_PARTS = 16  # continuations followed from one value


def continued(buf: bytes, found: list[tuple[int, int, str, int]]
              ) -> list[tuple[int, int, str, int]]:
    """The continuations of each span of ``found`` (spans into ``buf``), as spans."""
    out: list[tuple[int, int, str, int]] = []
    for lo, hi, kind, priority in found:
        escaped = _ESCAPED_ON.match(buf, hi) if buf[hi:hi + 1] == b"\\" else None
        if escaped is not None:  # `db.password=abc\:def`: the value goes on
            out.append((lo, escaped.end(), kind, priority))  # (one label: it overlaps)
            hi = escaped.end()
        diff = _WORD_DIFF.match(buf, hi) if buf[hi:hi + 1] in (b"-", b"]") else None
        if diff is not None:  # the old value of a word diff: its new one after it
            out.append((*diff.span("v"), kind, priority))
        for _ in range(MAX_PARTS):
            m = _BACKSLASH.match(buf, hi) or _CONCATENATED.match(buf, hi)
            if m is None:
                wrapped = _wrapped(buf, lo, hi)
                out += [(a, b, kind, priority) for a, b in wrapped]
                break
            # (letters of both cases will do: a literal joined on, `'abc' . 'ErtMYOahlwaE'`,
            # a properties file's value continued, `db.password=…\⏎    FUQtYSDK`)
            if not _token_shaped(m.group("v"), both_cases=True):
                break
            out.append((m.start("v"), m.end("v"), kind, priority))
            hi = m.end("v")
    return out


def _token_shaped(value: bytes, both_cases: bool) -> bool:
    """A continuation's shape: a letter, and a digit (or, where ``both_cases``, letters of
    both cases)."""
    if _LETTER.search(value) is None:
        return False
    return _DIGIT.search(value) is not None or (
        both_cases and value != value.lower() and value != value.upper())




def _headed(buf: bytes, hi: int, head: bytes) -> tuple[re.Match[bytes] | None, int]:
    """The next line, when it starts as the value's own line does up to a blank, `]` or
    `:` before the value's key (a log's or a CI's head, `2026-… INFO `, `[app] `,
    `##[debug] `: each of its lines carries it, its digits may differ: a timestamp ticks)
    and token characters alone follow; and the head's length."""
    nl = buf.find(b"\n", hi, hi + 2) + 1
    if nl <= 0 or len(head) < 3:
        return None, 0
    k = agreed(head, buf[nl:nl + len(head)])  # (shorter than the head at the text's end)
    if k == len(head):  # the whole of it again: a line of its own (`Key : v` under
        # `Key : v`), unless all the value's line holds before it is a log's head
        k = k if HEAD.fullmatch(head) or _TAGS.fullmatch(head) else 0
    else:
        while k > 0 and buf[nl + k - 1] not in b" \t]:>":
            k -= 1  # (back to the end of a word of the head, not into the key)
    return (_TAIL_LINE.match(buf, nl + k), k) if k >= 3 else (None, 0)


def _wrapped(buf: bytes, lo: int, hi: int) -> list[tuple[int, int]]:
    """The lines a value found at ``lo:hi`` goes on in when a width cut it: it fills its
    line (nothing after it but a line break; the line ``WIDE``, the value ``LONG`` at
    least); each next line of token characters alone (after the head the value's own line
    starts with, if it has one: a log's), as long as the first line (the width) or
    shorter (the tail, the last one), with a letter and a digit or both cases among them
    (or ``TAIL`` characters with a letter, or closing the value's quote)."""
    if hi - lo < LONG or buf[hi:hi + 1] not in (b"\n", b"\r"):
        return []
    # (measured on the value's last line: a key's block ends with its own END line, and a
    # path after it, `src/main/…/X.java`, is no part of it: found by a run)
    start = max(line_start(buf, lo), buf.rfind(b"\n", lo, hi) + 1)
    width, column = hi - start, max(lo - start, 0)
    if width < WIDE:
        return []
    opened = buf[lo - 1:lo] if lo > 0 and buf[lo - 1] in b"\"'" else b""
    out: list[tuple[int, int]] = []
    for _ in range(MAX_PARTS):
        m, shift = _WRAPPED.match(buf, hi), 0
        if m is None or len(m.group("i")) > column:  # (a log's head on each line: the
            m, shift = _headed(buf, hi, buf[start:lo])  # width is the value's, after it)
        if m is None or m.end("v") - m.start("v") > width - shift:
            break
        # (a line that closes the quote the value opened in is its tail, whatever its
        # shape; one of TAIL characters or more with a letter is as unlike a word)
        closes = opened and buf[m.end("v"):m.end("v") + 1] == opened
        long_tail = m.end("v") - m.start("v") >= TAIL and _LETTER.search(m.group("v"))
        if not (closes or long_tail or _token_shaped(m.group("v"), both_cases=True)):
            break
        out.append(m.span("v"))
        if m.end("v") - m.start("v") < width - shift or m.end("v") != m.end():
            break  # the tail (shorter than the width, or closed by its quote)
        hi = m.end("v")
    return out
