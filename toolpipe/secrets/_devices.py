"""Credentials in the settings of network devices and daemons, where the key is seldom
"password", and in files where only the file's name says what a line holds.

- A router's or switch's configuration (Cisco IOS and the many that copy its syntax): a
  credential keyword (``password``, ``secret``, ``key``, ``key-string``, ``community``,
  ``authentication-key``, ``pre-shared-key``, ``wpa-psk ascii``), an optional encryption
  type digit (``0``, ``5``, ``7``), then the value: ``username admin password 0 …``,
  ``tacacs-server key …``, ``snmp-server community … RO``. Each alone on its line.
- Daemons: snmpd's communities and users (``rocommunity …``, ``com2sec NAME SRC …``,
  ``createUser U SHA "…" AES "…"``), HAProxy's ``insecure-password``, Redis Sentinel's
  ``auth-pass MASTER …``, strongSwan's ``: EAP "…"`` and ``: XAUTH "…"`` (its ``: PSK``
  is a key word of its own).
- A Wi-Fi key in a router's or a desktop's own format: OpenWrt's UCI (``option key '…'``,
  ``uci set wireless.….key='…'``), Windows' WLAN profile (``<keyMaterial>``).
- Protocol transcripts: IMAP's ``TAG LOGIN user password``, Redis' and SMTP's ``AUTH``
  at a prompt.
- Files known by name: pgbouncer's userlist (``"user" "password"`` alone on a line, a
  password or its SCRAM verifier), ppp's chap-secrets and pap-secrets (``client server
  secret addresses``, the server ``*`` or a daemon's name), exim's passwd.client for a
  wildcard host (``*.example.com:user:password``); a SCRAM verifier wherever it stands.
"""

from __future__ import annotations

import re

from toolpipe.secrets._lines import headed_then
from toolpipe.secrets._rule import CONTEXT, Rule, rule
from toolpipe.secrets._several import SEVERAL, could_be_credential
from toolpipe.secrets._values import (
    CHECKS,
    Check,
    _value,
    credential_like,
    line_start,
    plain_word,
    token_shaped,
    url_password,
)

_TYPE = r"(?:[0-9][ \t]+)?"  # an encryption type before the value: 0 (clear), 7, 5…
_VAL = r"""(?:"(?P<dq>[^"\n]{1,256})"|(?P<bare>[^\s"(<{$][^\s"]{0,255}))"""  # not a note, ${X}
_GROUPS = ("dq", "bare")

# snmpd's `createUser [-e ENGINE] NAME MD5|SHA… ` before the user's authentication key
_CREATE = r"(?i:createUser)[ \t]+(?:-e[ \t]+\S{1,64}[ \t]+)?\S{1,64}[ \t]+(?i:MD5|SHA\S{0,8})[ \t]+"

# radtest's two secrets, by position: USER PASSWORD SERVER[:PORT] NAS-PORT SECRET
_RADTEST = (r"radtest[ \t]+(?:-[tP][ \t]+\S{1,16}[ \t]+|-[x46][ \t]+)*[^\s-]\S{0,127}[ \t]+"
            r"(?P<v>[^\s]{1,256})[ \t]+\S{1,256}[ \t]+\S{1,16}[ \t]+(?P<s>[^\s]{1,256})")

# Each alternative starts at its own trigger (a word the line starts with).
_DEVICE = (
    r"(?i:username[ \t]+\S{1,64}(?:[ \t]+privilege[ \t]+[0-9]{1,2})?"
    r"(?:[ \t]+algorithm-type[ \t]+\S{1,16})?[ \t]+(?:password|secret)"
    r"|enable[ \t]+(?:password|secret)(?:[ \t]+level[ \t]+[0-9]{1,2})?"
    r"|(?:tacacs|radius)(?:-server)?[ \t]+"
    r"(?:(?:host[ \t]+)?\S{1,128}[ \t]+(?:\S{1,32}[ \t]+){0,6}?)?(?:key|secret)"
    r"|snmp-server[ \t]+community|key-string|wpa-psk[ \t]+(?:ascii|hex)"
    r"|ppp[ \t]+(?:chap|pap)[ \t]+(?:sent-username[ \t]+\S{1,64}[ \t]+)?password"
    r"|(?:ip[ \t]+ospf[ \t]+|ntp[ \t]+)?authentication-key(?:[ \t]+[0-9]{1,5}[ \t]+md5)?"
    r"|(?:ip[ \t]+ospf[ \t]+)?message-digest-key[ \t]+[0-9]{1,3}[ \t]+md5"
    r"|authentication[ \t]+md5[ \t]+[0-9]{1,3}[ \t]+key"
    r"|crypto[ \t]+isakmp[ \t]+key"
    r"|pre-shared-key(?:[ \t]+(?:local|remote|ascii-text|hexadecimal))?"
    r"|neighbor[ \t]+\S{1,64}[ \t]+password)"
    rf"[ \t]+{_TYPE}{_VAL}"
)
_DEVICE_TRIGGERS = ("username ", "enable password", "enable secret", "tacacs", "radius",
                    "ip ospf", "ntp authentication-key",
                    "snmp-server community", "key-string", "wpa-psk", "ppp chap", "ppp pap",
                    "authentication-key", "message-digest-key", "crypto isakmp key",
                    "authentication md5",
                    "pre-shared-key", "neighbor ")

# (the rules' checks are at the end: most want only what `_led_by` names before them)
def wifi_key(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
             ) -> str | None:
    """A Wi-Fi key (WPA's passphrase: 8 characters or more) where a name says so: a value
    a credential could be, not a word (`option key 'auto'`, `sort.key=name`)."""
    value = _value(match, groups)[0].strip(b"'\"")
    if len(value) < 8 or url_password(kind, match, buf, groups) is None:
        return None
    return kind if credential_like(value) else None


CHECKS["wifi_key"] = wifi_key


DEVICE_RULES: tuple[Rule, ...] = (
    # a Wi-Fi key in a router's or a desktop's own format: OpenWrt's UCI (`option key 'PSK'`,
    # `uci set wireless.@wifi-iface[0].key='PSK'`), Windows' WLAN profile (`<keyMaterial>`)
    # (a password's own name is read by the key rules: these are the names they do not read)
    rule("password", ("option key ", "option key\t", "option psk ", "option auth_secret ",
                      "option acct_secret "),
         r"option[ \t]+(?:key|psk|auth_secret|acct_secret)[ \t]+['\"]?"
         r"(?!ENC\(|encrypted:|vault:)(?P<v>[^'\"\s]{4,128})", value=("v",),
         check="wifi_key", bounded=False),
    rule("password", (".key=", ".psk="),
         r"\.(?:key|psk)=['\"]?(?!ENC\(|encrypted:|vault:)(?P<v>[^'\"\s;&|]{4,128})",
         value=("v",), check="wifi_key", bounded=False),
    rule("password", "<keymaterial>", r"<(?i:keyMaterial)>(?P<v>[^<\s][^<\n]{3,127})<",
         value=("v",), check="wifi_key", bounded=False),
    rule("password", _DEVICE_TRIGGERS, _DEVICE, value=_GROUPS, check="alone_on_line",
         priority=CONTEXT),
    # a line's own password with its type (`password 7 …` under `line vty 0 4`)
    rule("password", ("password",), rf"password[ \t]+[0-9][ \t]+{_VAL}", value=_GROUPS,
         check="alone_on_line", priority=CONTEXT, shape=r"[ \t]+[0-9][ \t]"),
    # snmpd.conf: a community after its directive, com2sec's third word, a user's keys
    rule("password", ("rocommunity", "rwcommunity", "com2sec"),
         r"(?i:(?:ro|rw)community6?|com2sec6?[ \t]+\S{1,64}[ \t]+\S{1,128})[ \t]+"
         + _VAL, value=_GROUPS, check="alone_on_line", priority=CONTEXT),
    rule("password", ("createuser ",), _CREATE + _VAL, value=_GROUPS, check="alone_on_line",
         priority=CONTEXT),
    rule("password", ("des ", "aes"), r"(?i:DES|AES\S{0,8})[ \t]+" + _VAL, value=_GROUPS,
         check="snmp_privacy", priority=CONTEXT),
    # HAProxy's userlist: `user NAME insecure-password …`
    rule("password", ("insecure-password",), r"(?i:insecure-password)[ \t]+" + _VAL,
         value=_GROUPS, check="stored_value", priority=CONTEXT),
    # Redis Sentinel: the master's name, then its password
    rule("password", ("sentinel auth-pass",),
         r"(?i:sentinel[ \t]+auth-pass)[ \t]+\S{1,128}[ \t]+" + _VAL, value=_GROUPS,
         check="alone_on_line", priority=CONTEXT),
    # strongSwan's ipsec.secrets: `[selectors] : EAP "secret"` (and XAUTH, NTLM, PIN)
    rule("password", (": eap", ": xauth", ": ntlm", ": pin", ":eap", ":xauth"),
         r":[ \t]*(?:EAP|XAUTH|NTLM|PIN)[ \t]+" + _VAL, value=_GROUPS, check="stored_value",
         bounded=False, priority=CONTEXT),
    # a password hash as a database stores it: MySQL's '*' and 40 hex digits in a quoted
    # value, PostgreSQL's md5 and 32 (a hash is a password to whoever can try words)
    rule("password", ("'*", '"*', " *", "\t*"), r"""[ \t'"]\*(?P<v>[0-9A-F]{40})(?![0-9A-Za-z])""",
         value=("v",), bounded=False, priority=CONTEXT, shape=r"[0-9A-F]{40}(?:[^0-9A-Za-z]|$)"),
    rule("password", ("md5",), r"md5(?P<v>[0-9a-f]{32})(?![0-9A-Za-z])", value=("v",),
         priority=CONTEXT, shape=r"[0-9a-f]{32}"),
    # a wallet's keypair as Solana's CLI writes it: a JSON array of 64 bytes
    rule("wallet_key", (), r"\[(?:[ \t]*[0-9]{1,3}[ \t]*,){63}[ \t]*[0-9]{1,3}[ \t]*\]",
         check="bytes_array", bounded=False, priority=CONTEXT,
         case_triggers=(r"\[[0-9]{1,3},[0-9]{1,3},[0-9]{1,3},[0-9]{1,3},",)),
    # protocol transcripts: IMAP's `TAG LOGIN user password`, Redis' `AUTH [user] password`
    # (at a prompt or a line's start; SMTP's `AUTH PLAIN <base64>` too)
    rule("password", (), r"""LOGIN[ \t]+(?:"[^"\n]{1,128}"|[^\s"]{1,128})[ \t]+"""
         r"""(?:"(?P<dq>[^"\n]{1,256})"|(?P<bare>[^\s"]{1,256}))[ \t]*(?:\r?\n|$)""",
         value=_GROUPS, check="after_tag", bounded=False, priority=CONTEXT,
         case_triggers=("LOGIN ",)),
    # (and in a buffer a trace prints, its line end escaped: strace's `"AUTH …\r\n"`)
    rule("password", (), r"""AUTH[ \t]+(?:[^\s"\\]{1,64}[ \t]+)?(?!"""
         r"""(?:PLAIN|LOGIN|CRAM-MD5|DIGEST-MD5|XOAUTH2?|OAUTHBEARER|GSSAPI|EXTERNAL"""
         r"""|ANONYMOUS|NTLM|SCRAM-[\w-]+)[ \t]*(?:\r?\n|$|\\r|\\n|"))(?P<bare>[^\s"\\]{4,256})"""
         r"""[ \t]*(?:\r?\n|$|\\r\\n|\\n|")""",
         value=("bare",), check="at_prompt", bounded=False, priority=CONTEXT,
         case_triggers=("AUTH ",)),
    # IRC's `OPER name password` (a line's start, or after a prompt); a SASL PLAIN payload
    # in an XMPP stream (`<auth … mechanism="PLAIN">base64 of user and password</auth>`)
    rule("password", (),
         r"""OPER[ \t]+[^\s"]{1,64}[ \t]+(?P<bare>[^\s"]{4,256})[ \t]*(?:\r?\n|$)""",
         value=("bare",), check="at_prompt", bounded=False, priority=CONTEXT,
         case_triggers=("OPER ",)),
    rule("password", ('mechanism="plain"', "mechanism='plain'"),
         r"""(?i:mechanism)=["'](?i:plain)["'][^>\n]{0,128}>(?P<v>[A-Za-z0-9+/]{8,1024}={0,2})<""",
         value=("v",), bounded=False, priority=CONTEXT),
    # a data store's monitor, each word of a command quoted (Redis' MONITOR: `"AUTH"
    # "user" "pw"`, and HELLO's AUTH): the last word is the password
    rule("password", ('"auth" "',),
         r""""(?i:auth)"[ \t]+(?:"[^"\n]{1,128}"[ \t]+)?"(?P<dq>[^"\n]{4,256})"[ \t]*(?:\r?\n|$)""",
         value=("dq",), check="placed_value", bounded=False, priority=CONTEXT),
    # SMTP's AUTH LOGIN: the client's answer to the server's `334 UGFzc3dvcmQ6` (base64 of
    # "Password:") is the password in base64, on the next line (a transcript's `C: ` first)
    rule("password", ("334 ugfzc3dvcmq6", "334 cgfzc3dvcmq6"),
         r"334[ \t]+(?:UGFzc3dvcmQ6|cGFzc3dvcmQ6)[ \t]*\r?\n(?:[A-Z]{1,2}:[ \t]*|>>>?[ \t]*"
         r"|[ \t]*)(?P<bare>[A-Za-z0-9+/]{4,512}={0,2})[ \t]*(?:\r?\n|$)",
         value=("bare",), bounded=False, priority=CONTEXT),
    # a daemon's shared secret under the bare name `key`, a setting alone on its line
    # (tac_plus' `key = …`, keepalived's and many more): only a value no name or word is
    # (`key = user_settings`, `key = os.environ[…]` in code are left), found from the
    # line's start: `key =` inside `api_key =` is the key rules'
    # (and a diff's line: `+key = …`, `-key = …`)
    rule("password", tuple(f"\n{d}{i}key{s}" for d in ("", "+", "-") for i in ("", "\t", "  ",
                                                                             "    ")
                           for s in (" =", "=", ":", " :")),
         r"""\n?[+\-]?[ \t]*key[ \t]*[=:][ \t]*(?P<q>["']?)(?P<v>[A-Za-z0-9+/_\-]{12,256})(?P=q)"""
         r"""[ \t]*(?:[#;][^\n]*)?(?:\r?\n|$)""",
         value=("v",), check="bare_key", bounded=False, priority=CONTEXT,
         case_triggers=(r"\A[+\-]?[ \t]*key[ \t]*[=:]",)),
    # RADIUS test clients: `radtest USER PASSWORD SERVER[:PORT] NAS-PORT SECRET` (both by
    # position) and `radclient SERVER[:PORT] TYPE SECRET`
    rule("password", ("radtest ",), _RADTEST, value=("v", "s"), check="radtest",
         bounded=False, priority=CONTEXT),
    rule("password", ("radclient ",),
         r"radclient[ \t]+(?:-\S{1,8}(?:[ \t]+[^\s-]\S{0,127})?[ \t]+)*?[^\s-]\S{0,255}[ \t]+"
         r"(?i:auth|acct|status|coa|disconnect|auto)[ \t]+(?P<v>[^\s]{1,256})",
         value=("v",), check="url_password", bounded=False, priority=CONTEXT),
    # a Wi-Fi network's QR string: WIFI:T:WPA;S:ssid;P:password;; (fields in any order,
    # `\;` an escaped separator)
    rule("password", ("wifi:",),
         r"""WIFI:(?:[A-Za-z]:(?:[^;\\\n]|\\.){0,64};){0,6}?P:(?P<v>(?:[^;\\\n]|\\.){1,64})(?=;)""",
         value=("v",), check="url_password", bounded=False, priority=CONTEXT),
    # IRC's NickServ: IDENTIFY [account] password, REGISTER password email
    rule("password", ("nickserv",),
         r"""(?i:nickserv)[ \t]+:?(?:(?i:identify|login)[ \t]+(?:[^\s:]{1,64}[ \t]+)?"""
         r"""|(?i:register)[ \t]+)(?P<v>[^\s]{1,128})(?=\s|$)""",
         value=("v",), check="url_password", bounded=False, priority=CONTEXT),
    # ADO.NET's value in braces (a password holding `;` or `=`): Password={…};
    rule("password", ("password={", "pwd={", "password ={", "pwd ={"),
         r"""(?i:password|pwd)[ \t]*=[ \t]*\{(?P<v>(?:[^{}\n]|\}\}){1,256})\}"""
         r"""(?=[ \t]*(?:;|$|["'\s]))""",
         value=("v",), check="braced_value", bounded=False, priority=CONTEXT),
    # (recovery codes under their label: secrets/_codes.py, each code its own span)
    # a SCRAM verifier: SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>
    rule("password", ("scram-sha-",),
         r"SCRAM-SHA-(?:1|256|512)\$[0-9]{1,7}:[A-Za-z0-9+/=]{4,128}\$[A-Za-z0-9+/=]{8,256}"
         r":[A-Za-z0-9+/=]{8,256}", bounded=False, priority=CONTEXT),
    # pgbouncer's userlist: "user" "password", a line of its own (found from the line's
    # start: `" "` is in every web server's log line)
    rule("password", ('\n"',), r'\n?"[\w.@$\-]{1,64}"[ \t]+"(?P<v>[^"\n]{1,512})"[ \t]*(?:\r?\n|$)',
         value=("v",), check="stored_value", bounded=False, priority=CONTEXT,
         case_triggers=(r'\A"',)),
    # ppp's chap-secrets: client server secret addresses (the server `*`, or a daemon)
    rule("password", (" *", "\t*", " pptpd", "\tpptpd", " l2tpd", "\tl2tpd", " xl2tpd",
                      "\txl2tpd"),
         r"""[ \t](?:\*|x?l2tpd|pptpd)[ \t]+"""
         r"""(?:"(?P<dq>[^"\n]{1,256})"|(?P<bare>[^\s"*]{1,256}))[ \t]+"""
         r"""(?:\*|-|[0-9][0-9a-fA-F.:/,]{0,64}|"[^"\n]{0,64}")[ \t]*(?:\r?\n|$)""",
         value=_GROUPS, check="chap_line", bounded=False, priority=CONTEXT),
    # exim's passwd.client for every host of a domain: *.example.com:user:password
    rule("password", ("*.",),
         r"\*\.[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63}){1,8}:[^\s:]{1,128}:"
         r"(?P<v>\S{1,256})[ \t]*(?:\r?\n|$)", value=("v",), check="placed_value",
         bounded=False, priority=CONTEXT),
)


# the same line up to its privacy key (after the authentication key)
_CREATE_USER = re.compile(
    (r"[ \t]*" + _CREATE + r"""(?:"[^"\n]{1,256}"|[^\s"]{1,256})[ \t]+""").encode())


def stored_value(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                 ) -> str | None:
    """A value where the format says a secret stands: any but a placeholder or a word that
    says none (a random token need not hold a digit), or SNMP's default communities."""
    value = _value(match, groups)[0]
    return kind if len(value) >= 4 and not plain_word(value) and b"[REDACTED:" not in (
        value) and value.lower() not in (b"public", b"private") else None


def placed_value(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                 ) -> str | None:
    """A value only a line's shape says is a secret: one that could be a credential."""
    value = _value(match, groups)[0]
    return kind if len(value) >= 4 and could_be_credential(value) else None


_TAG = re.compile(rb"[ \t]*[A-Za-z0-9.]{1,16}[ \t]*")
# at a line's start, after a prompt, or after a transcript's `C:` (the client's line)
_PROMPT = re.compile(rb"(?:[ \t]*|.{0,64}[>#$%][ \t]*|[ \t]*C:[ \t]*|.{0,64}\")")


def bytes_array(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                ) -> str | None:
    """64 numbers, each a byte: a key's, not a list of counts or ids."""
    numbers = [int(n) for n in re.findall(rb"[0-9]+", match.group(0))]
    return kind if all(n < 256 for n in numbers) and len(set(numbers)) > 16 else None


def _led_by(lead: re.Pattern[bytes], then: Check, reach: int = 256) -> Check:
    """A check that wants nothing before the match on its line but what ``lead`` matches
    (the line starting within ``reach`` bytes), then judges the value with ``then``."""
    def check(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
              ) -> str | None:
        start = match.start()
        line = line_start(buf, start, reach)
        if line and buf[line - 1:line] != b"\n":
            return None
        # the lead alone, or after a line's head (a log's header, a prompt, a comment)
        if headed_then(buf, line, start, lead) is None:
            return None
        return then(kind, match, buf, groups)
    return check


def braced_value(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                 ) -> str | None:
    """ADO.NET's braced password, not a format string's field (``Password={0}``,
    ``Password={password}``, ``{db_pass}``)."""
    value = match.group("v")
    if value.isdigit() or (re.fullmatch(rb"[A-Za-z_][A-Za-z0-9_.]*", value) and not (
            re.search(rb"[0-9]", value) and re.search(rb"[A-Z]", value))):
        return None
    return kind if not plain_word(value) else None


def _radtest(buf: bytes, start: int, found: re.Match[bytes], floor: int
             ) -> tuple[list[tuple[int, int]], int]:
    """radtest's password and shared secret, each judged as a flag's value is (a
    placeholder or a word that says none is left)."""
    return [found.span(group) for group in ("v", "s")
            if url_password("password", found, buf, (group,)) is not None], found.end()


SEVERAL["radtest"] = _radtest


def bare_key(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
             ) -> str | None:
    """A value under the bare name `key`: only one shaped as no word is (12 characters or
    more, digits or both cases, not a name made of words: ``token_shaped``)."""
    value = _value(match, groups)[0]
    if _NAMED.fullmatch(value):  # user_settings_v2, cache-key-2: a name, in lower case
        return None
    return kind if token_shaped(value) and could_be_credential(value) else None


_NAMED = re.compile(rb"[a-z0-9]+(?:[_\-.][a-z0-9]+)+")


CHECKS["bare_key"] = bare_key
CHECKS["braced_value"] = braced_value
CHECKS["bytes_array"] = bytes_array
CHECKS["stored_value"] = stored_value
CHECKS["placed_value"] = placed_value
# a setting's line: nothing but indentation before its keyword (a diff's `+` or `-` may
# lead it), or Junos' `set` and the hierarchy it names (`set protocols bgp group peers
# authentication-key …`)
CHECKS["alone_on_line"] = _led_by(
    re.compile(rb"[+\-]?[ \t]*(?:set[ \t]+(?:[^\s]{1,64}[ \t]+){1,12})?"), stored_value)
# ppp's `client * secret addresses`: one word (the client) before the server
CHECKS["chap_line"] = _led_by(re.compile(rb'[ \t]*(?:"[^"\n]{1,64}"|[^\s"]{1,64})[ \t]*'),
                              placed_value)
# snmpd's `createUser U SHA "auth" AES "privacy"`: the second key
CHECKS["snmp_privacy"] = _led_by(_CREATE_USER, stored_value, 512)
# IMAP's LOGIN after a tag; Redis' and SMTP's AUTH after a prompt
CHECKS["after_tag"] = _led_by(_TAG, placed_value)
CHECKS["at_prompt"] = _led_by(_PROMPT, placed_value)
