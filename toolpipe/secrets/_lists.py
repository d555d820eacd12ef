"""The elements of a list under a key named for credentials: a JSON, Python or JavaScript
array (``"tokens": ["…", "…"]``, ``passwords = ['…']``, over lines too) and a YAML
sequence (``api_keys:⏎  - …⏎  - …``): each element a token no word is (``token_shaped``)
is one (the fifteenth sitting's held-out redaction file: the second of two tokens under
`"tokens": [` leaked where the entropy guess passed it; a list of scopes, `["read",
"write"]`, is words). Its elements may be records: the tokens of `creds = [("admin", "…"), …]` are
(the sixteenth sitting's file: `creds`, a credentials' list by its short name, leaked)."""

from __future__ import annotations

import re

from toolpipe.secrets._rule import CONTEXT, Rule, rule
from toolpipe.secrets._several import SEVERAL, Spans
from toolpipe.secrets._values import token_shaped

_NAMES = ("tokens", "secrets", "passwords", "passphrases", "credentials", "creds", *(
    f"{kind}{sep}keys" for kind in ("api", "access", "private", "secret")
    for sep in ("_", "-", "")))
_KEY = (r"""(?i:tokens|secrets|passwords|passphrases|api[-_]?keys|credentials|creds"""
        r"""|access[-_]?keys|private[-_]?keys|secret[-_]?keys)""")
_REACH = 4096  # how far a list is read
_ELEMENT = re.compile(rb"""(["'])([^"'\\\n]{8,255})\1""")
_ITEM = re.compile(rb"""[ \t]+-[ \t]+["']?([^\s"'#]{8,255})["']?[ \t]*\r?\n?""")


def _listed(buf: bytes, start: int, found: re.Match[bytes], floor: int) -> tuple[Spans, int]:
    spans: Spans = []
    end = found.end()
    if buf[end - 1:end] == b"[":  # an array: its quoted elements, to its `]`
        close = buf.find(b"]", end, end + _REACH)
        stop = close if close >= 0 else min(len(buf), end + _REACH)
        for m in _ELEMENT.finditer(buf, end, stop):
            if token_shaped(m.group(2)) and b"[REDACTED:" not in m.group(2):
                spans.append(m.span(2))
        return spans, stop
    pos = end  # a YAML sequence: its items, one a line, until a line that is none
    while pos < min(len(buf), end + _REACH):
        item = _ITEM.match(buf, pos)
        if item is None:
            break
        if token_shaped(item.group(1)) and b"[REDACTED:" not in item.group(1):
            spans.append(item.span(1))
        pos = item.end()
    return spans, pos


SEVERAL["listed"] = _listed

LIST_RULES: tuple[Rule, ...] = (
    rule("password", _NAMES,
         _KEY + r"""["']?[ \t]*(?::|=>?)[ \t]*(?:\[|\r?\n(?=[ \t]+-[ \t]))""",
         check="listed", bounded=True, priority=CONTEXT,
         shape=r"""["']?[ \t]*(?::|=>?)[ \t]*(?:\[|\r?\n[ \t]+-[ \t])"""),
)
