"""Echoed inputs: a value a tool was given, found in its output in any form it may take
there: as it was (any case), JSON-escaped, URL-encoded, as hex (plain or spaced), as
base64 (standard or URL-safe, at any alignment inside a longer encoded text), truncated
(any 12 characters of it), or wrapped over lines.

One regular expression per set of values (re2: linear in the text), kept: the same
inputs are matched again without building it again."""

from __future__ import annotations

import base64
import functools
import json
import urllib.parse
from collections.abc import Sequence

from toolpipe.secrets._re2 import TextPattern, compile_text, escape

WINDOW = 12  # this many characters of a value in a row are a leak (the corpus' measure)
MAX_FANCY = 256  # longer values are searched for as they are, escaped or encoded only
_BREAK = r"(?:[ \t]*(?:\r?\n|\\n)[ \t>#*|-]*)?"  # a line break a wrap may put anywhere


def _b64_cores(value: bytes) -> list[str]:
    """The part of ``value``'s base64 that does not depend on what comes around it, for
    each of the three alignments it may have inside a longer encoded text."""
    out = []
    for k in range(3):
        encoded = base64.b64encode(b"\0" * k + value).decode()
        start = 4 if k else 0
        end = len(encoded) if (k + len(value)) % 3 == 0 else len(encoded) - 4
        core = encoded[start:end]
        if len(core) >= WINDOW:
            out.append(core)
            out.append(core.replace("+", "-").replace("/", "_"))
    return out


def literal_forms(value: str) -> list[str]:
    """``value`` as it is, JSON-escaped and URL-encoded."""
    out = [value]
    for form in (json.dumps(value)[1:-1], urllib.parse.quote(value, safe=""),
                 urllib.parse.quote_plus(value)):
        if form not in out:
            out.append(form)
    return out


def forms(value: str) -> list[str]:
    """Regular expressions for the forms ``value`` (at most ``MAX_FANCY`` characters) may
    take in an output, whole forms first (so a whole echo becomes one label)."""
    out = [escape(form) for form in literal_forms(value)]
    raw = value.encode()
    out.append(r"[\s:]?".join(escape(f"{b:02x}") for b in raw))  # hex, plain or spaced
    out += [escape(c) for c in _b64_cores(raw)]
    if len(value) >= 2:
        out.append(_BREAK.join(escape(c) for c in value))  # wrapped over lines
    step = 1 if len(value) <= 128 else 4
    for i in range(0, max(0, len(value) - WINDOW) + 1, step):  # truncated, or cut
        out.append(escape(value[i:i + WINDOW]))
    return out


@functools.lru_cache(maxsize=64)
def echo_pattern(values: tuple[str, ...]) -> TextPattern | None:
    """One pattern for every form of every value (longest values first), in re2: a few
    hundred alternatives run at the speed of one (re took 200 times as long)."""
    alternatives: list[str] = []
    for value in sorted(values, key=len, reverse=True):
        if len(value) <= MAX_FANCY:
            alternatives += forms(value)
    if not alternatives:
        return None
    try:
        return compile_text("|".join(dict.fromkeys(alternatives)), ignore_case=True)
    except Exception:  # too large for re2's memory: the values as they are, below
        return None


def redact_echoes(text: str, values: Sequence[str], label: str) -> str:
    """Every form of every value replaced by ``label``. Values longer than ``MAX_FANCY``
    (a file's content handed to a tool) are searched for as they are, escaped or encoded,
    with ``str.replace``: a regular expression that large would not stay linear."""
    pattern = echo_pattern(tuple(values))
    if pattern is not None:
        text = pattern.sub(label, text)
    small = pattern is not None
    for value in sorted(values, key=len, reverse=True):
        if len(value) > MAX_FANCY or not small:
            for form in literal_forms(value):
                if form in text:
                    text = text.replace(form, label)
    return text
