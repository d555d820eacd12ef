"""One-time codes listed under their heading: an account's recovery, backup, scratch or
emergency codes (or keys) (GitHub's `Recovery codes:`, Google's backup codes, a TOTP app's scratch
codes), each a code that signs in once in place of the second factor. On the heading's
line after it, or on the lines below it (a few per line, by blanks or commas); each code
letters and digits with a digit among them, in groups (`a1b2c-3d4e5`, `53071100`, `1234
5678`). The list ends at the first line that holds anything else (`see the vault`: words,
no code). (Before the eighteenth sitting a rule of `_devices` took the lines below the
heading whole, line breaks and words too, and none on the heading's own line.)"""

from __future__ import annotations

import re

from toolpipe.secrets._rule import CONTEXT, Rule, rule
from toolpipe.secrets._several import SEVERAL, Spans

# a code: groups of letters and digits joined by `-` (GitHub's `a1b2c-3d4e5`, BitLocker's
# eight groups of six digits), or two by a blank (Google's `1234 5678`)
_CODE = rb"(?:[0-9]{3,5} [0-9]{3,5}(?![A-Za-z0-9-])|[A-Za-z0-9]{4,16}(?:-[A-Za-z0-9]{3,16}){0,7})"
# a line of codes, numbered or listed or not (`1. …`, `- …`), by blanks or commas
_LINE = re.compile(rb"[ \t]*(?:(?:\d{1,2}[.)]|[-*]|\xe2\x80\xa2)[ \t]+)?(?P<codes>" + _CODE +
                   rb"(?:[ \t]*[, \t][ \t]*" + _CODE + rb"){0,15})[ \t]*,?[ \t]*(?:\r?\n|$)")
_ONE = re.compile(_CODE)
_DIGIT = re.compile(rb"[0-9]")
MAX_LINES = 32  # lines of codes followed below one heading


def _a_code(code: bytes) -> bool:
    """Six characters or more, a digit among them (or groups of one length joined by `-`,
    a generated form: `wbfig-indrz`); two groups of digits by a blank (Google's `1234
    5678`; `2026 used` is words)."""
    if len(code) < 6:
        return False
    if b" " in code:  # (digits, by the form)
        return True
    groups = code.split(b"-")
    return _DIGIT.search(code) is not None or (
        len(groups) > 1 and len({len(g) for g in groups}) == 1)


def _codes(buf: bytes, start: int, found: re.Match[bytes], floor: int) -> tuple[Spans, int]:
    """The codes after the heading (``found``), on its line and the lines below it."""
    out: Spans = []
    at = found.end()
    for _ in range(MAX_LINES):
        line = _LINE.match(buf, at)
        if line is None:
            break
        codes = [m.span() for m in _ONE.finditer(buf, line.start("codes"), line.end("codes"))]
        # (each a code: a line of words, `see the vault`, or a year, ends the list)
        if not codes or not all(_a_code(buf[a:b]) for a, b in codes):
            break
        out += codes
        at = line.end()
        if at >= len(buf) or buf[at - 1:at] != b"\n":
            break
    return out, at


SEVERAL["codes"] = _codes

CODE_RULES: tuple[Rule, ...] = (
    rule("password", ("recovery code", "backup code", "scratch code", "emergency code",
                      "recovery key", "backup key"),
         r"""(?i:recovery|backup|scratch|emergency)[ \t]+(?i:codes?|keys?)[ \t]*"""
         r"""(?:\([^)\n]{0,64}\))?[ \t]*[:=]?[ \t]*(?:\r?\n)?""",
         check="codes", priority=CONTEXT, bounded=False),
)
