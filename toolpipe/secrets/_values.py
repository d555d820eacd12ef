"""Context tests: where a shape matched, is it a secret or something that looks like one?

Each test sees the match and the text around it and answers the kind to report, or
``None`` for "not a secret". They refuse what a reader would not call a secret: a
variable, a call, an attribute, a type, a placeholder, a path, a word in prose.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Callable

_IDENT = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_DOTTED = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
_PATH = re.compile(rb"(?:~|\.{1,2})?/[^\s]*|[A-Za-z]:\\[^\s]*")
_FILLER = re.compile(rb"[*xX.#_\-?0]+|(?:x{3,}|X{3,})[\w\-]*|\.\.\.")
_PLACEHOLDER = re.compile(
    rb"(?i)<[^>]*>|\{\{?[^}]*\}\}?|\$\{?\w+\}?|%\(?\w*\)?s|%s|your[_\-. ]\S*|\S*[_\-]here"
    rb"|(?:os\.environ|process\.env|env|getenv|os\.getenv|settings|config|secrets)\b.*"
    rb"|(?:vault|secretsmanager|ssm|keychain|keyring|op|awssm|gcpsm|azkv)://.*"
)
# Words that stand where a value would and say nothing secret: types, nulls, booleans,
# the key's own name as a sample value.
_WORDS = frozenset(b"""null none nil nan undefined true false yes no on off empty blank
    string str text int integer number bool boolean bytes any object optional required
    secret secrets password passwd pass pwd token tokens apikey api_key key redacted hidden
    masked omitted removed sensitive placeholder example sample dummy test changeme
    change_me default unset notset not_set todo tbd n/a na new old current
    secretstr secretbytes field
    write read include omit same-origin enabled disabled inherit auto""".split())
# Keys named like credentials that hold none: pagination cursors (AWS NextToken, Google's
# nextPageToken), GitHub Actions' id-token permission.
_NOT_CREDENTIAL_KEY = re.compile(
    rb"(?i)(?<![A-Za-z0-9])(?:next|prev(?:ious)?|page|continuation|pagination|sync|resume|"
    rb"start|end)[_\-]?(?:page)?[_\-]?(?:token|cursor|marker)$")


_LONG_ALNUM = re.compile(rb"[A-Za-z0-9]{16,}")
_SHORT = frozenset({b"pass", b"pwd"})  # the short key words, read inside words only whole
_WORD = re.compile(rb"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+|_+")


def _wordy(value: bytes) -> bool:
    """Made of words, as names are (getSecretFromVault, AutoTokenizer, db_password,
    HTTPClient), not of random letters (MIIEowIBAAKCAQEA): no digits, and every piece a
    lower-case or capitalised word, an acronym of at most four letters, or underscores."""
    if any(c in b"0123456789" for c in value):
        return False
    return all(len(w) <= 4 or not w.isupper() for w in _WORD.findall(value))


def _value(match: re.Match[bytes], groups: tuple[str, ...]) -> tuple[bytes, str]:
    for name in groups:
        found = match.group(name)
        if found is not None:
            return found, name
    return match.group(0), ""


def key_value(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
              ) -> str | None:
    value, group = _value(match, groups)
    if len(value) < 4 or value.startswith(b"[REDACTED:") or _WORDS.__contains__(
            value.lower().strip(b"'\"")):
        return None
    if _FILLER.fullmatch(value) or _PLACEHOLDER.fullmatch(value) or _PATH.fullmatch(value):
        return None
    if value.isdigit() and len(value) < 6:
        return None  # a count, a port, a length
    sep = match.group("sep")
    start = match.start()
    if start and 97 <= buf[start - 1] <= 122 and buf[start:match.start("close")].lower(
            ) in _SHORT:
        return None  # "pass" or "pwd" inside a word: bypass=, compass_heading=
    if buf[start:start + 5].lower() == b"token" and _NOT_CREDENTIAL_KEY.search(
            buf[max(0, start - 40):match.start("close")]):
        return None  # NextToken, nextPageToken: a pagination cursor
    if b"\n" in sep and not _LONG_ALNUM.match(value):
        return None  # "secret:" ending a line opens a YAML block; only a token counts
    if sep.strip() == b"" or sep == b">":
        # "password hunter2" is prose unless it is a flag (--password hunter2) and a
        # value after ">" only counts inside <password>…</password>.
        lead = buf[max(0, start - 2):start]
        if sep == b">" and not lead.endswith(b"<"):
            return None
        if sep != b">" and not lead.endswith(b"-"):
            return None
    if group == "bare":
        after = buf[match.end():match.end() + 1]
        if after in (b"(", b"[", b".", b"{"):
            return None  # a call, an index, a generic type: code, not a value
        if _DOTTED.fullmatch(value):
            return None  # settings.DB_PASSWORD, self.token
        if _IDENT.fullmatch(value) and _wordy(value):
            spaced = sep.strip() != sep
            if b"=" in sep and spaced:
                return None  # token = AutoTokenizer: an assignment from a name
            if value[:1].isupper():
                return None  # api_key: SecretStr, a type
    return kind


def bearer(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
           ) -> str | None:
    value = match.group("v")
    before = buf[max(0, match.start() - 40):match.start()].lower()
    if b"authorization" in before or b"-h " in before or b"header" in before:
        return kind  # in an Authorization header anything is the credential (the spec)
    # A bare "Bearer …" in text: a token has a digit and is not a word.
    if len(value) < 16 or not any(c in b"0123456789" for c in value):
        return None
    return kind


def basic(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
          ) -> str | None:
    value = match.group("v")
    try:
        plain = binascii.a2b_base64(value + b"=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        plain = b""
    user, colon, password = plain.partition(b":")
    if colon and user and password and all(32 <= c < 127 for c in plain):
        return kind
    before = buf[max(0, match.start() - 40):match.start()].lower()
    if b"authorization" in before and len(value) >= 8:
        return kind
    return None


def url_password(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                 ) -> str | None:
    value = match.group("v").strip(b"'\"")  # a flag's value may be quoted
    if value.lower() in _WORDS or _FILLER.fullmatch(value) or _PLACEHOLDER.fullmatch(value):
        return None
    return kind


def pem(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]) -> str | None:
    return "pgp_private_key" if b"PGP" in match.group(0)[:60] else kind


def b64_pem(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
            ) -> str | None:
    head = match.group(0)[:64]
    try:
        plain = binascii.a2b_base64(head)
    except (binascii.Error, ValueError):
        return None
    return kind if b"PRIVATE KEY" in plain or b"PRIVATE" in plain else None


def pgpass(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
           ) -> str | None:
    """``host:port:database:user:password``: one word (no colon in it) right before the
    port, and a password that is not a number (``12:30:45:123:456`` is a time)."""
    start = match.start()
    word = start
    while word > 0 and buf[word - 1] not in b" \t\r\n\"'=:,;([{":
        word -= 1
    value = match.group("v")
    if word == start or (word > 0 and buf[word - 1] == ord(":")) or value.isdigit():
        return None
    return url_password(kind, match, buf, groups)


def htpasswd(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
             ) -> str | None:
    value = match.group("n") or match.group("v")
    if value is None or value[:1] in (b">", b"|", b"<", b"&", b";"):
        return None
    return kind if not _PLACEHOLDER.fullmatch(value.strip(b"'\"")) else None


Check = Callable[[str, "re.Match[bytes]", bytes, tuple[str, ...]], "str | None"]
CHECKS: dict[str, Check] = {
    "key_value": key_value, "bearer": bearer, "basic": basic, "url_password": url_password,
    "pem": pem, "b64_pem": b64_pem, "pgpass": pgpass, "htpasswd": htpasswd,
}
