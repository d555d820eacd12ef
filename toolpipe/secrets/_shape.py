"""A text's line shape, as a copy or a platform leaves it: blanks at the ends of lines (an
editor's, a terminal's copy, a table's padding), a CRLF file's returns, and an indent
every line shares (an output quoted in a list, a log's block, a markdown code block). The detectors
read a line's end where its text ends: `-----BEGIN OpenVPN Static key V1----- ` (a blank
after it), `curl … \\ ` (a continuation that a blank ends), `| passwd\\r` and a block of
base64 wrapped in CRLF lines had gone unread (putting blanks at the end of every corpus
line leaked 65 of 9,416 secrets and changed 30 of 2,855 look-alikes; CRLF endings leaked
6; indenting every line leaked 120 and changed 15, forms a line's start anchors: the
thirteenth sitting). The text is read trimmed of them (an indent only when every line
has it, so that what each line holds is read at its own depth), and what is found is
put back where it stands in the text as written (a span that ends at a line's end ends
before its blanks)."""

from __future__ import annotations

import bisect
import re


def trimmed(buf: bytes) -> tuple[bytes, list[int], list[int]] | None:
    """``buf`` without the blanks and returns that end its lines, nor the indent all of
    them share; where in the trimmed text each cut is, and how many bytes were cut up to
    and with it; None: nothing to cut (found by a few byte searches, not a scan; the
    lines cut by ``bytes`` methods, a pass in C each)."""
    trailing = b" \n" in buf or b"\t\n" in buf or b"\r\n" in buf or buf.endswith(
        (b" ", b"\t", b"\r"))
    indent = _shared_indent(buf) if buf[:1] in (b" ", b"\t") else b""
    if not trailing and not indent:
        return None
    lines = buf.split(b"\n")
    k = len(indent)
    kept = [line[k:] if line.startswith(indent) else line for line in lines] if k else lines
    if trailing:
        kept = [line.rstrip(b" \t\r") for line in kept]
    cuts: list[int] = []
    removed: list[int] = []
    at = cut = 0  # (where the line starts in the trimmed text; bytes cut before it)
    for line, new in zip(lines, kept, strict=True):
        if len(line) != len(new):
            lead = k if k and line.startswith(indent) else 0
            if lead:
                cut += lead
                cuts.append(at)
                removed.append(cut)
            tail = len(line) - lead - len(new)
            if tail:
                cut += tail
                cuts.append(at + len(new))
                removed.append(cut)
        at += len(new) + 1
    return b"\n".join(kept), cuts, removed


def _shared_indent(buf: bytes) -> bytes:
    """The blanks every line that holds anything starts with (none if one starts with
    what is not a blank: found at the first such line)."""
    if _UNINDENTED.search(buf) is not None:
        return b""
    indents = [m.group(1) for m in _INDENT.finditer(buf)]
    if not indents:
        return b""
    shortest, longest = min(indents), max(indents)
    k = 0
    while k < len(shortest) and shortest[k] == longest[k]:
        k += 1
    return shortest[:k]


# a line that holds something and starts with it; each such line's indent
_UNINDENTED = re.compile(rb"(?m)^[^ \t\r\n]")
_INDENT = re.compile(rb"(?m)^([ \t]+)(?=[^ \t\r\n])")


def back(pos: int, cuts: list[int], removed: list[int], end: bool) -> int:
    """A place in the trimmed text as a place in the text as written: an end at a cut
    stays before what was cut there, a start goes after it."""
    k = bisect.bisect_left(cuts, pos) if end else bisect.bisect_right(cuts, pos)
    return pos + (removed[k - 1] if k else 0)
