"""Secrets in forms that say so by their syntax, not by a token's shape:

- a key written as an array of bytes under a name that says key, secret or seed
  (``"secretKey": [12, 200, …]``, Rust's ``KEY: [u8; 32] = [0x1f, …]``, Python's
  ``bytes([…])``, Go's ``[]byte{…}``, C's ``key[32] = {…}``), not a public one;
- a template's default for a credential (Helm's and Jinja's ``… password | default "…"``,
  Sprig's ``default "…" .Values.password``);
- impacket's target, ``DOMAIN/user:password@host`` (the password split at the last ``@``);
- a chat server's incoming hook, whose path is its credential (Mattermost's and
  Rocket.Chat's ``/hooks/…``, Microsoft Teams' ``…/IncomingWebhook/…``);
- a field a vault's export marks concealed (1Password's ``"type": "CONCEALED"``, Postman's
  ``"secret"``), Pulumi's ``config set … --secret``, a Redis ACL rule's ``>password``, an
  installer's ``PASSWORD user = …``, the private members of an RSA key in .NET's XML, a
  session in a URL's query;
- a call that sets a credential given its new value by name (``changePassword(…, new:
  "…")``), and a credential's line in base64 (found by what the credential words look like
  in base64, at each of the three alignments).
"""

from __future__ import annotations

import base64
import re

from toolpipe.secrets._rule import CONTEXT, Rule, b64_plain, mostly_text, rule
from toolpipe.secrets._several import SEVERAL, Spans
from toolpipe.secrets._values import CHECKS, line_start, plain_word

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


# --- a field a vault's export marks as concealed -----------------------------------------

_CONCEALED = rb"\"type\"[ \t]*:[ \t]*\"(?i:concealed|secret|hidden)\""
_VALUE_MEMBER = re.compile(rb"\"value\"[ \t]*:[ \t]*\"(?P<v>(?:[^\"\\\n]|\\.){1,4096})\"")


def _concealed(buf: bytes, start: int, found: re.Match[bytes], floor: int
               ) -> tuple[Spans, int]:
    """1Password's `"type": "CONCEALED"`, Postman's `"type": "secret"`: the `"value"` of
    the object the marker is in, before it or after it."""
    lo = buf.rfind(b"{", max(floor, start - 4096), start)
    hi = buf.find(b"}", found.end(), found.end() + 4096)
    if lo < 0 or hi < 0:
        return [], found.end()
    value = _VALUE_MEMBER.search(buf, lo, hi)
    if value is None or not value.group("v").strip() or b"[REDACTED:" in value.group("v"):
        return [], found.end()
    return [value.span("v")], hi


# --- Pulumi's secret settings -------------------------------------------------------------

_PULUMI = rb"pulumi[ \t]+config[ \t]+set[ \t][^\n|;&]{1,1024}"
_PULUMI_VALUED = frozenset({b"-s", b"--stack", b"-C", b"--cwd", b"--config-file"})


def _pulumi_secret(buf: bytes, start: int, found: re.Match[bytes], floor: int
                   ) -> tuple[Spans, int]:
    """`pulumi config set [--secret] KEY VALUE [--secret]`: VALUE, when --secret is there."""
    words = [(m.start(), m.group(0)) for m in _WORD.finditer(buf, found.start(), found.end())]
    if not any(w == b"--secret" for _, w in words):
        return [], found.end()
    operands: list[tuple[int, bytes]] = []
    skip = False
    for at, w in words[3:]:
        if skip:
            skip = False
        elif w in _PULUMI_VALUED:
            skip = True
        elif not w.startswith(b"-"):
            operands.append((at, w))
    if len(operands) < 2 or b"[REDACTED:" in operands[1][1]:
        return [], found.end()
    at, value = operands[1]
    inner = value[1:-1] if value[:1] in (b"'", b'"') and value[-1:] == value[:1] else value
    skip_quote = (len(value) - len(inner)) // 2
    return [(at + skip_quote, at + skip_quote + len(inner))], found.end()


_WORD = re.compile(rb"'[^'\n]*'|\"[^\"\n]*\"|\S+")

# --- a call that sets a credential, its new value by name ---------------------------------

_SETS = r"(?i:(?:change|reset|set|update|rotate)_?(?:password|passwd|secret|token|credentials?))"
_SETS_CALL = _SETS + r"\((?P<args>[^()]{0,1024})\)"
_NEW_ARG = re.compile(rb"(?i)\b(?:new\w{0,24}|value|to)[ \t]*[:=][ \t]*(?P<q>\\?[\"'])"
                      rb"(?P<v>(?:[^\"'\\\n]|\\[^\"'\n]){1,256})(?P=q)")


def _new_value(buf: bytes, start: int, found: re.Match[bytes], floor: int
               ) -> tuple[Spans, int]:
    """GraphQL's `changePassword(old: "…", new: "…")`, `resetPassword(token: t, newPassword:
    "…")`: the argument that holds the new value."""
    lo, hi = found.span("args")
    out = [m.span("v") for m in _NEW_ARG.finditer(buf, lo, hi)
           if not plain_word(m.group("v")) and b"[REDACTED:" not in m.group("v")]
    return out, found.end()


# --- a credential's line in base64 ----------------------------------------------------------

def _b64_fragments(word: bytes) -> list[str]:
    """What ``word`` looks like inside base64, at each of the three alignments (the
    characters its bytes alone decide)."""
    out = []
    for pad in range(3):
        enc = base64.b64encode(b"\0" * pad + word).decode()
        out.append(enc[(pad * 8 + 5) // 6:((pad + len(word)) * 8) // 6])
    return out


_B64_WORDS = (b"password", b"PASSWORD", b"Password", b"passwd", b"secret", b"SECRET",
              b"token", b"TOKEN", b"api_key", b"API_KEY", b"apikey", b"ApiKey")
_B64_FRAGMENTS = tuple(dict.fromkeys(f for w in _B64_WORDS for f in _b64_fragments(w)))
_B64_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_DECODED_PAIR = re.compile(rb"(?i)(?:pass(?:word|wd)?|secret|token|api_?key)[\w.\-]{0,32}"
                           rb"[ \t]*[=:][ \t]*[\"']?(?P<v>[^\s\"']{4,256})")


def _b64_credential(buf: bytes, start: int, found: re.Match[bytes], floor: int
                    ) -> tuple[Spans, int]:
    """A base64 run that decodes to text holding `password=…` (a .env or a line of one,
    encoded to be put in a variable): the whole run is the secret."""
    lo = start
    while lo > max(floor, start - 4096) and buf[lo - 1] in _B64_CHARS:
        lo -= 1
    hi = found.end()
    while hi < min(len(buf), start + 65536) and buf[hi] in _B64_CHARS:
        hi += 1
    plain = b64_plain(buf[lo:hi])
    if plain is None:
        return [], hi
    pair = _DECODED_PAIR.search(plain)
    if not mostly_text(plain, 0.9) or pair is None or plain_word(pair.group("v")):
        return [], hi
    end = hi + len(buf[hi:hi + 2]) - len(buf[hi:hi + 2].lstrip(b"="))  # its padding too
    return [(lo, end)], end


# --- keys given by position --------------------------------------------------------------

# where the secrets stand among the words from the trigger on (options not counted): MinIO's
# `mc alias set NAME URL ACCESS SECRET`, Backblaze's `b2 authorize-account ID KEY`,
# Poetry's and Composer's `config http-basic.NAME USER PASSWORD`, `config
# github-oauth.HOST TOKEN`
_POSITIONS: dict[bytes, tuple[int, ...]] = {
    b"mc alias set": (5, 6), b"mc config host add": (6, 7), b"mc admin user add": (6,),
    b"b2 authorize-account": (2, 3), b"b2 account authorize": (3, 4),
    b"http-basic.": (2,), b"github-oauth.": (1,), b"gitlab-oauth.": (1,),
    b"gitlab-token.": (1,), b"bearer.": (1,), b"pypi-token.": (1,),
    # unixODBC's `isql DSN USER PASSWORD`
    b"isql ": (3,),
    # Oracle's wallet (`mkstore … -createCredential DB USER PASSWORD`: counted from the
    # option, which is no word), SAP HANA's `hdbuserstore SET KEY HOST:PORT USER PASSWORD`,
    # `ansible-vault encrypt_string 'SECRET'`, Mosquitto's `mosquitto_passwd -b FILE USER PW`
    b"-createcredential": (2,), b"-modifycredential": (2,), b"hdbuserstore set": (5,),
    b"ansible-vault encrypt_string": (2,), b"mosquitto_passwd -b": (3,),
    # macOS' `networksetup -setairportnetwork DEVICE NETWORK PASSWORD`
    b"networksetup -setairportnetwork": (3,)}
_LINE_WORDS = rb"[^\n|;&]{1,1024}"


def _positional(buf: bytes, start: int, found: re.Match[bytes], floor: int
                ) -> tuple[Spans, int]:
    """The words at a trigger's positions (see ``_POSITIONS``), each a value a credential
    could be."""
    lead = next((k for k in _POSITIONS if buf[start:start + len(k)].lower() == k), None)
    if lead is None:
        return [], found.end()
    # (a word after a long option is that option's value: `--stdin-name NAME`)
    every = [(m.start(), m.group(0)) for m in _WORD.finditer(buf, start, found.end())]
    words = [(at, w) for k, (at, w) in enumerate(every) if not w.startswith(b"-") and not (
        k and every[k - 1][1].startswith(b"--") and b"=" not in every[k - 1][1])]
    out: Spans = []
    for index in _POSITIONS[lead]:
        if index < len(words):
            at, word = words[index]
            inner = word.strip(b"'\"")
            if len(inner) >= 4 and not plain_word(inner) and b"[REDACTED:" not in inner:
                lo = at + word.index(inner)
                out.append((lo, lo + len(inner)))
    return out, found.end()


SEVERAL.update({"concealed": _concealed, "pulumi_secret": _pulumi_secret,
                "positional": _positional,
                "new_value": _new_value, "b64_credential": _b64_credential})

# --- Redis' ACL rules, installers' generated passwords, XML private keys -------------------

_ACL = (r"(?i:acl[ \t]+setuser|user)[ \t]+[^\s>]{1,128}(?:[ \t]+[^\s>]{1,256}){0,16}?"
        r"[ \t]+>(?P<v>[^\s]{1,256})")
_GENERATED = r"PASSWORD[ \t]+[\w.@\-]{1,64}[ \t]+=[ \t]+(?P<v>[^\s(]\S{0,255})"
_RSA_PRIVATE = (r"<(?P<tag>D|P|Q|DP|DQ|InverseQ)>(?P<v>[A-Za-z0-9+/=\s]{16,4096})"
                r"</(?P=tag)>")
# a session or an authentication in a URL's query, by the names servers give it
_QUERY = (r"[?&;](?i:sid|session|sessionid|session_id|auth|authtoken|auth_token|jwt)="
          r"(?P<v>[A-Za-z0-9%+/=_\-.~]{16,2048})")

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
    rule("password", ('"type": "concealed"', '"type":"concealed"', '"type": "secret"',
                      '"type":"secret"', '"type": "hidden"', '"type":"hidden"'),
         _CONCEALED.decode(), check="concealed", bounded=False, priority=CONTEXT),
    rule("password", "pulumi config set", _PULUMI.decode(), check="pulumi_secret",
         bounded=False, priority=CONTEXT),
    rule("password", ("acl setuser ", "user "), _ACL, value=("v",), check="url_password",
         bounded=False, priority=CONTEXT,
         shape=r"[\w.@\-]{1,64}[ \t]+(?:on|off|ON|OFF|reset|>|~|&|\+)"),
    rule("password", (), _GENERATED, value=("v",), check="url_password", bounded=False,
         priority=CONTEXT, case_triggers=("PASSWORD ",)),
    rule("private_key", ("<d>", "<p>", "<q>", "<dp>", "<dq>", "<inverseq>"), _RSA_PRIVATE,
         value=("v",), bounded=False, case_triggers=()),
    rule("password", tuple(f"{v}{w}(" for v in ("change", "reset", "set", "update", "rotate")
                           for w in ("password", "passwd", "secret", "token", "credential",
                                     "credentials", "_password", "_secret", "_token")),
         _SETS_CALL, check="new_value", bounded=False, priority=CONTEXT),
    rule("password", (), r"[A-Za-z0-9+/]{4,64}", check="b64_credential", bounded=False,
         priority=CONTEXT, case_triggers=_B64_FRAGMENTS),
    rule("password", tuple(k.decode() for k in _POSITIONS), _LINE_WORDS.decode(),
         check="positional", bounded=False, priority=CONTEXT),
    rule("session_cookie", ("?sid=", "&sid=", ";sid=", "?session=", "&session=", "?sessionid=",
                           "&sessionid=", "?session_id=", "&session_id=", "?auth=", "&auth=",
                           "?authtoken=", "&authtoken=", "?auth_token=", "&auth_token=",
                           "?jwt=", "&jwt="),
         _QUERY, value=("v",), check="url_password", bounded=False),
)
