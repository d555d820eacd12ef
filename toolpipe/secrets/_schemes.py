"""Context tests of credentials known by their scheme or format: an Authorization
header's (Bearer, Basic, a vendor's scheme), a private key block's, a pgpass or htpasswd
line's, a network device's password or community. Each registers itself in ``CHECKS``."""

from __future__ import annotations

import binascii
import re

from toolpipe.secrets._rule import b64_plain, base64_of_words
from toolpipe.secrets._values import (
    _PLACEHOLDER,
    CHECKS,
    Check,
    credential_like,
    plain_word,
    token_shaped,
    url_password,
)


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


def auth_scheme(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                ) -> str | None:
    """An Authorization header's credentials after a scheme: not a word of prose
    (``Authorization: Token authentication is…``), not a placeholder."""
    value = match.group("v")
    return kind if credential_like(value) and not plain_word(value) else None


def basic(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
          ) -> str | None:
    value = match.group("v")
    plain = b64_plain(value) or b""
    user, colon, password = plain.partition(b":")
    if colon and user and password and all(32 <= c < 127 for c in plain):
        return kind
    before = buf[max(0, match.start() - 40):match.start()].lower()
    if b"authorization" in before and len(value) >= 8:
        return kind
    return None


def auth_value(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
               ) -> str | None:
    """A value under a key that ends in ``auth``: base64 of ``user:password`` (Docker's
    ``config.json``, npm's ``_auth``), or under ``auth`` itself (not ``oauth``), a token
    whatever it decodes to (a random token there leaked before the ninth sitting unless
    the entropy guess took it)."""
    found = basic(kind, match, buf, groups)
    if found is not None:
        return found
    start = match.start()
    if start and buf[start - 1:start].isalpha():
        return None
    value = match.group("v")
    return "password" if token_shaped(value) and not base64_of_words(value) else None


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
    port that is not a number, and a password that is not one (``10:15:22:000:ok`` and
    ``12:30:45:123:456`` are times)."""
    start = match.start()
    word = start
    while word > 0 and buf[word - 1] not in b" \t\r\n\"'=:,;([{":
        word -= 1
    value = match.group("v")
    host = buf[word:start]
    if word == start or (word > 0 and buf[word - 1] == ord(":")) or value.isdigit() or (
            host.isdigit()):
        return None
    return url_password(kind, match, buf, groups)


def htpasswd(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
             ) -> str | None:
    value = match.group("n") or match.group("v")
    if value is None or value[:1] in (b">", b"|", b"<", b"&", b";"):
        return None
    return kind if not _PLACEHOLDER.fullmatch(value.strip(b"'\"")) else None


def network(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
            ) -> str | None:
    """A network device's ``password 0 PW`` or ``snmp-server community NAME``: the
    well-known communities are not secrets."""
    value = match.group("v")
    if value.lower() in (b"public", b"private"):
        return None
    return url_password(kind, match, buf, groups)


SCHEMES: dict[str, Check] = {
    "bearer": bearer, "basic": basic, "pem": pem, "b64_pem": b64_pem, "pgpass": pgpass,
    "htpasswd": htpasswd, "network": network, "auth_scheme": auth_scheme,
    "auth_value": auth_value}
CHECKS.update(SCHEMES)
