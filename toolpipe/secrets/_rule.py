"""A detector's row: its triggers, its regex anchored at a trigger, the groups that hold the
secret, and the context test that may refuse it.

A rule fires only where one of its *triggers* occurs; the scanner finds every trigger of
every rule in one linear-time pass (re2, over the UTF-8 bytes), then matches the rule's own
regex at that place. Each regex starts at its trigger, is anchored there, and is built of
single character classes and bounded repeats, so one attempt is short and never
backtracks far.

``value`` names the groups that may hold the secret (the whole match when empty): a key keeps
its name and quotes, so ``"password": "[REDACTED:password]"`` stays valid JSON.
``check`` names a context test in ``_values`` that may refuse a match (an identifier, a
call, a placeholder are not secrets). ``bounded`` asks that no letter or digit come right
before the trigger (``xAKIA…`` is not an AWS key).
"""

from __future__ import annotations

import binascii

import attrs

from toolpipe._lazy_re import LazyPattern

# Priorities when spans overlap: a provider's shape says most, the key it sits under less,
# the entropy guess least. Overlapping spans are merged and take the best label.
PROVIDER, CONTEXT, GUESS = 0, 1, 2
PUBLIC_ZONE = 3  # not a secret: a span the entropy guess leaves alone
Span = tuple[int, int, str, int]  # start, end, kind, priority


@attrs.frozen
class Rule:
    kind: str
    triggers: tuple[str, ...]  # literals, their ASCII letters in either case
    regex: LazyPattern[bytes]  # compiled when its trigger is first found
    value: tuple[str, ...] = ()  # groups replaced, the first that matched; () the whole
    check: str | None = None
    priority: int = PROVIDER
    bounded: bool = True
    shape: str = ""  # re2, what must follow a trigger for the rule to be tried at all
    case_triggers: tuple[str, ...] = ()  # re2 fragments matched case-sensitively
    # how far before its trigger a match starts, at most and at least (``[0-9]{8,10}:AA…``
    # is found from ``:AA``, 8 to 10 bytes on): a literal in the middle of a shape is a
    # trigger the C scan finds fast, where a fragment with counted repeats makes every
    # byte of the text cost more
    back: tuple[int, int] = (0, 0)


def ascii_lower(text: str) -> str:
    """Lower case for ASCII letters only, as the scanner folds bytes: a trigger with other
    letters (``Şifre``, ``Пароль``) is listed in each case it may take."""
    return "".join(c.lower() if c.isascii() else c for c in text)


# One character of a command line, as the rules spell it (`[^\n|;&]`: not the end of the
# line nor of the command), or a backslash and what it escapes, the line's end among them:
# a command continued on the next line (`docker login … \⏎ --password …`) is one command.
_COMMAND_CHAR = r"[^\n|;&]"
COMMAND_CHAR = r"(?:[^\n|;&\\]|\\\r?\n|\\.)"


def rule(kind: str, triggers: str | tuple[str, ...], regex: str, *,
         value: tuple[str, ...] = (), check: str | None = None, priority: int = PROVIDER,
         bounded: bool = True, shape: str = "", case_triggers: tuple[str, ...] = (),
         back: tuple[int, int] = (0, 0)) -> Rule:
    trig = (triggers,) if isinstance(triggers, str) else triggers
    regex = regex.replace(_COMMAND_CHAR, COMMAND_CHAR)
    return Rule(kind, tuple(dict.fromkeys(ascii_lower(t) for t in trig)),
                LazyPattern(regex.encode()), value, check, priority, bounded, shape,
                case_triggers, back)


def b64_plain(token: bytes) -> bytes | None:
    """What a run of base64 decodes to, its padding restored (``None``: it does not)."""
    try:
        return binascii.a2b_base64(token + b"=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        return None


def base64_of_words(token: bytes) -> bool:
    """Base64 of ordinary text (words and spaces) is data, not a credential (the entropy
    guess's reading, and a token's under an ``auth`` key)."""
    plain = b64_plain(token)
    if plain is None or len(plain) < 16 or plain.count(b" ") < 2:
        return False
    letters = sum(1 for c in plain if 65 <= c <= 90 or 97 <= c <= 122)
    return all(32 <= c < 127 or c in (9, 10) for c in plain) and letters >= 0.6 * len(plain)


def mostly_text(data: bytes, share: float) -> bool:
    """Are at least ``share`` of these bytes printable ASCII, tabs or line breaks (text a
    decoding gave, not binary)?"""
    return sum(1 for c in data if 32 <= c < 127 or c in (9, 10, 13)) >= share * len(data)


B64 = r"A-Za-z0-9+/"
URLSAFE = r"A-Za-z0-9_\-"
END = r"(?![A-Za-z0-9_\-])"  # the token ends here

# A key's value: JSON-escaped or plain quotes, or a bare word. The first character of a
# bare word already refuses references ($VAR, ${…}, %(…)s, <…>, {{…}}).
# the arrows a key and its value are written with, between blanks (`password -> …`)
ARROWS = "->|~>|→|⇒|⟶"
VALUE = (
    r"""(?:[bBrRuU]{1,2}(?=["']))?"""  # a literal's prefix: Python's b'…', r"…"
    r"""(?:&quot;(?P<hq>[^&\n]{1,4096})&quot;"""  # HTML-escaped quotes
    r"""|<!\[CDATA\[(?P<cd>[^\]\n]{1,4096})\]\]>"""  # XML's character data
    # a long string holding one line, on the quotes' lines or its own (TOML's and Python's
    # triple quotes, Lua's `[[…]]` and `[==[…]==]`)
    r"""|\"\"\"[ \t]*(?:\r?\n[ \t]*)?(?P<tq>[^"\n]{1,4096}?)[ \t]*(?:\r?\n[ \t]*)?\"\"\""""
    r"""|'''[ \t]*(?:\r?\n[ \t]*)?(?P<ts>[^'\n]{1,4096}?)[ \t]*(?:\r?\n[ \t]*)?'''"""
    # (not a label's brackets: `[[REDACTED:…]]` is a list holding a redaction)
    r"""|\[=*\[(?!REDACTED:)[ \t]*(?:\r?\n[ \t]*)?(?P<lq>[^\]\n]{1,4096}?)[ \t]*(?:\r?\n[ \t]*)?"""
    r"""\]=*\]"""
    r"""|"(?P<dq>(?:[^"\\\n]|\\.){1,4096})"|'(?P<sq>[^'\n]{1,4096})'"""
    # (a shell's ANSI-C quoting, `$'…'`: a string, not a variable; the twelfth sitting's
    # held-out file, `export PGPASSWORD=$'…'` leaked)
    r"""|\$'(?P<aq>(?:[^'\\\n]|\\.){1,4096})'"""
    # (escaped once, or twice: a JSON string inside a JSON string, `\\\"…\\\"`)
    r'|(?:\\\\){0,3}\\"(?P<eq>(?:[^"\\\n]|\\[^"\n]){1,4096}?)(?:\\\\){0,3}\\"'
    r"""|`(?P<bq>[^`\n]{1,4096})`"""
    # typographic quotes, as a word processor or a chat copies a value (“…”, ‘…’, «…»,
    # „…“, 「…」, ″…″); and a value in brackets after its label (`password (…)`, `[…]`)
    r"""|(?:“|‘|«|„|「|″|‹)(?P<tq2>(?:(?!”|’|»|“|」|″|›)[^\n]){1,256}?)(?:”|’|»|“|」|″|›)"""
    r"""|[(\[<{](?P<br>[^\s()\[\]<>{}"']{4,256})[)\]>}]"""
    r"""|["'](?P<uq>[^\s"'`,;<>(){}\[\]\\|&]{1,255})"""  # a quote never closed
    # (or a label: a value redacted before is read as one, so the key's regex does not
    # settle for a shorter reading, `key: 000A = [REDACTED:…]`, the second time)
    r"""|(?P<bare>\[REDACTED:[\w.-]{1,64}\]"""  # (not a table's border drawn with a box's
    r"""|(?!│|┃|║)[^\s"'`,;<>(){}\[\]\\|&$:#*][^\s"'`,;<>(){}\[\]\\|&]{0,255}))"""  # lines)
)
VALUE_GROUPS = ("hq", "cd", "tq", "ts", "lq", "dq", "sq", "aq", "eq", "bq", "tq2", "br", "uq",
                "bare")
