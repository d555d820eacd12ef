"""Secrets in forms that say so by their syntax, not by a token's shape:

- a key written as an array of bytes under a name that says key, secret or seed
  (``"secretKey": [12, 200, …]``, Rust's ``KEY: [u8; 32] = [0x1f, …]``, Python's
  ``bytes([…])``, Go's ``[]byte{…}``, C's ``key[32] = {…}``), not a public one;
- a template's default for a credential (Helm's and Jinja's ``… password | default "…"``,
  Sprig's ``default "…" .Values.password``);
- impacket's target, ``DOMAIN/user:password@host`` (the password split at the last ``@``);
- a chat server's incoming hook, whose path is its credential (Mattermost's and
  Rocket.Chat's ``/hooks/…``, Microsoft Teams' ``…/IncomingWebhook/…``).
"""

from __future__ import annotations

import re

from toolpipe.secrets._rule import CONTEXT, Rule, rule
from toolpipe.secrets._values import CHECKS, line_start

# --- a key as an array of bytes ----------------------------------------------------------

_BYTE = r"(?:0[xX][0-9a-fA-F]{1,2}|[0-9]{1,3})"
# (each trigger counts only when a number follows it: `key=[REDACTED:…]` is no trigger,
# so a text redacted once is judged as it was the first time)
_SEPS = ('": [', '":[', "': [", ": [", " = [", "=[", " = bytes([", " = bytearray([",
         " = new uint8array([", " = uint8array.from([", " = buffer.from([",
         " = []byte{", " := []byte{", "[16] = {", "[32] = {", "[64] = {", "[] = {",
         " = vec![")
_FIRST = r"\s*(?:0[xX])?[0-9]"
_ARRAY = (
    r"(?i:key|secret|seed)(?:\[[0-9]{0,3}\])?[\"']?[ \t]*"
    r"(?::[ \t]*\[u8;[ \t]*[0-9]{1,3}\][ \t]*=|:=|[:=])[ \t]*(?:new[ \t]+)?"
    r"(?:(?i:bytes|bytearray|uint8array(?:\.from)?|buffer\.from|\[\]byte|vec!)[ \t]*\(?)?"
    r"[ \t]*[\[{](?P<v>\s*" + _BYTE + r"(?:\s*,\s*" + _BYTE + r"){15,1023}\s*,?\s*)[\]}]")
_NAME = re.compile(rb"[\w.\-]+")
_NUMBER = re.compile(rb"0[xX][0-9a-fA-F]{1,2}|[0-9]{1,3}")
_PUBLIC_NAME = re.compile(rb"(?i)pub|verify|iv$|nonce|salt|magic|header|mask|table|sbox")


def keyed_bytes(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                ) -> str | None:
    """Bytes (each under 256, not all alike) under a name that is not a public key's, a
    nonce's or a table's (``publicKey``, ``iv``, ``MAGIC``, ``SBOX``)."""
    name = match.start()
    while name > 0 and (buf[name - 1:name].isalnum() or buf[name - 1] in b"_-."):
        name -= 1
    named = _NAME.match(buf, name)
    if named is None or _PUBLIC_NAME.search(named.group(0)):
        return None
    numbers = [int(n[2:], 16) if n[:2] in (b"0x", b"0X") else int(n) for n in _NUMBER.findall(
        match.group("v"))]
    return kind if max(numbers) < 256 and len(set(numbers)) > 8 else None


# --- a template's default for a credential -------------------------------------------------

_CREDENTIAL_WORD = re.compile(rb"(?i)pass|secret|token|api[_\-.]?key|private|credential|pwd")
_DEFAULT = (r"\|[ \t]*default[ \t]*\(?[ \t]*(?P<q>[\"'])(?P<v>[^\"'\n{}]{4,256})(?P=q)")
_SPRIG = (r"\{\{-?[ \t]*default[ \t]+(?P<q>[\"'])(?P<v>[^\"'\n{}]{4,256})(?P=q)[ \t]+"
          r"\.?[\w.]{0,128}(?i:pass|secret|token|key|credential|pwd)")


def defaulted(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
              ) -> str | None:
    """A default piped in a template (``| default "…"``): a secret when the expression it
    defaults, on the same line inside ``{{``/``{%``, names a credential."""
    start = match.start()
    line = line_start(buf, start, 512)
    opened = max(buf.rfind(b"{{", line, start), buf.rfind(b"{%", line, start))
    if opened < 0 or not _CREDENTIAL_WORD.search(buf, opened, start):
        return None
    return CHECKS["url_password"](kind, match, buf, groups)


# --- impacket's target --------------------------------------------------------------------

_IMPACKET = ("secretsdump", "psexec", "wmiexec", "smbexec", "atexec", "dcomexec", "gettgt",
             "getst", "getuserspns", "getnpusers", "lookupsid", "mssqlclient", "smbclient.py",
             "reg.py", "rpcdump", "samrdump", "addcomputer", "dacledit", "owneredit",
             "ticketer", "changepasswd", "services.py", "netview", "findDelegation",
             "impacket-")
_TARGET = (r"(?i:impacket-)?(?i:" + "|".join(re.escape(t) for t in _IMPACKET[:-1])
           + r")[\w.]{0,16}[ \t]+(?:[^\s'\"]{1,128}[ \t]+){0,8}?['\"]?[\w.\-]{1,128}/"
           r"[^\s:/'\"]{1,128}:(?P<v>[^\s'\"]{1,256})@[\w.\-]{1,253}(?=['\"\s]|$)")


# --- a chat server's incoming hook --------------------------------------------------------

_HOOK = (r"/(?i:hooks|webhooks?)/(?P<v>[A-Za-z0-9_\-]{16,128}(?:/[A-Za-z0-9_\-]{16,128})?)"
         r"(?![A-Za-z0-9_\-])")
_TEAMS_PATH = (r"/(?i:webhook)/(?P<v>[0-9a-fA-F\-]{36}@[0-9a-fA-F\-]{36}/IncomingWebhook/"
               r"[0-9a-fA-F]{32}(?:/[0-9a-fA-F\-]{36})?)")
_WORDS_DASHED = re.compile(rb"[A-Za-z]+(?:[-_][A-Za-z]+)+")


def hook_path(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
              ) -> str | None:
    """A hook's path that is random: not digits (a code host's hook id, `/hooks/12345`),
    not words joined by dashes (`/hooks/deploy-on-push`)."""
    value = match.group("v")
    first = value.split(b"/")[0]
    if first.isdigit() or _WORDS_DASHED.fullmatch(first) or (
            first.isalpha() and len(first) < 24):
        return None
    return kind


CHECKS.update({"keyed_bytes": keyed_bytes, "defaulted": defaulted, "hook_path": hook_path})

FORM_RULES: tuple[Rule, ...] = (
    rule("private_key", tuple(w + s for w in ("key", "secret", "seed") for s in _SEPS),
         _ARRAY, value=("v",), check="keyed_bytes", bounded=False, priority=CONTEXT,
         shape=_FIRST),
    rule("private_key", tuple(w + ": [u8;" for w in ("key", "secret", "seed")),
         _ARRAY, value=("v",), check="keyed_bytes", bounded=False, priority=CONTEXT,
         shape=r"[ \t]*[0-9]{1,3}\][ \t]*=[ \t]*\[" + _FIRST),
    rule("password", ("| default", "|default"), _DEFAULT, value=("v",), check="defaulted",
         bounded=False, priority=CONTEXT),
    rule("password", ("{{ default ", "{{default ", "{{- default "), _SPRIG, value=("v",),
         check="url_password", bounded=False, priority=CONTEXT),
    rule("password", _IMPACKET, _TARGET, value=("v",), check="url_password",
         bounded=False, priority=CONTEXT),
    # (Teams' first: at one trigger, the first rule that accepts is the one that counts)
    rule("service_token", "/webhook/", _TEAMS_PATH, value=("v",), bounded=False),
    rule("service_token", ("/hooks/", "/webhook/", "/webhooks/"), _HOOK, value=("v",),
         check="hook_path", bounded=False),
)
