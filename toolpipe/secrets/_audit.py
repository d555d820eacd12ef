"""Linux audit records (auditd's log, ``ausearch --raw``): a field whose value has a blank,
a quote, a control character or a byte past ASCII is written as the hex of its bytes
(``a2=2D2D70617373776F72643D…``, an EXECVE record's argument), and a process's title
(``proctitle=``) as the hex of its arguments, NUL between them; sudo's command
(``cmd=``) too. Each record with such a field is read again as ``ausearch -i`` shows
it: the hex as the text it spells (each NUL a blank), each character from its two hex
digits, so what is found there is redacted in the hex where it stands. A run that does not
spell text (``auid=4294967295``, a number) stays as written."""

from __future__ import annotations

import re

from toolpipe.secrets._escapes import marks, read_escapes
from toolpipe.secrets._re2 import compile_text

# a record (its `audit(` stamp) with a field of eight hex digits or more, in capitals
_RECORD = compile_text(r"audit\([^\n]*=(?:[0-9A-F]{2}){4}")
_FIELD = re.compile(r"(?<==)(?:[0-9A-F]{2}){4,}(?=[ \t\r]|$)")


def audit_lines(text: str) -> list[int]:
    """Where each audit record with a field in hex is (one mark a line)."""
    if "audit(" not in text:
        return []
    return marks(_RECORD, text, _FIELD)


def _spelled(m: re.Match[str]) -> str:
    """The text a field's hex spells, one character for each byte (a NUL a blank), or the
    field as written when it spells no text."""
    data = bytes.fromhex(m.group(0)).replace(b"\0", b" ")
    if not data.isascii() or not all(32 <= b < 127 or b == 9 for b in data):
        return m.group(0)
    return data.decode("ascii")


def audit_line(line: str, limit: int) -> tuple[str, list[int], int] | None:
    """The record with each field in hex read as its text (see ``read_escapes``)."""
    return read_escapes(line, limit, _FIELD, _spelled)
