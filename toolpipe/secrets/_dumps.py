"""Text laid out by a program that prints bytes: a hex dump (``xxd``, ``hexdump -C``) cuts a
secret into pieces of 16 bytes, one a line, and base64 wrapped at 64 or 76 columns
(``base64 ~/.aws/credentials``) hides one whole. Each block is read as the bytes it
stands for and judged as text (``judge``: the pattern set's own spans); what is found
there is a span where it stands: in a dump, each line's hex and the piece of its text
column, in base64, the block's lines.

Both are looked for only where a cheap hint says a block may be: a dump's second line
(``00000010:``), found by a substring search, and two lines of 64 or more base64
characters running into each other, found by one re2 pass (linear in the input).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from toolpipe.secrets._re2 import SHORT_TEXT, UNANCHORED, compile_bytes, has_run, run_table
from toolpipe.secrets._rule import Span, b64_plain, mostly_text

Judge = Callable[[str], list[tuple[int, int, str]]]

# xxd: `00000010: 336a 7342 3971 4b64 5648 5733 375a 7250  3jsB9qKdVHW37ZrP` (the hex area is
# 39 wide, padded on the last line); hexdump -C: `00000010  39 44 … 65  |9DGJWc401hQvJEge|`
# (each line's end: blanks a copy added, a CRLF file's return)
_END = rb"[ \t]*\r?(?=\n|$)"
_XXD = re.compile(rb"[0-9a-f]{7,16}: (?P<hex>[0-9a-f ]{39})  (?P<asc>[^\n\r]{1,16})" + _END)
_HEXDUMP = re.compile(rb"[0-9a-f]{7,16}  (?P<hex>[0-9a-f ]{47,50})\|(?P<asc>[^\n\r]{1,16})\|"
                      + _END)
_HINTS = ((b"0000010: ", _XXD), (b"0000010  ", _HEXDUMP))
# base64 wrapped at 64 or 76 columns: two full lines at least (then the rest, if any)
_TWO_LINES = compile_bytes(rb"(?:^|\n)[A-Za-z0-9+/]{64,76}[ \t]*\r?\n[A-Za-z0-9+/]{64,76}"
                           rb"[ \t]*\r?\n")
_B64_TABLE = run_table(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_LINE = re.compile(rb"(?P<b64>[A-Za-z0-9+/]{1,76}={0,2})" + _END)
_MAX_BLOCK = 1 << 20  # bytes of a block read (a larger one is left to the other passes)


def dump_spans(buf: bytes, judge: Judge, priority: int) -> list[Span]:
    """The secrets ``buf``'s hex dumps and wrapped base64 blocks hold, as spans of ``buf``."""
    out: list[Span] = []
    for hint, pattern in _HINTS:
        at = buf.find(hint)
        while at >= 0:
            line = buf.rfind(b"\n", 0, at)  # (the dump's first line: the one before)
            start = 0 if line < 0 else buf.rfind(b"\n", 0, line) + 1
            end, found = _dump(buf, start, pattern, judge, priority)
            out += found
            at = buf.find(hint, max(end, at + 1))
    if len(buf) >= 130 and b"\n" in buf and (len(buf) > SHORT_TEXT or has_run(
            buf, _B64_TABLE, 64)):  # (no base64 line of 64: no block to read)
        out += _wrapped(buf, judge, priority)
    return out


def _dump(buf: bytes, start: int, pattern: re.Pattern[bytes], judge: Judge, priority: int
          ) -> tuple[int, list[Span]]:
    """The dump whose lines start at ``start``: where it ends, and the spans it holds."""
    lines: list[tuple[re.Match[bytes], bytes]] = []
    size = 0
    at = start
    while size < _MAX_BLOCK:
        m = pattern.match(buf, at)
        if m is None:
            break
        try:
            data = bytes.fromhex(m.group("hex").decode("ascii"))
        except ValueError:
            break
        asc = m.group("asc")
        if len(data) != len(asc) and (asc[len(data):].strip() or data[len(asc):].strip(b" ")):
            break  # (an ASCII column longer or shorter than its bytes by blanks: a line's
            # end, or blanks that ended the column, read trimmed: `_shape`)
        lines.append((m, data))
        size += len(data)
        at = m.end() + 1
    if not lines:
        return start, []
    out: list[Span] = []
    text = b"".join(d for _, d in lines).decode("latin-1")
    for a, b, kind in judge(text):
        lo = 0
        for m, data in lines:
            hi = lo + len(data)
            if lo < b and a < hi:
                out.append((*m.span("hex"), kind, priority))
                asc = m.start("asc")
                out.append((asc + max(a, lo) - lo, asc + min(b, hi) - lo, kind, priority))
            lo = hi
    return lines[-1][0].end(), out


def _wrapped(buf: bytes, judge: Judge, priority: int) -> list[Span]:
    out: list[Span] = []
    pos = 0
    while pos < len(buf):
        found = _TWO_LINES.Match(UNANCHORED, buf, pos, len(buf))[0][0]
        if found < 0:
            break
        start = found + 1 if buf[found:found + 1] == b"\n" else found
        lines: list[tuple[int, int]] = []
        at = start
        while at - start < _MAX_BLOCK:
            m = _LINE.match(buf, at)
            if m is None:
                break
            lines.append(m.span("b64"))
            at = m.end() + 1
            if m.end("b64") - m.start("b64") < 64:  # the last, shorter line
                break
        pos = max(at, start + 1)
        if len(lines) < 2:
            continue
        data = b64_plain(b"".join(buf[lo:hi] for lo, hi in lines))
        if not data or not mostly_text(data, 0.95):  # binary (a certificate's DER): no text
            continue
        found_in = judge(data.decode("latin-1"))
        if found_in:
            kind = found_in[0][2]
            out += [(lo, hi, kind, priority) for lo, hi in lines]
    return out
