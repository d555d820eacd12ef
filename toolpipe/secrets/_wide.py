"""Full-width forms (a label or its separator typed in a CJK input method's full width,
`ｐａｓｓｗｏｒｄ＝…`), read as their NFKC form, one character for one; and the labels
a redaction writes in the place of what it found (shared by every reading)."""

from __future__ import annotations

from collections.abc import Callable

_NARROW = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}  # NFKC of each


def _labelled(text: str, spans: list[tuple[int, int, str]]) -> str:
    """``text`` with each span replaced by its ``[REDACTED:<kind>]`` label."""
    if not spans:
        return text
    pieces: list[str] = []
    at = 0
    for lo, hi, kind in spans:
        pieces += [text[at:lo], "[REDACTED:", kind, "]"]
        at = hi
    pieces.append(text[at:])
    return "".join(pieces)


def full_width(text: str, spans: Callable[[str], list[tuple[int, int, str]]]) -> str:
    """ｐａｓｓｗｏｒｄ＝…: each line holding a full-width colon or equals sign (a label
    in full-width forms, or an ASCII one with a full-width separator) is judged again
    as its NFKC form (U+FF01–U+FF5E, U+3000 to ASCII), one character for one, so the
    spans found fit the line as it is. Found in the UTF-8 bytes (``re`` over a
    non-ASCII text is ten times as slow); other lines are not looked at again."""
    buf = text.encode("utf-8", "surrogatepass")
    lines: list[tuple[int, int]] = []
    for sep in (b"\xef\xbc\x9a", b"\xef\xbc\x9d"):  # a full-width ：or ＝
        at = buf.find(sep)
        while at >= 0:
            lo = buf.rfind(b"\n", 0, at) + 1
            hi = buf.find(b"\n", at)
            hi = len(buf) if hi < 0 else hi
            lines.append((lo, hi))
            at = buf.find(sep, hi)
    if not lines:
        return text
    out: list[str] = []
    at = 0
    for lo, hi in sorted(set(lines)):
        line = buf[lo:hi].decode("utf-8", "surrogatepass")
        place = text.find(line, at)  # its place in the text: no decoding of the rest
        if place < 0:
            continue
        out += [text[at:place], _labelled(line, spans(line.translate(_NARROW)))]
        at = place + len(line)
    out.append(text[at:])
    return "".join(out)
