"""Credentials said in prose the other way round: the value first, its label after it
(``… is the new admin password.``, ``Use … as your API key for now``), and a user and
password given as a pair after a word for both (``creds are app / …``, ``login: app / …``,
``creds → app / …``, ``log in with app/…``), and an annotation's value before the field it
is said of (``@Value("…") private String apiKey;``).

A label closes the sentence's clause (a stop, a comma, ``for now``, the line's end), so a
label that goes on (``… is the token provider``) names something else; the value must be a
token no word is (``token_shaped``), as in every prose form, and a pair's password one a
password could be (``could_be_credential``: not ``read / write``).
"""

from __future__ import annotations

import re

from toolpipe.secrets._lines import agreed
from toolpipe.secrets._rule import ARROWS, CONTEXT, Rule, rule
from toolpipe.secrets._several import SEVERAL, Spans
from toolpipe.secrets._values import CHECKS, line_start, token_shaped

# a verb that gives the value (`is`, `will be`, `as`), then the label's words: the text
# before the label ends so, and the word before the verb is the value
_GIVEN = re.compile(
    rb"""[ \t]+(?i:is|was|as|becomes|stays|remains|(?:will|would|should|shall)[ \t]+be)"""
    rb"""[ \t]+(?:(?i:the|your|our|my|a|an|its|their|his|her|this|that)[ \t]+)?"""
    rb"""(?:[A-Za-z][A-Za-z0-9\-]{0,19}[ \t]+){0,3}\Z""")
_QUOTES = b"\"'`"
# a label that ends its clause: a stop, a comma, the line's end, a phrase of time or place
# (`for now`, `until Monday`, `on staging`)
_CLAUSE_END = (r"""(?:[ \t]*(?:[.!?;,)]|\r?\n|$)|[ \t]+(?i:for|until|till|from|since|on"""
               r"""|in|at|during)[ \t])""")
_REACH = 160  # how far before its label the verb is looked for


def _said_before(buf: bytes, start: int, found: re.Match[bytes], floor: int
                 ) -> tuple[Spans, int]:
    """The word before the verb that gives it (each place tried fails at its first byte
    unless a blank stands there: linear in the reach)."""
    given = _GIVEN.search(buf, max(line_start(buf, start), start - _REACH), start)
    if given is None:
        return _commented(buf, start), found.end()
    hi = given.start()
    far = max(0, hi - 256)  # (a value is at most 255 bytes)
    lo = max(far - 1, *(buf.rfind(c, far, hi) for c in (b" ", b"\t", b"\n", b"("))) + 1
    while lo < hi and buf[lo] in _QUOTES:
        lo += 1
    while hi > lo and buf[hi - 1] in _QUOTES:
        hi -= 1
    value = buf[lo:hi]
    if not token_shaped(value) or b"[REDACTED:" in value:
        return [], found.end()
    return [(lo, hi)], found.end()


# a line of code whose trailing comment names what it holds (`"…"}  # the API token`,
# `x = '…'  // prod password`): the code before the comment's mark, and its literals
_COMMENT_MARK = re.compile(rb"[ \t](?:#|//|--)[ \t]")
_LITERAL = re.compile(rb"""(["'`])([^"'`\s]{8,256})\1""")


def _commented(buf: bytes, start: int) -> Spans:
    """The one token-shaped literal of the code before a trailing comment that holds the
    label at ``start`` (none when the code holds two: which one the comment names is not
    said)."""
    line = line_start(buf, start)
    mark = _COMMENT_MARK.search(buf, line, start)
    if mark is None or not buf[line:mark.start()].strip():
        return []  # (no comment, or a comment alone on its line: prose)
    tokens = [m.span(2) for m in _LITERAL.finditer(buf, line, mark.start())
              if token_shaped(m.group(2)) and b"[REDACTED:" not in m.group(2)]
    return tokens if len(tokens) == 1 else []


SEVERAL["said_before"] = _said_before

# a line of its own setting (`user=alice`, `hello=world12345`), not a value under a label
_ASSIGNMENT = re.compile(rb"[A-Za-z_][\w.\-]*=[^=]")


def _below(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
           ) -> str | None:
    """A value alone under its label: the label a word of its own (`DB_PASSWORD`,
    `_authToken`; not the tail of `0Aa0000TOKEN`), the value no setting of its own, and
    token-shaped."""
    at = match.start()
    before = buf[at - 1:at]
    if before.isalnum() and not (before.islower() and buf[at:at + 1].isupper()):
        return None  # (a word's tail; a camel case word's part is a word: `authToken`)
    head = match.groupdict().get("h")
    if head is not None:  # (the value's line's head starts the label's line too, up to
        # a blank there: `[worker-3] API token:⏎[worker-3]   value`; digits may differ)
        own = buf[line_start(buf, at):at]
        if agreed(own, head) < len(head) or own[len(head):len(head) + 1] not in (b" ", b"\t"):
            return None
    value = match.group(groups[0]) if groups else match.group(0)
    if _ASSIGNMENT.match(value) or not token_shaped(value) or b"[REDACTED:" in value:
        return None
    return kind


CHECKS["below"] = _below

# a label that stands alone in prose, and its words as the triggers spell them
_LABEL_WORDS = ("password", "passphrase", "passwd", "api key", "token", "secret")
_LABEL = r"""(?i:password|passphrase|passwd|api[ \t]key|token|secret)"""
# the end of a label's line, and what may stand between it and a value below it
_BELOW = (r"""(?:[ \t]*\([^)\n]{0,64}\)|[ \t]+(?i:is|are)[ \t]+(?i:below|here|as[ \t]+"""
          r"""follows)[^\n]{0,48})?[ \t]*:?[ \t]*\r?\n(?:[ \t]*[-=~_]{3,}[ \t]*\r?\n)?"""
          r"""(?:[ \t]*\r?\n){0,2}""")
_LONE = r"""[A-Za-z0-9+/=_\-.~!@#$%^*]"""  # a character of a value alone on its line
# the head a log gives each of its lines, before the value under a label (checked to be
# the label's line's own head: `_below`)
_HEADED = r"""(?:(?P<h>[^ \t\r\n][^\r\n]{2,95}?)[ \t])?"""
_PAIR_SEP = rf"""(?::|{ARROWS})?"""  # between a word for both and its pair

SAID_RULES: tuple[Rule, ...] = (
    # the label at its clause's end; the value looked for before it
    # (the shape keeps the trigger to those places: each place a trigger is found counts
    # against the text's budget, _scan.TRIGGER_BUDGET)
    rule("password", _LABEL_WORDS, _LABEL + _CLAUSE_END,
         check="said_before", bounded=True, priority=CONTEXT, shape=_CLAUSE_END),
    # a label, then `to` and the value: `Set the token to …`, `changed the password to …`
    rule("password", ("password to ", "passphrase to ", "token to ", "secret to ",
                      "passwd to "),
         r"""(?i:password|passphrase|token|secret|key|passwd)[ \t]+(?i:to)[ \t]+["'`]?"""
         r"""(?P<v>[A-Za-z0-9+/=_\-.!@#^*~]{7,255}[A-Za-z0-9+/=_\-!@#^*~])""",
         value=("v",), check="shaped", bounded=True, priority=CONTEXT,
         shape=r"""["'`]?[A-Za-z0-9+/=_\-.!@#^*~]{4}[A-Za-z0-9+/=_\-!@#^*~]*[0-9A-Z]"""),
    # the label ends its line (a note in brackets, `is below`, a colon may close it) and
    # the value stands alone on the next line that holds anything, under an underline or
    # blank lines: a CLI's key shown once, a password manager's field above its value
    # (the ninth sitting: these leaked unless the value's letters were random enough)
    # (the label a word of its own, the value no `key=value` line: found by a run, the
    # line under `0Aa0000TOKEN` was taken whole, `password=…` and all)
    # (under a log's heads, each line's own: `… INFO  Password:⏎… INFO  value`, the
    # eighteenth sitting's redaction file)
    rule("password", _LABEL_WORDS, _LABEL + _BELOW + _HEADED +
         r"""[ \t]*(?P<v>""" + _LONE + r"""{12,256})[ \t]*(?:\r?\n|$)""",
         value=("v",), check="below", bounded=True, priority=CONTEXT,
         shape=_BELOW + _HEADED + r"[ \t]*" + _LONE + "{12}"),
    # an annotation's value for the field it is said of, the field's name after it (Spring's
    # and MicroProfile's `@Value("…") private String apiKey;`: the fourteenth sitting's
    # second redaction file; a `${…}` reference is no token, and is left)
    rule("password", ("@value(", "@configproperty("),
         r"""@(?i:value|configproperty)\([ \t]*(?:(?i:defaultvalue)[ \t]*=[ \t]*)?["']"""
         r"""(?P<v>[^"'\s]{8,255})["'][ \t]*\)[ \t\r\n]*(?:(?:private|public|protected|"""
         r"""static|final|val|var|lateinit|internal)[ \t]+)*(?:[A-Za-z_][\w.<>\[\]]*[ \t]+)?"""
         r"""\w*?(?i:password|passwd|secret|token|api_?key|credential)\w*""",
         value=("v",), check="shaped", bounded=True, priority=CONTEXT,
         shape=r"""[ \t]*(?:(?i:defaultvalue)[ \t]*=[ \t]*)?["'][^"'\s]{8}"""),
    # a user and a password as a pair after a word for both
    # (a "user" with a letter and a digit in 8 or more, as `7Qx00000000/0001`: one token
    # with a slash, base64's, not a pair: the whole of it)
    # (an arrow for the colon, `creds → app / …`; a phrase that logs in with the pair, `log
    # in with app/…`: the twelfth sitting's held-out file)
    rule("password", ("creds", "credentials", "login:", "login is", "log in with",
                      "login with", "sign in with", "log in as", "sign in as"),
         r"""(?i:creds|credentials|login|(?:log|sign)[ \t]?in[ \t]+(?:with|as))"""
         r"""(?:[ \t]+(?i:are|is|were|was))?[ \t]*""" + _PAIR_SEP + r"""[ \t]+["'`]?(?:(?P<pair>"""
         r"""(?=[A-Za-z0-9_.@\-]*[0-9])(?=[A-Za-z0-9_.@\-]*[A-Za-z])[A-Za-z0-9_.@\-]{8,64}"""
         r"""[ \t]*/[ \t]*[^\s/"'`]{4,256})|(?P<u>[A-Za-z0-9_.@\-]"""
         r"""{1,64})[ \t]*/[ \t]*(?P<v>[^\s/"'`]{4,256}))""",
         # (a password could be: `stored`, not `read / write`)
         value=("pair", "v"), check="stored", bounded=True, priority=CONTEXT,
         shape=r"""(?:[ \t]+(?i:are|is|were|was))?[ \t]*""" + _PAIR_SEP
         + r"""[ \t]+["'`]?[A-Za-z0-9_.@\-]+[ \t]*/"""),
)
