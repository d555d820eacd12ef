"""A line held inside another line: a string that quotes it (`echo '…'`, `out = '…'`, a
Python repr, SQL's `VALUES ('…')`, a CSV cell `1,"…"`), XML's CDATA, a tab-separated
field before it. The rules that know a line by its start (a table's row, `rootpw VALUE`,
a client's positional password) do not see it there, and its quotes are escaped as its
holder escapes them (`''`, `""`, `\\'`, a shell's `'"'"'` and `'\\''`), so that
`PASSWORD ''pw''` reads as an empty string. Each line where a holder opens before a
credential's word, or such an escape stands near one (and every CDATA, every doubled
quote of a CSV cell or an SQL string, every shell's splice of a quote) is read again:
each string on it with a blank and a credential's word in it (or with escapes) is read
as a line of its own, its escapes read. Found by putting every corpus line in each
holder (a sweep of 2,727 secret lines): leaking in an SQL string 359 → 25, in an
`echo`'s quoting 356 → 34, in a CSV cell 473 → 42, in a repr 243 → 41, in CDATA 230 →
0, after a tab's field 187 → 6 (with the heads of ``_lines``, which read a quote and a
tab's field as a line's head). What follows a line's head (a log's header, syslog's, a
comment's, a diff's or a mail's mark, a prompt: ``_lines.HEAD``, its longest reading) is
a line of its own too, for the forms with anchors of their own (`| **API token** | …`,
`set :password, …`, `key = …`): after a log's header 41 → 15, after `# ` 38 → 6, after a
diff's `+` 29 → 6."""

from __future__ import annotations

import itertools
import re

from toolpipe.secrets._escapes import (
    MARKS_BUDGET,
    REACH,
    WORDS,
    marks,
    read_escapes,
    unread,
)
from toolpipe.secrets._lines import HEAD
from toolpipe.secrets._re2 import compile_text

# (an opening quote at a line's start or after a blank, `(`, `=`, `,`, `:` or `[`; CDATA;
# a tab after a field, not an indent's: `\t    password: …` is a line at its depth)
_OPENER = r"""(?:(?:^|[ \t(=,:\[])['"]|<!\[CDATA\[|[^\s]\t)"""
_QUOTE_ESCAPE = r"""(?:''|""|\\'|'"'"'|'\\'')"""
_WORDS = WORDS.replace("pwd", "pw")  # (and slapd's `rootpw`)
# (one match a line at most, found by re2's DFA: a holder within 80 characters of a word,
# `[^\n]{0,80}?`, read 10 MB of mixed output in 520 ms, re2 falling back from its DFA;
# a word found first and its line looked at in Python cost 3 µs a word)
# (and a line's head, `_lines.HEAD`'s first characters: a log's timestamp, syslog's and
# glog's, a comment's, a diff's or a mail's mark, a prompt: what follows it is a line of
# its own for the forms a line's start anchors, `| **API token** | …`, `set :password, …`)
_HEADED = (r"^[ \t]*(?:\d{4}-\d\d-\d\d|[A-Z][a-z]{2}[ \t]+\d{1,2}[ \t]|<\d{1,3}>|[IWEF]\d{4}[ \t]"
           # (a prompt of word characters: `user@host:~/repo$ `, `mysql> `, `PS C:\work> `;
           # `[^\n]{0,64}?` before its mark took re2 off its DFA: 1.4 s on 10 MB)
           r"|[+\-#;!>$]|//|(?:PS[ \t])?[\w@.:\\~/-]{1,48}[$#%>][ \t])")
# (and a CSV cell or an SQL string holding a doubled quote, a shell's splice of a quote, a
# JSON string's escaped one, whatever its words: each is its holder's own escape,
# `1,"curl --user ""u:pw"" …"`, `('a ''b'' c')`, `'a '"'"'b'"'"''`)
_DOUBLED = (r"""(?m:(?:^|[,;\t])"[^"\n]*""|[(,][ \t]*'[^'\n]*'')|'"'"'|'\\''"""
            # (and a quoted word inside a JSON string: `\"alice\" * \"pw\"`; a tab escaped in
            # one, a row's fields: `"bob\tpptpd\tPW\t*"`)
            r'|\\"[^"\\\n]{4,}\\"|"[^"\\\n]*\\t')
# (and a string that holds a line whatever its words: two blank-separated words and a
# third, or a `:`, `=`, `*` or `|` between them, `echo '"alice" * "pw" *'`, `out =
# 'proxy-user = "ops:pw"'`: the thirteenth sitting's sweep, word-less forms in strings)
_A_LINE = r"{w}[ \t]+{w}+[ \t]+{w}|{w}[ \t]*[:=*|][ \t]*{w}"  # ({w}: a word's character)
_HOLDS_A_LINE = re.compile(_A_LINE.format(w=r"\S"))
_IN_QUOTES = _A_LINE.format(w=r"[^'\s]")  # (inside single quotes)
_HOLDS = rf"""(?:^|[ \t(=,:\[])'[^'\n]*?(?:{_IN_QUOTES})[^'\n]*'"""
_MARK = compile_text(rf"(?m:{_OPENER}|{_HEADED})[^\n]*{_WORDS}"
                     rf"|{_WORDS}[^\n]*{_QUOTE_ESCAPE}|{_QUOTE_ESCAPE}[^\n]*{_WORDS}"
                     rf"|{_DOUBLED}", ignore_case=True)
# (strings that hold a line are many in code: read in a text's first REACH characters)
_HELD = compile_text(rf"(?m:{_HOLDS})")
_ANY = re.compile(_OPENER, re.MULTILINE)
_OPEN = re.compile(r"""(?:^|[ \t(=,:\[])(['"])|(<!\[CDATA\[)|(?<=\S)\t""")
# each quote's escapes, read as the one character they stand for
# (and a double-quoted string's `\t`, JSON's and C's: a tab-separated row held in a JSON
# log, `"bob\tpptpd\tPW\t*"`, is its fields again)
_ESCAPES = {"'": re.compile(r"""'"'"'|'\\''|''|\\'|\\\\"""),
            '"': re.compile(r'""|\\"|\\\\|\\t')}
_NONE = re.compile(r"(?!)")
# a string's body, to its closing quote (a backslash escapes what follows; a doubled quote
# and a shell's splices stand for one)
_BODY = {"'": re.compile(r"""(?:'"'"'|'\\''|''|\\.|[^'\\])*"""),
         '"': re.compile(r'(?:""|\\.|[^"\\])*')}
HOLDERS = 16  # the holders read on a line
_SPACED = re.compile(r"[ \t=:|]")  # what a line holds, and a key or a value alone does not
_WORD_IN = re.compile(_WORDS, re.IGNORECASE)


def embedded_lines(text: str) -> list[int]:
    """Where each line to read again is: a holder or a line's head before a credential's
    word, a quote's escape near one, a holder's own escape (a doubled quote, a shell's
    splice, a JSON string's escaped quote), no label after it; past MARKS_BUDGET of them,
    every holder; and every CDATA (see above)."""
    if "\n" not in text and "'" not in text and '"' not in text and "\t" not in text and (
            "CDATA" not in text and _HEAD_START.match(text) is None):
        return []  # (one line, no holder, no head: nothing to read again, without a scan)
    found = marks(_MARK, text, _ANY, unread)
    # (CDATA holds a line whatever its words: rare, each is read, up to the budget)
    at = text.find("<![CDATA[")
    if at < 0:
        return found
    cdata: list[int] = []
    while at >= 0 and len(cdata) < MARKS_BUDGET:
        cdata.append(at)
        at = text.find("<![CDATA[", at + 9)
    return sorted(set(found + cdata))


def held_lines(text: str) -> list[int]:
    """Where each line with a string that holds a line is, whatever its words, in the
    text's first REACH characters (read as ``embedded_line`` reads), none with a label on
    it (see ``_no_label``)."""
    if "'" not in text:
        return []
    return marks(_HELD, text[:REACH], _ANY, _no_label)


def _no_label(data: bytes, start: int, end: int) -> bool:
    """A line with no label on it: one a reading found something on is not read again
    whatever its words (a second redaction reads what the first left as the first did:
    a label's place moving by its length moved where this reading had stopped)."""
    lo = data.rfind(b"\n", 0, start) + 1
    hi = data.find(b"\n", end)
    return data.find(b"[REDACTED:", lo, len(data) if hi < 0 else hi) < 0


def embedded_line(line: str, limit: int) -> tuple[str, list[int], int] | None:
    """What the holders on ``line`` hold (up to ``HOLDERS``, left to right, none inside
    another: a string to its closing quote, or the line's end; CDATA to its `]]>`; the
    first tab's field to the line's end), each read as a line of its own, its escapes
    read; where in ``line`` each character came from (a holder's close for the break
    after it), and the characters the escapes took (see ``read_escapes``); None past
    ``limit`` escapes."""
    plains: list[str] = []
    origins: list[int] = []
    taken = 0
    at = 0
    start = _head_end(line)
    if start:  # (what follows a line's head)
        rest = line[start:]
        if _SPACED.search(rest) is not None and _WORD_IN.search(rest) is not None:
            plains.append(rest)
            origins += [*range(start, len(line)), len(line)]
    for _ in range(HOLDERS):
        opened = _OPEN.search(line, at)
        if opened is None:
            break
        quote, cdata = opened.groups()
        start = opened.end()
        if quote:
            body = _BODY[quote].match(line, start)  # (to its close, or the line's end)
            end = body.end() if body is not None else start
            at = end + 1
        elif cdata:
            close = line.find("]]>", start)
            end = at = close if close >= 0 else len(line)
        else:
            end = at = len(line)
        read = read_escapes(line[start:end], limit - taken,
                            _ESCAPES[quote] if quote else _NONE, _unquoted)
        if read is None:
            return None
        if _SPACED.search(read[0]) is None or (not cdata and not read[2] and _WORD_IN.search(
                read[0]) is None and _HOLDS_A_LINE.search(read[0]) is None):
            # (CDATA, a string with escapes or one that holds a line, whatever its words)
            # (a word alone, a key's or a value's, or a string with no credential's word:
            # judged in its place already, and nothing in it reads another way alone)
            continue
        plains.append(read[0])
        origins += [start + k for k in read[1]] + [end]  # (the break after it: its close)
        taken += read[2]
    return "\n".join(plains), origins, taken


def _head_end(line: str) -> int:
    """Where the longest head (``_lines.HEAD``) of ``line`` that ends at a blank or a
    mark ends (0: none): `2026-… INFO [main] ` whole, not its shortest reading."""
    if _HEAD_START.match(line) is None:
        return 0  # (a string's opening is a head too, but read as a holder above)
    marked = _MARK_HEAD.match(line)
    if marked is not None:  # (a comment's, a diff's, a mail's mark, `$ `: read at once)
        return marked.end()
    data = line.encode("utf-8", "surrogatepass")
    head = HEAD.match(data)
    if head is None or not head.group(0).strip():
        return 0
    end = head.end()
    for blank in itertools.islice(_AFTER_BLANK.finditer(data, end), 6):
        if HEAD.fullmatch(data, 0, blank.end()) is not None:
            end = blank.end()
    return len(data[:end].decode("utf-8", "surrogatepass"))


_AFTER_BLANK = re.compile(rb"[ \t]+")
_MARK_HEAD = re.compile(r"[ \t]*(?:[+\-]{1,3}|#{1,3}|//|--|;|!|(?:>[ \t]?){1,8}|\$)[ \t]+"
                        r"|[ \t]*(?:[+\-]{1,3}|#{1,3}|(?:>[ \t]?){1,8})(?=[^\s+\-#>])")
_HEAD_START = re.compile(_HEADED)


_CONTROLS = {"\\t": "\t"}  # (not `\\n`: a printf's format keeps it, `printf "%s\\n" PW |`)


def _unquoted(m: re.Match[str]) -> str:
    escape = m.group(0)  # (each escape ends in the character it stands for, but a control's)
    return _CONTROLS.get(escape, escape[-1])
