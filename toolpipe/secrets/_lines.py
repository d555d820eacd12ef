"""Where a key stands on its line: the line's start (looked for a bounded way back), a
setting alone at the start of its line with one value to its end (``rootpw VALUE``, a
redis.conf or slapd.conf line, a table printed in columns), and a setting's name glued
to ``pass`` (``remotepass = …``, not ``bypass``)."""

from __future__ import annotations

import itertools
import re

IDENT = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


def line_start(buf: bytes, pos: int, limit: int = 4096) -> int:
    """Where the line holding ``pos`` starts, looked for at most ``limit`` bytes back (a
    text of one huge line must not be searched again at every trigger)."""
    floor = max(0, pos - limit)
    found = buf.rfind(b"\n", floor, pos)
    return found + 1 if found >= 0 else floor


def agreed(head: bytes, line: bytes) -> int:
    """How far ``line`` starts as ``head`` does, a digit agreeing with any digit (a log's
    timestamp ticks from one line to the next: `10:00:01.000Z` then `10:00:01.013Z`)."""
    for k, (a, b) in enumerate(zip(head, line, strict=False)):
        if a != b and not (48 <= a <= 57 and 48 <= b <= 57):
            return k
    return min(len(head), len(line))


# What may stand before a line's own text where a setting or a command is read as alone on
# its line: a log's header (a timestamp, then up to a `]`, a `:` or a level), syslog's
# (`<14>Dec  6 10:00:00 host app[1]:`), set -x's trace and a diff's mark (`+ `, `-`), a
# prompt (`$ `, `user@host:~$ `, `PS C:\\work> `), a comment's mark, a mail's quote
# (`> `). A secret in a commented, quoted, traced or logged line is one still (found by
# putting every corpus line after each: 187 of 2,727 leaked after a log's header).
HEAD = re.compile(
    rb"[ \t]*(?:"
    rb"(?:\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d)?[.,\d]*(?:Z|[+-]\d\d:?\d\d)?)?"
    rb"|[A-Z][a-z]{2}[ \t]+\d{1,2}[ \t]+\d\d:\d\d:\d\d|<\d{1,3}>\d?|[IWEF]\d{4}[ \t]+[\d:.]+)"
    rb"(?:[^\n]{0,96}?(?:[\]:]|\b(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL)\b))?"
    # (a prompt: up to 64 characters ending in `$`, `#`, `%` or `>`, then a blank:
    # `user@host:~/repo$ `, `PS C:\\work> `, `mysql> `)
    rb"|[+\-]{1,3}|[^\n]{0,64}?[$#%>](?=[ \t])|#{1,3}|//|--|;|!|(?:>[ \t]?){1,8}"
    # (a JSON log's member whose string holds the line: `{"msg": "`, `"log":"`, `["`; in
    # JSON in JSON, its quotes escaped: `{\"msg\": \"`)
    rb"|[^\n]{0,96}?(?:\\*\"[A-Za-z_][\w.\-]{0,31}\\*\"[ \t]*:|[\[,])[ \t]*\\*\""
    # (an HTML element's opening tags: a page's `<pre>`, `<td><code>`)
    rb"|(?:<[A-Za-z][^<>\n]{0,64}>){1,4}"
    # (a string that holds the line: `echo '`, `out = '`, `VALUES ('`, a CSV cell's `1,"`;
    # a tab-separated field before it: `message<TAB>`)
    rb"|(?:[^\n]{0,96}?[ \t(=,\[:])?['\"]|[^\t\n]{1,64}\t"
    rb")?[ \t]*")


def headed(buf: bytes, line: int, start: int) -> bool:
    """Is what stands between a line's start and ``start`` blank or a line's head
    (``HEAD``)?"""
    return HEAD.fullmatch(buf, line, start) is not None


def headed_then(buf: bytes, line: int, start: int, rest: re.Pattern[bytes]
                ) -> re.Match[bytes] | None:
    """``rest``'s match taking the line to ``start``, alone or after a line's head
    (``HEAD``) that stands from ``line``, if any (the line's start and each place after a
    blank are tried, up to 32)."""
    alone = rest.fullmatch(buf, line, start)
    if alone is not None:
        return alone
    first = buf[line:line + 1]
    if first and first not in _HEAD_FIRST and not first.isalpha():
        return None  # (no head starts so: the common case, answered at once)
    if first.isalpha() and _HEAD_END.search(buf, line, start) is None:
        return None  # (a head that starts with a letter ends in one of these)
    marks = _MARKS.match(buf, line, start) or _TAGS.match(buf, line, start)
    tries = [marks.end()] if marks is not None else []  # (`+rootpw`, `<pre>rootpw`)
    # (each string's opening quote: the line may be any JSON member's, `"msg":"…"`, or
    # any quoted argument's, `echo '…`; each tab-separated field's start)
    tries += [m.end() for m in itertools.islice(_OPEN.finditer(buf, line, start), 8)]
    at: int | None = line
    for _ in range(32):
        if at is None:
            break
        tries.append(at)
        blank = _BLANK.search(buf, at, start)
        at = blank.end() if blank is not None else None
    for at in tries:
        if HEAD.fullmatch(buf, line, at) is not None:
            found = rest.fullmatch(buf, at, start)
            if found is not None:
                return found
    return None


_BLANK = re.compile(rb"[ \t]+")
_TAGS = re.compile(rb"(?:<[A-Za-z][^<>\n]{0,64}>){1,4}")
_OPEN = re.compile(rb"""(?:\\*"[ \t]*:|[\[,])[ \t]*\\*"|[ \t(=,\[:]['"]|\t""")
_HEAD_END = re.compile(rb"[$#%>\]:'\"\t]")
_MARKS = re.compile(rb"[+\-]{1,3}|[#;!>]+|//|--")
_HEAD_FIRST = frozenset(bytes([c]) for c in b"0123456789<+-$#%/;!>~@[(.{\"' \t")  # (and letters
# of a prompt, `user@host:~$`: any letter starts one; a line's own text starts so too, and
# then the tries after its blanks find no head, bounded)
_SETS = re.compile(rb"(?i)(?:env|arg|setx|set|setenv|export|(?:declare|typeset)[ \t]+-x)[ \t]+")

_NAME_CHARS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
_COLUMNS_END = re.compile(rb"[ \t]{2,}[^\n]{0,256}(?:\r?\n|$)")
# (or the end of the JSON string that holds the line: `"}`, `",`; an element's closing tags)
_LINE_END = re.compile(rb"[ \t]*(?:#[^\n]*|\"[ \t]*[,}\]][^\n]*|(?:</[A-Za-z][^<>\n]{0,32}>)+"
                       rb"|['\"][ \t]*[,;)}\]][^\n]*|['\"][ \t]*)?(?:\r?\n|$)")


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
    return buf[glued:start] not in _PASS_WORDS and headed(buf, line_start(buf, name), name)


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
        # the key word ends a longer name (rootpw), or a line's head stands before it
        if not IDENT.fullmatch(word + b"x") and not headed(
                buf, line, line + len(key.rstrip(_NAME_CHARS))):
            return False
    if _LINE_END.match(buf, match.end()) is not None:
        return True
    # a table printed in columns (`vercel env ls`: NAME  VALUE  ENVIRONMENT): two or more
    # blanks on each side of the value
    sep = match.group("sep")
    return len(sep) >= 2 and not sep.strip(b" \t") and _COLUMNS_END.match(
        buf, match.end()) is not None
