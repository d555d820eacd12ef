"""A table's rows split into cells: at a delimiter (a comma, a semicolon, a tab, a bar),
a boxed row's outer bars opening and closing it; the bars of tables drawn with box
characters (psql's unicode style, rich's, a grid's: `│`, `┃`, `║`) are bars too, and
their rules (`───┼───`, `┡━━━╇━━━┩`) rules between rows, as psql's `-----+-----` is."""

from __future__ import annotations

import re

BOX_BARS = ("│".encode(), "┃".encode(), "║".encode())
DELIMITERS = (b",", b";", b"\t", b"|", *BOX_BARS)
OPENING_BARS = (b"|", *BOX_BARS)  # what a boxed row starts with
_BARS = re.compile(b"|".join(re.escape(b) for b in (b"|", *BOX_BARS)))
_SPLIT = {d: re.compile(re.escape(d)) for d in DELIMITERS[:4]}
# a table's rule between its rows: psql's `-----+-----`, mysql's `+-----+-----+`, a box's
# `───┼───` (its characters U+2500 to U+257F)
RULE_ROW = re.compile(rb"[ \t]*(?:[+|]|\xe2[\x94\x95][\x80-\xbf])?[ \t]*"
                      rb"(?:[-=]|\xe2\x94[\x80\x81\x84\x85\x88\x89]|\xe2\x95\x90){3,}"
                      rb"(?:[-=+| \t:]|\xe2[\x94\x95][\x80-\xbf])*")
# a markdown table's separator row (the table rule's, `_several._table`)
MARKDOWN_ROW = re.compile(rb"[ \t]*\|(?:[ \t]*:?-{3,}:?[ \t]*\|?)+[ \t]*")


def cells(line: bytes, at: int, delimiter: bytes) -> list[tuple[int, int]]:
    """Where each cell of a row starting at ``at`` lies, split at ``delimiter`` (a boxed
    row's outer bars, `| a | b |`, `│ a │ b │`, open and close it: they make no cell; a
    box's bars are any of its kinds, rich's header `┃` over its rows' `│`)."""
    bars = [m.span() for m in (_BARS if delimiter in BOX_BARS else _SPLIT[delimiter]
                               ).finditer(line)]
    lo, hi = 0, len(line)
    if bars and (delimiter == b"|" or delimiter in BOX_BARS):
        if not line[:bars[0][0]].strip():
            lo = bars.pop(0)[1]
        if bars and not line[bars[-1][1]:].strip():
            hi = bars.pop()[0]
    out = []
    pos = lo
    for a, b in bars:
        out.append((at + pos, at + a))
        pos = b
    out.append((at + pos, at + hi))
    return out
