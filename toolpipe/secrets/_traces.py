"""What a library-call trace shows of a program's secrets: ltrace's comparisons, where a
program checks what it was given against what it holds (`strcmp("guess", "…") = -1`,
`memcmp(0x7ffc…, "…", 16) = 4`, `strncmp`, `strcasecmp`, `wcscmp`): each string argument
shaped as a token (the guess is often a plain word or an option, the secret not; a trace
is noisy: a short or plain string is left as it is)."""

from __future__ import annotations

import re

from toolpipe.secrets._rule import CONTEXT, Rule, rule
from toolpipe.secrets._several import SEVERAL, Spans
from toolpipe.secrets._values import token_shaped

_STRING = re.compile(rb'"((?:[^"\\\n]|\\.){4,256})"')
_WORDS = re.compile(rb"[A-Za-z]+(?:[-_. ][A-Za-z]+)+")  # Content-Type, en_US: names


def _compared(buf: bytes, start: int, found: re.Match[bytes], floor: int
              ) -> tuple[Spans, int]:
    lo = found.start("args")
    return [(lo + m.start(1), lo + m.end(1)) for m in _STRING.finditer(found.group("args"))
            if token_shaped(m.group(1)) and not _WORDS.fullmatch(m.group(1))], found.end()


SEVERAL["compared"] = _compared

TRACE_RULES: tuple[Rule, ...] = (
    rule("password", ("cmp(",),
         r"""(?:str|strn|mem|strcase|strncase|wcs|wcsn|b)?cmp\((?P<args>[^\n]{1,600}?)\)"""
         r"""[ \t]*=[ \t]*-?\d{1,12}""",
         check="compared", bounded=False, priority=CONTEXT),
)
