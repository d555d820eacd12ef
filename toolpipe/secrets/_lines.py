"""Where a key stands on its line: the line's start (looked for a bounded way back), a
setting alone at the start of its line with one value to its end (``rootpw VALUE``, a
redis.conf or slapd.conf line, a table printed in columns), and a setting's name glued
to ``pass`` (``remotepass = …``, not ``bypass``)."""

from __future__ import annotations

import re

IDENT = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


def line_start(buf: bytes, pos: int, limit: int = 4096) -> int:
    """Where the line holding ``pos`` starts, looked for at most ``limit`` bytes back (a
    text of one huge line must not be searched again at every trigger)."""
    floor = max(0, pos - limit)
    found = buf.rfind(b"\n", floor, pos)
    return found + 1 if found >= 0 else floor

_SETS = re.compile(rb"(?i)(?:env|arg|setx|set|setenv|export|(?:declare|typeset)[ \t]+-x)[ \t]+")

_COLUMNS_END = re.compile(rb"[ \t]{2,}[^\n]{0,256}(?:\r?\n|$)")
_LINE_END = re.compile(rb"[ \t]*(?:#[^\n]*)?(?:\r?\n|$)")


def glued_setting(buf: bytes, start: int, match: re.Match[bytes]) -> bool:
    """``remotepass = …``, ``smtppass: …``: a setting's name ending in ``pass``, alone at
    the start of its line and given its value with ``=`` or ``:`` (the words that end so,
    bypass, compass, surpass…, are not)."""
    if buf[start:start + 4].lower() != b"pass" or match.start("close") != start + 4 or not (
            match.group("sep").strip()):
        return False
    glued = start
    while glued > 0 and 97 <= buf[glued - 1] <= 122:
        glued -= 1
    name = glued
    while name > 0 and (buf[name - 1:name].isalnum() or buf[name - 1] in b"_-."):
        name -= 1
    return buf[glued:start] not in _PASS_WORDS and not buf[line_start(buf, name):name].strip(
        b" \t")


_PASS_WORDS = frozenset({b"by", b"com", b"encom", b"over", b"sur", b"tres", b"under", b"re",
                         b"im", b"mis", b"out"})


def config_line(match: re.Match[bytes], buf: bytes) -> bool:
    """``rootpw VALUE``, ``requirepass VALUE``, ``db_pass<TAB>VALUE``: a key alone at the
    start of its line and one value to its end (a comment may follow), as in redis.conf,
    slapd.conf, keepalived.conf or any ``key value`` file."""
    start = match.start()
    line = line_start(buf, start)
    key = buf[line:start]
    if key.strip(b" \t") or not (start == line or key.isspace()):
        word = buf[line:start].lstrip(b" \t")
        verb = _SETS.match(word)  # ENV DB_PASSWORD x, setx API_TOKEN x, SetEnv …
        word = word[verb.end():] if verb is not None else word
        if not IDENT.fullmatch(word + b"x"):  # the key word ends a longer name: rootpw
            return False
    if _LINE_END.match(buf, match.end()) is not None:
        return True
    # a table printed in columns (`vercel env ls`: NAME  VALUE  ENVIRONMENT): two or more
    # blanks on each side of the value
    sep = match.group("sep")
    return len(sep) >= 2 and not sep.strip(b" \t") and _COLUMNS_END.match(
        buf, match.end()) is not None
