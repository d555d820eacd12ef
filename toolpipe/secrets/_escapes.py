"""Escape sequences read as boundaries: JSON's, a shell's, a log's ``\\n`` and ``\\r`` (not
one whose backslash is itself escaped) become a line break and a space, ``\\t`` a space
and a tab, two bytes for two, so that ``ok\\npassword=…`` holds a key, ``db_pass\\tVALUE``
its key and value on one line (a break there hid the value: found by the eleventh
sitting's sweep of JSON strings), and the spans found fit the text as it is."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from toolpipe._text import character
from toolpipe.secrets._re2 import TextPattern, compile_text
from toolpipe.secrets._rule import Span

_ESCAPE = re.compile(rb"\\+[ntr]")


def _break(m: re.Match[bytes]) -> bytes:
    run = m.group(0)
    if len(run) % 2:
        return run  # (an odd run of backslashes escapes one)
    return run[:-2] + (b" \t" if run.endswith(b"t") else b"\n ")


_RUN = re.compile(rb"\\+")


# a Windows path (a drive's, or a share's): its backslashes part folders, they escape
# nothing (`C:\jobs\run.bat`, `\\files\new`: read as escapes, a `\r` broke the command
# line it stood in; the eighteenth sitting's classes-fresh86)
_WINDOWS_PATH = re.compile(rb"(?<![\w\\])(?:[A-Za-z]:|\\\\[A-Za-z][\w.$-]{1,63})\\[^\s\"'<>|*?]*")


def unescaped(buf: bytes) -> bytes:
    """``buf`` with its ``\\n`` and ``\\r`` escapes as breaks, ``\\t`` as blanks, the same length;
    a Windows path's backslashes left as they are."""
    if b"\\" not in buf:
        return buf
    if b":\\" in buf or b"\\\\" in buf:
        paths = [m.span() for m in _WINDOWS_PATH.finditer(buf)]
        if paths:
            out, at = bytearray(), 0
            for lo, hi in paths:
                out += _unescaped(buf[at:lo]) + buf[lo:hi]
                at = hi
            return bytes(out + _unescaped(buf[at:]))
    return _unescaped(buf)


def _unescaped(buf: bytes) -> bytes:
    """``unescaped``, with no Windows path in ``buf``. Few backslashes: each run is looked
    at; many: five passes of ``bytes.replace``."""
    backslashes = buf.count(b"\\")
    if not backslashes:
        return buf
    if backslashes * 100 > len(buf):
        escaped = b"\\\\" in buf
        if escaped and b"\0" in buf:
            return _ESCAPE.sub(_break, buf)
        # an escaped backslash pairs off first, left to right, as a reader pairs them
        out = buf.replace(b"\\\\", b"\0\0") if escaped else buf
        out = out.replace(b"\\n", b"\n ").replace(b"\\t", b" \t").replace(b"\\r", b"\n ")
        return out.replace(b"\0\0", b"\\\\") if escaped else out
    changed: bytearray | None = None
    at = buf.find(b"\\")
    while at >= 0:
        run = _RUN.match(buf, at)
        end = run.end() if run is not None else at + 1
        if (end - at) % 2 and buf[end:end + 1] in (b"n", b"t", b"r"):
            if changed is None:
                changed = bytearray(buf)
            changed[end - 1:end + 1] = b" \t" if buf[end] == 116 else b"\n "  # (`t`)
        at = buf.find(b"\\", end)
    return bytes(changed) if changed is not None else buf


# a terminal's control sequence (CSI: colours, cursor) or operating system command (OSC:
# a link), as `_disguise` reads them
_TERMINAL = re.compile(rb"\x1b\[[0-9;:?<=>]{0,32}[ -/]{0,4}[@-~]"
                       rb"|\x1b\][^\x07\x1b\n]{0,512}(?:\x07|\x1b\\)?")


def _blanks(m: re.Match[bytes]) -> bytes:
    return b" " * (m.end() - m.start())


def uncoloured(buf: bytes) -> bytes:
    """``buf`` with a terminal's escapes as blanks, the same length: as written, `\x1b[32m`
    glues `32m` to the run after it (`32mxpub661…` guessed at as a token) and `\x1b[0m`
    after a key reads as its value (`postgres:\x1b[0m`); 65 of 2,503 look-alikes in
    colours changed so. (A line whose words the escapes split is read again without
    them: `_disguise`.)"""
    return _TERMINAL.sub(_blanks, buf) if b"\x1b" in buf else buf


QP_WINDOWS, QP_BEFORE, QP_AFTER = 64, 128, 384  # the text as written, read around `=3D`


def near_quoted_printable(written: bytes, read: Callable[[bytes], list[Span]]
                          ) -> list[Span]:
    """The rules' spans in the text as written around each `=3D` (the first QP_WINDOWS of
    them: a bounded work), beside its reading as a mail's quoted-printable:
    `password=3DaAAAAAaAaa` read as a mail gives a value of letters alone, where as written
    its value is a token (found by hypothesis in the ninth sitting; the readings merge)."""
    spans: list[Span] = []
    at = written.find(b"=3D")
    for _ in range(QP_WINDOWS):
        if at < 0:
            break
        lo = max(0, at - QP_BEFORE)
        spans += [(s_lo + lo, s_hi + lo, kind, priority)
                  for s_lo, s_hi, kind, priority in read(written[lo:at + QP_AFTER])]
        at = written.find(b"=3D", at + QP_AFTER)
    return spans


# Past this many marks, every line a pattern's `every` finds is read again: the escapes' own
# budget then redacts the rest of those lines whole (a bound that fails closed)
MARKS_BUDGET = 4096


NEAR = 80  # how far after a marked stretch a label says its value was found


def unread(data: bytes, start: int, end: int) -> bool:
    """Is no label in the stretch marked, nor within NEAR bytes after it on its line? (A
    value found already: read twice, a JSON log's lines cost twice as much. A second
    secret on such a line that only this reading finds is left: a known gap.)"""
    stop = data.find(b"\n", end, end + NEAR)
    return data.find(b"[REDACTED:", start, stop if stop >= 0 else end + NEAR) < 0


def _in_label(data: bytes, pos: int) -> bool:
    """Is ``pos`` inside a label (`[REDACTED:aws_secret_key]`: its kind holds words)?"""
    opened = data.rfind(b"[REDACTED:", max(0, pos - 48), pos)
    return opened >= 0 and data.find(b"]", opened, pos) < 0


def marks(pattern: TextPattern, text: str, every: re.Pattern[str],
          keep: Callable[[bytes, int, int], bool] | None = None) -> list[int]:
    """Where ``pattern`` matches in ``text`` (character offsets), found in its UTF-8 bytes
    (re2 maps each match's offsets back to characters itself, a cost per match on a text
    not ASCII: 40 ms a pattern on 10 MB), but where a label follows (read already) or
    ``keep`` (given the bytes and the match's start and end) says no; past MARKS_BUDGET
    matches, where ``every`` matches from there on too."""
    data = text.encode("utf-8", "surrogatepass")
    out: list[int] = []
    byte = char = pos = 0
    passed = 0  # (matches passed over on this line)
    while (m := pattern.search(data, pos)) is not None:
        after = data.find(b"\n", m.start())
        line_end = len(data) if after < 0 else after + 1
        if data.startswith(b"[REDACTED:", m.end()) or _in_label(data, m.start()) or (
                keep is not None and not keep(data, m.start(), m.end())):
            # (read already: a label follows, or the word is a label's kind; on from the
            # match, a few times a line: a search runs to its line's end, so one line of
            # thousands of matches must not be searched thousands of times)
            passed += 1
            pos = max(m.end(), m.start() + 1) if passed < 8 else line_end
            if pos >= line_end:
                passed = 0
            continue
        if len(data) != len(text):  # (characters before it counted once, in order)
            char += len(data[byte:m.start()].decode("utf-8", "surrogatepass"))
            byte = m.start()
        out.append(char if len(data) != len(text) else m.start())
        if len(out) >= MARKS_BUDGET:
            out += [e.start() for e in every.finditer(text, out[-1] + 1)]
            break
        pos, passed = line_end, 0  # (a line read once: its first mark is enough)
    return out


# A line inside a JSON string (a JSON log's `msg`, JSON in JSON, a command line a tool
# logged): its quotes escaped, `IDENTIFIED BY \"pw\"`, `--password \"pw\"`. Each line
# where an escaped quote or a `\u` escape shares the line with a credential's word, or a
# word that calls for one (`--user \"u:pw\"`, `connect(\"h\", \"u\", \"pw\")`,
# `pass\u200bword`), either side, with no label after (read already), is read again as the
# string reads (found by putting every corpus line in a JSON string: 565 of 2,727 leaked;
# 121 after the eleventh sitting's); one re2 pattern, a match a line; past MARKS_BUDGET
# of them, every line with an escaped quote is (the escapes' budget then fails closed).
WORDS = r"(?:pass|pwd|secret|token|key|auth|identified|communit|credential|login)"
# (or an option given a quoted value: `-p \"…\"`, `--pass=&#x27;…`)
_STRING_WORDS = (WORDS[:-1] + r"|user|connect|secure|seed|sensitive|passe|pw"
                 r"|\s-{1,2}[a-z][\w-]*[= ]?)")
_JSON_ESCAPE_MARK = r"""(?:\\"|\\u[0-9a-fA-F]{4})"""


def _on_a_line_with(words: str, escape: str) -> TextPattern:
    """``escape`` on the line of one of ``words``, either side: one match a line."""
    return compile_text(rf"{words}[^\n]*{escape}|{escape}[^\n]*{words}", ignore_case=True)


_WORD_AND_ESCAPE = _on_a_line_with(_STRING_WORDS, _JSON_ESCAPE_MARK)
_ESCAPED_QUOTE = re.compile(r'\\"')
# (a surrogate pair, `\ud83d\udd10`, is one character: 🔐)
_JSON_ESCAPE = re.compile(r'\\(?:u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})'
                          r'|u([0-9a-fA-F]{4})|(["\\/bfnrt]))')
_JSON_SIMPLE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r",
                "t": "\t"}
# (and any line with text not ASCII escaped, as `json.dumps` writes it by default: a label
# in another script, `\u5bc6\u7801\uff1a…`, `Contrase\u00f1a:`, a look-alike letter, a
# box's border, an emoji's surrogate pair, prose: read as the text it spells, whatever its
# words (the eleventh sitting marked a label all in escapes, the twelfth's sweep found the
# rest); each escape's backslash escaped or not (JSON in JSON)
_NOT_ASCII = r"(?:[1-9a-fA-F][0-9a-fA-F]{3}|0[1-9a-fA-F][0-9a-fA-F]{2}|00[89a-fA-F][0-9a-fA-F])"
_NOT_ASCII_LINE = compile_text(rf"\\+u{_NOT_ASCII}[^\n]*")
_NOT_ASCII_ESCAPE = re.compile(rf"\\u{_NOT_ASCII}")


# a run of GLUED or more base64 characters between escaped quotes (`_entropy._escaped_edge`;
# between quotes' entities, GLUED_ENTITY_RUN)
GLUED = 20
_GLUED = rf"[A-Za-z0-9+/_\-]{{{GLUED},}}={{0,2}}"  # (its padding too)
GLUED_RUN = compile_text(rf'\\"{_GLUED}\\+"[^\n]*')
# a quote as HTML writes it (`&quot;n&quot;:&quot;…&quot;`, a JWK in a page's `<pre>`)
QUOTE_ENTITIES = ("&quot;", "&#34;", "&#x22;", "&apos;", "&#39;", "&#x27;")


# The readings of lines found whatever their words (the text between tags, a string that
# holds a line, JSON in JSON) look in a text's first REACH characters: more than the
# redaction layer's cap and margins keep (32 KB), and every such line of a megabyte read
# again cost a page 450 ms, a text of strings 550 ms.
REACH = 1 << 16
# a line with a quote escaped twice (JSON in JSON), read whatever its words (a quote
# escaped once, as every JSON log holds, is not: it cost a 32 KB log 20 ms more)
_NESTED = compile_text(r'\\\\\\"[^\n]*')


def json_string_lines(text: str) -> list[int]:
    """Where each line is that has an escape and a credential's word, text not ASCII
    escaped, or a run between escaped quotes left to this reading (see above)."""
    if '\\"' not in text and "\\u" not in text:
        return []
    found = marks(_WORD_AND_ESCAPE, text, _ESCAPED_QUOTE, unread)
    if '\\"' in text:  # (a run between escaped quotes, left by the guess to this reading)
        found = sorted(set(found + marks(GLUED_RUN, text, _ESCAPED_QUOTE)))
    if "\\u" not in text:
        return found
    labels = marks(_NOT_ASCII_LINE, text, _NOT_ASCII_ESCAPE)
    return sorted(set(found + labels)) if found else labels


def json_held_lines(text: str) -> list[int]:
    """Where each line with a quote escaped twice is, whatever its words (JSON in JSON: a
    line held in it, `{"m": "{\\"log\\": \\"\\\\\\"alice\\\\\\" * …\\"}"}`, a CHAP row), in the
    text's first REACH characters, read as ``json_unescaped_line`` reads."""
    if '\\\\\\"' not in text:
        return []
    return marks(_NESTED, text[:REACH], _ESCAPED_QUOTE, unread)


def read_escapes(line: str, limit: int, escape: re.Pattern[str],
                 decode: Callable[[re.Match[str]], str]) -> tuple[str, list[int], int] | None:
    """The line with each match of ``escape`` read as ``decode`` reads it, where in the line
    each of its characters came from, and the characters its escapes took; None past
    ``limit`` escapes."""
    out: list[str] = []
    origin: list[int] = []
    at = 0
    for m in escape.finditer(line):
        limit -= 1
        if limit < 0:
            return None
        out.append(line[at:m.start()])
        origin.extend(range(at, m.start()))
        read = decode(m)
        out.append(read)
        # (a run of escapes may read as several characters: each from its share of them)
        width = m.end() - m.start()
        origin.extend(m.start() + width * k // len(read) for k in range(len(read)))
        at = m.end()
    out.append(line[at:])
    origin.extend(range(at, len(line)))
    plain = "".join(out)
    return plain, origin, len(line) - len(plain)


Reading = tuple[str, list[int], int]  # a line read: its text, each character's origin, cost


def read_again(first: Reading, second: Reading | None) -> Reading | None:
    """``second``, a reading of ``first``'s text, as a reading of the line ``first`` read:
    each character's origin carried back, the cost of both (None: ``second`` was past its
    limit). JSON in JSON, a query encoded twice, a disguise inside escapes."""
    if second is None:
        return None
    return second[0], [first[1][k] for k in second[1]], first[2] + second[2]


def _json_escape(m: re.Match[str]) -> str:
    high, low, code, simple = m.groups()
    if high:
        return character(0x10000 + ((int(high, 16) - 0xD800) << 10) + int(low, 16) - 0xDC00)
    return character(int(code, 16)) if code else _JSON_SIMPLE[simple]


def json_unescaped_line(line: str, limit: int) -> tuple[str, list[int], int] | None:
    """The line with its JSON string escapes read (see ``read_escapes``), again while an
    escaped quote or a ``\\u`` escape is left, up to JSON_DEPTH times (JSON in JSON: a
    log's message holding a JSON document, `\\\\\\"password\\\\\\": …`; 483 of 2,727 leaked
    so, 181 after); then each string on it that holds a line (a blank in it: a log's
    `msg`), read alone as a line of its own, so that what a line's start anchors is found
    there (`{"msg": "\\u2503 DB_PASSWORD \\u2503 …"}`: a box-drawn row; the twelfth
    sitting), each piece's break from where its string closes (``joined``)."""
    read = _json_read(line, limit)
    if read is None:
        return None
    plain, origin, taken = read
    pieces = [(plain, origin, len(line))]
    # (the strings a held string holds in turn, JSON in JSON: each level's read as written
    # there, its origins carried back to the line)
    todo = [(line, list(range(len(line) + 1)))]
    for _ in range(JSON_DEPTH):
        found = []
        for text, at in todo:
            strings = (m for m in _JSON_STRING.finditer(text)
                       if _HOLDS_A_LINE.search(m.group(1)))
            for m in itertools.islice(strings, JSON_HELD - len(pieces) + 1):
                # (one level: the strings it holds in turn are found in it as written
                # there, read whole they would lose their own quotes)
                held = read_escapes(m.group(1), limit - taken, _JSON_ESCAPE, _json_escape)
                if held is None:
                    return None
                where = [at[m.start(1) + k] for k in held[1]]
                pieces.append((held[0], where, at[m.end(1)]))
                taken += held[2]
                found.append((held[0], [*where, at[m.end(1)]]))
        todo = [(text, at) for text, at in found if '"' in text]
        if not todo or len(pieces) > JSON_HELD:
            break
    return (*joined(pieces), taken)


def _json_read(line: str, limit: int) -> tuple[str, list[int], int] | None:
    read = read_escapes(line, limit, _JSON_ESCAPE, _json_escape)
    for _ in range(JSON_DEPTH - 1):
        if read is None or ('\\"' not in read[0] and "\\u" not in read[0]):
            break
        read = read_again(read, read_escapes(read[0], limit - read[2], _JSON_ESCAPE,
                                             _json_escape))
    return read


# a JSON string, and one that holds a line: a blank in it after a character that is not
# one (a key or a word alone is judged in its place already)
_JSON_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_HOLDS_A_LINE = re.compile(r"\S(?:[ \t]|\\t)")
JSON_HELD = 8  # the strings read alone on a line


JSON_DEPTH = 3


# A line inside HTML (a page's `<pre>`, a rendered log): its quotes and brackets escaped as
# entities (`PGPASSWORD=&#x27;…&#x27;`, `&lt;password&gt;…`): the lines where an entity
# shares the line with a credential's word (or one that calls for one, as above) are read
# again as a browser shows them (putting every corpus line in a `<pre>` leaked 659 of
# 2,727; 193 before the eleventh sitting's change), bounded as above.
_QUOTE_ENTITY = r"&(?:quot|apos|lt|gt|amp|#0*3[49]|#[xX]0*2[27]|#[xX]0*3[cCeE]|#0*6[02]);"
# (either side: `echo &#x27;pw&#x27; | docker login --password-stdin` has its word after)
_WORD_AND_ENTITY = _on_a_line_with(_STRING_WORDS, _QUOTE_ENTITY)
_ENTITY = re.compile(r"&(?:(quot|apos|lt|gt|amp)|#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6}));")
_NAMED = {"quot": '"', "apos": "'", "lt": "<", "gt": ">", "amp": "&"}


_QUOTE_ENTITY_OF = "(?:" + "|".join(QUOTE_ENTITIES) + ")"
GLUED_ENTITY_RUN = compile_text(rf"{_QUOTE_ENTITY_OF}{_GLUED}{_QUOTE_ENTITY_OF}[^\n]*")


def html_lines(text: str) -> list[int]:
    """Where each entity after a credential's word is (see above)."""
    if "&" not in text:
        return []
    found = marks(_WORD_AND_ENTITY, text, _ENTITY, unread)
    # (a run between quotes' entities, left by the guess to this reading)
    return sorted(set(found + marks(GLUED_ENTITY_RUN, text, _ENTITY)))


def _entity(m: re.Match[str]) -> str:
    name, decimal, hexadecimal = m.groups()
    if name:
        return _NAMED[name]
    return character(int(decimal) if decimal else int(hexadecimal, 16))


def html_unescaped_line(line: str, limit: int) -> tuple[str, list[int], int] | None:
    """The line with its HTML entities read (see ``read_escapes``)."""
    return read_escapes(line, limit, _ENTITY, _entity)


def joined(pieces: list[tuple[str, list[int], int]]) -> tuple[str, list[int]]:
    """Lines read from one line, each followed by a break whose origin is where that line's
    source ends in it (a span that reaches a piece's end ends there: a parameter's value
    before its `&`, a JSON string's before its close, not the whole line's end)."""
    text = "".join(piece + "\n" for piece, _, _ in pieces)
    return text, [at for _, origin, end in pieces for at in (*origin, end)]
