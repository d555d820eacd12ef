"""What a library-call trace shows of a program's secrets: ltrace's comparisons, where a
program checks what it was given against what it holds (`strcmp("guess", "…") = -1`,
`memcmp(0x7ffc…, "…", 16) = 4`, `strncmp`, `strcasecmp`, `wcscmp`): each string argument
shaped as a token (the guess is often a plain word or an option, the secret not; a trace
is noisy: a short or plain string is left as it is); and loguru's and better-exceptions'
variable markers under a traceback's line (`│     └ 'value'`), whose name is the word on
the code line above at the marker's column: a credential's name there marks its value."""

from __future__ import annotations

import re

from toolpipe.secrets._lines import line_start
from toolpipe.secrets._named import _CREDENTIAL_NAME
from toolpipe.secrets._rule import CONTEXT, Rule, rule
from toolpipe.secrets._several import SEVERAL, Spans, could_be_credential
from toolpipe.secrets._values import token_shaped

_STRING = re.compile(rb'"((?:[^"\\\n]|\\.){4,256})"')
_WORDS = re.compile(rb"[A-Za-z]+(?:[-_. ][A-Za-z]+)+")  # Content-Type, en_US: names


def _compared(buf: bytes, start: int, found: re.Match[bytes], floor: int
              ) -> tuple[Spans, int]:
    lo = found.start("args")
    return [(lo + m.start(1), lo + m.end(1)) for m in _STRING.finditer(found.group("args"))
            if token_shaped(m.group(1)) and not _WORDS.fullmatch(m.group(1))], found.end()


SEVERAL["compared"] = _compared

_MARKS = re.compile("[ \t]*[│└]".encode())  # a line of markers, not of code
_BEFORE_MARK = re.compile("[ \t│]*".encode())  # what comes before a value's marker
_NAME = re.compile(r"[A-Za-z_][\w.]*")


def _marked(buf: bytes, start: int, found: re.Match[bytes], floor: int
            ) -> tuple[Spans, int]:
    """A value under its marker: the name at the marker's column on the code line above
    the markers' lines (up to 32 of them) says whether it is a credential."""
    head = buf[line_start(buf, start):start]
    if not _BEFORE_MARK.fullmatch(head):
        return [], found.end()
    column = len(head.decode("utf-8", "replace"))
    at = start - len(head)
    for _ in range(32):
        if at <= 0:
            break
        above = line_start(buf, at - 1)
        line, at = buf[above:at - 1], above
        if _MARKS.match(line):
            continue
        text = line.decode("utf-8", "replace")
        name = _NAME.match(text, column)
        if name is None or (column and (text[column - 1].isalnum() or text[column - 1] in "_.")
                            ) or not _CREDENTIAL_NAME.search(
                                name.group().rsplit(".", 1)[-1].encode()):
            break
        return ([found.span("v")] if could_be_credential(found.group("v")) else []), found.end()
    return [], found.end()


SEVERAL["marked"] = _marked

TRACE_RULES: tuple[Rule, ...] = (
    rule("password", ("cmp(",),
         r"""(?:str|strn|mem|strcase|strncase|wcs|wcsn|b)?cmp\((?P<args>[^\n]{1,600}?)\)"""
         r"""[ \t]*=[ \t]*-?\d{1,12}""",
         check="compared", bounded=False, priority=CONTEXT),
    rule("password", ("└ ",), r"""└ b?(?P<q>['"])(?P<v>[^'"\n]{4,256})(?P=q)""",
         check="marked", bounded=False, priority=CONTEXT),
)
