"""Credentials known by their place in code and in listings: a call named for one with a
literal (``.password("…")``, ``setPassword("…")``), a credential name assigned a call
that wraps a literal (``let password = String::from("…")``, ``os.getenv("T", "…")``), a
sibling that names what a ``value`` is (``{"name": "API_KEY", "value": …}``), a
Terraform variable's default, and positional passwords of a few CLIs."""

from __future__ import annotations

import re

from toolpipe.secrets._lines import headed_then
from toolpipe.secrets._rule import CONTEXT, VALUE, VALUE_GROUPS, Rule, rule
from toolpipe.secrets._values import (
    CHECKS as VALUE_CHECKS,
)
from toolpipe.secrets._values import (
    Check,
    credential_like,
    key_value,
    line_start,
    plain_word,
    url_password,
)

_CREDENTIAL = r"(?:password|passwd|passphrase|secret|token|api[_\-]?key|access[_\-]?key|" \
              r"auth[_\-]?token|private[_\-]?key|credentials?)"
_LITERAL = r"""(?P<q>['"])(?P<v>[^'"\n]{1,256})(?P=q)"""

CODE_RULES: tuple[Rule, ...] = (
    # a call named for a credential, given a literal: .password("…"), setApiKey('…')
    rule("password", ("password(", "passwd(", "passphrase(", "secret(", "token(", "apikey(",
                      "api_key(", "accesskey(", "access_key(", "credentials("),
         rf"""(?i:{_CREDENTIAL})\([ \t]*{_LITERAL}[ \t]*\)""",
         value=("v",), check="call_literal", bounded=False),
    # a credential's name given a call that wraps a literal: String::from("…"), Some("…"),
    # SecretStr("…"), os.getenv("NAME", "…"), env("NAME", default="…")
    rule("password", ("password", "passwd", "secret", "token", "api_key", "apikey"),
         rf"""(?i:{_CREDENTIAL})\w{{0,24}}["']?[ \t]*(?::[ \t]*[\w<>:&]{{1,40}}[ \t]*)?"""
         r"""(?::=|=|:)[ \t]*(?:new[ \t]+)?[A-Za-z_][\w.:<>]{0,64}\([ \t]*"""
         r"""(?:['"][A-Za-z_][A-Za-z0-9_]{0,64}['"][ \t]*,[ \t]*(?:default[ \t]*=[ \t]*)?)?"""
         + _LITERAL + r"""[ \t]*[,)]""",
         value=("v",), check="call_literal", bounded=False,
         shape=r"""\w{0,24}["']?[ \t]*[:=]"""),
    # a credential's name, a type between it and its literal: VB's `Dim pwd As String =`,
    # Ada's `Password : constant String :=`, Zig's `password: []const u8 =`, BASIC's `pwd$ =`
    rule("password", ("password", "passwd", "passphrase", "secret", "token", "api_key",
                      "apikey", "pwd"),
         rf"""(?i:{_CREDENTIAL}|pwd)\w{{0,24}}(?:[ \t]+(?i:as)[ \t]+[\w.]{{1,40}}|[ \t]*:[ \t]*"""
         r"""(?:constant[ \t]+[\w.]{1,40}|\[\][\w\[\] ]{1,40}?)|\$)[ \t]*:?=[ \t]*""" + _LITERAL,
         # (the regex no wider than the shape: a place another rule's trigger finds is
         # tried by every rule of its word)
         value=("v",), check="call_literal", bounded=False,
         shape=r"""\w*(?:[ \t]+(?i:as)[ \t]|[ \t]*:[ \t]*(?:constant[ \t]|\[\])|\$[ \t]*=)"""),
    # pytest's explanation of an assertion: `where 'VALUE' = <Settings>.password` (the
    # value an expression named for a credential gave)
    rule("password", ("where '", 'where "'),
         r"""where[ \t]+(?P<q>['"])(?P<v>[^'"\n]{4,256})(?P=q)[ \t]*=[ \t]*[^\n]{0,200}?"""
         rf"""[.\[]["']?\w{{0,32}}(?i:{_CREDENTIAL}|pwd)\w{{0,32}}["']?\]?(?:\(\))?"""
         r"""[ \t]*(?=\r?\n|$)""",
         value=("v",), check="call_literal", bounded=True),
    # a credential's name and its value as two members: {"name": "API_KEY", "value": "…"}
    # (Kubernetes env, ECS task definitions, app settings)
    # (and XML's <add key="ApiSecret" value="…" />, .NET's appSettings)
    # (and the CLIs' shorthand, `Key=DBPassword,Value=…`, CloudFormation's ParameterKey and
    # ParameterValue, an option's or a setting's value)
    rule("password", ('"value"', "'value'", " value:", "\tvalue:", "\nvalue:", " value=",
                      "\tvalue=", " value =", "\tvalue =", ",value=",  # (HCL's `value = "…"`)
                      " value  ",  # (aligned by `terraform fmt`: `value     = "…"`)
                      "parametervalue", "optionvalue", "settingvalue",
                      '"defaultvalue"',  # (ARM's parameter's default, a JSON member)
                      " content=", "\tcontent=",  # (HTML's <meta name="…" content="…">)
                      # (a table's rows: | Name | … |⏎| Value | … |, or drawn with │)
                      " value |", " value\t|", " value │", " value\t│"),
         rf"""(?:[\s"',]|(?i:parameter|option|setting)|"(?i:default))(?i:value|content)"""
         rf"""(?P<close>["']?)"""
         rf"""(?P<sep>[ \t]*(?:[:=|]|│)[ \t]*){VALUE}""",
         value=VALUE_GROUPS, check="named_value", bounded=False,
         shape=r"""["']?[ \t]*:?[ \t]*["']?[0-9]*[^\s"'{\[$<0-9]"""),
    # a credential's fallback after a lookup: System.getenv("X") ?: "…" (Kotlin, Groovy),
    # process.env.X || "…", ENV["X"] ?? "…", os.environ.get("X") or "…"
    rule("password", ("password", "passwd", "secret", "token", "api_key", "apikey"),
         rf"""(?i:{_CREDENTIAL})\w{{0,24}}["']?[ \t]*(?::=|=|:)[ \t]*[A-Za-z_$][\w.$]{{0,96}}"""
         r"""(?:\([^()\n]{0,128}\)|\[[^\[\]\n]{0,128}\])?[ \t]*(?:\?:|\|\||\?\?|[ \t]or)[ \t]*"""
         + _LITERAL, value=("v",), check="call_literal", bounded=False,
         # (tried only where a fallback follows on the line: each trigger judged costs)
         # (no bounded repetition here: the triggers' automaton grows with each)
         shape=r"""\w*["']?[ \t]*[:=][^\n]*?(?:\?:|\|\||\?\?|[ \t]or[ \t])"""),
    # a Terraform variable named for a credential: its default
    rule("password", ('variable "', "variable '"),
         r"""variable[ \t]+["'][^"'\n]{0,64}(?i:password|passwd|secret|token|api_?key|"""
         r"""access_?key|private_?key|credential)[^"'\n]{0,64}["'][ \t]*\{[^{}]{0,512}?"""
         r"""\bdefault[ \t]*=[ \t]*"(?P<v>[^"\n]{1,256})(?=")""",
         value=("v",), check="call_literal", bounded=False),
    # positional passwords: `mysqladmin … password NEW`, `rabbitmqctl add_user U PW`,
    # `change_password U PW`, `net use … /user:U PW`, `net user U PW`
    rule("password", ("mysqladmin", "rabbitmqctl", "net use", "net user", "wpa_passphrase"),
         r"""(?:mysqladmin\b[^\n|;&]{0,200}?[ \t](?i:password)"""
         r"""|wpa_passphrase[ \t]+(?:"[^"\n]{1,64}"|'[^'\n]{1,64}'|\S{1,64})"""  # SSID, PW
         r"""|rabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+\S{1,128}"""
         r"""|(?i:net)[ \t]+(?i:use)\b[^\n|;&]{0,200}?[ \t]/(?i:user):\S{1,128}"""
         r"""|(?i:net)[ \t]+(?i:user)[ \t]+(?!/)\S{1,128})[ \t]+"""
         # (a bare value ends at `<`: a shell's redirection, or the close of the element
         # that holds the command line, `<Data …>net use … PW</Data>`)
         r"""(?P<v>'[^'\n]{1,256}'|"[^"\n]{1,256}"|[^\s/'"*<][^\s<]{0,255})""",
         value=("v",), check="call_literal", bounded=False, priority=CONTEXT),
    # `net use [DEVICE] \\server\share PASSWORD [/user:…]`: the operand after the share
    # (the order Windows documents; inside `cmd /c "…"` or runas's quotes too)
    rule("password", ("net use",),
         r"""(?i:net)[ \t]+(?i:use)[ \t]+(?:[A-Za-z]:[ \t]+|\*[ \t]+)?\\\\[^\s"']+[ \t]+"""
         r"""(?P<v>[^\s/*'"<][^\s"<]{0,255})""",
         value=("v",), check="call_literal", bounded=False, priority=CONTEXT),
    # SQL Server's procedures that take a password by position: sp_addlinkedsrvlogin's fifth,
    # sp_addlogin's second, sp_password's first two (`EXEC sp_addlogin 'u', 'pw'`)
    rule("password", ("sp_addlinkedsrvlogin", "sp_addlogin", "sp_password",
                      "sp_addapprole", "sp_setapprole"),
         r"""(?i:sp_addlinkedsrvlogin(?:[ \t]+(?:@\w+[ \t]*=[ \t]*)?(?:N?'[^'\n]{0,256}'|NULL)"""
         r"""[ \t]*,){4}|sp_addlogin[ \t]+(?:@\w+[ \t]*=[ \t]*)?N?'[^'\n]{1,256}'[ \t]*,"""
         r"""|sp_password[ \t]+(?:(?:@\w+[ \t]*=[ \t]*)?(?:N?'[^'\n]{0,256}'|NULL)[ \t]*,)?"""
         r"""|sp_(?:add|set)approle[ \t]+(?:@\w+[ \t]*=[ \t]*)?N?'[^'\n]{1,256}'[ \t]*,)"""
         r"""[ \t]*(?:@\w+[ \t]*=[ \t]*)?N?'(?P<v>[^'\n]{1,256})'""",
         value=("v",), check="url_password", bounded=False, priority=CONTEXT),
    # a registry value named for a password set by `reg add … /v NAME … /d DATA` or
    # PowerShell's `Set-ItemProperty … -Name NAME -Value DATA`; and a .reg file's value
    # named so, as hex bytes (`"Password"=hex:a1,b2,…`: every byte, not the first)
    rule("password", ("reg add", "reg.exe add", "set-itemproperty", "new-itemproperty"),
         r"""(?i:reg(?:\.exe)?[ \t]+add\b[^\n|;&]{0,400}?[ \t]/v[ \t]+"?[\w.\- ]{0,48}"""
         r"""(?:password|passwd|pwd|pass|secret|token|key)[0-9]{0,2}"?(?=[ \t])[^\n|;&]{0,200}?"""
         r"""[ \t]/d[ \t]+"""
         r"""|(?:set|new)-itemproperty\b[^\n|;&]{0,400}?[ \t]-name[ \t]+["']?[\w.\-]{0,48}"""
         r"""(?:password|passwd|pwd|pass|secret|token|key)[0-9]{0,2}["']?(?=[ \t])"""
         r"""[^\n|;&]{0,200}?[ \t]-value[ \t]+)"""
         r"""(?P<v>"[^"\n]{1,256}"|'[^'\n]{1,256}'|[^\s"'/-][^\s]{0,255})""",
         value=("v",), check="registry_value", bounded=False, priority=CONTEXT),
    rule("password", ('password"=hex', 'pass"=hex', 'pwd"=hex', 'secret"=hex', 'key"=hex'),
         r"""(?i:password|pass|pwd|secret|key)"=hex(?:\([0-9a-f]\))?:"""
         r"""(?P<v>[0-9a-fA-F]{2}(?:,(?:\\\r?\n[ \t]*)?[0-9a-fA-F]{2}){0,4095})""",
         value=("v",), bounded=False, priority=CONTEXT),
    # a command substitution that prints a literal, in a credential's place: what it
    # prints is the value (`TOKEN=$(echo …)`, `export KEY="$(printf '%s' '…')"`)
    rule("password", ("$(echo ", "$(printf ", "$( echo ", "$( printf "),
         r"""\$\([ \t]*(?:echo|printf)(?:[ \t]+-[neE]{1,3})*(?:[ \t]+(?:'%s'|"%s"|%s))?"""
         r"""[ \t]+(?P<q>['"]?)(?P<v>[^\s'"()$`;|&]{4,512})(?P=q)[ \t]*\)""",
         value=("v",), check="printed_value", bounded=False, priority=CONTEXT),
    # and programs whose one job is to set or hash the password they are given (the place
    # says what it is, whatever its shape): `mosquitto_passwd -b FILE U PW`, `dscl .
    # -passwd /Users/U PW`, `openssl passwd [-6] PW`, `mkpasswd [-m M] PW`, `ipmitool user
    # set password ID PW` (a hash made of it still lets one try it)
    rule("password", ("mosquitto_passwd", "dscl", "openssl passwd", "mkpasswd", "ipmitool",
                      "vault login"),
         r"""(?:mosquitto_passwd\b[^\n|;&]{0,64}?[ \t]-b[ \t]+\S{1,256}[ \t]+\S{1,128}"""
         # `vault login [-method=token] TOKEN` (not `username=…`, an auth method's field)
         r"""|vault[ \t]+login(?:[ \t]+-\S{1,64}){0,4}(?=[ \t]+[^\s=-]{8,}(?:\s|$))"""
         r"""|dscl[ \t]+\S{1,128}[ \t]+-passwd[ \t]+\S{1,256}"""
         r"""|openssl[ \t]+passwd(?:[ \t]+-(?:salt|in)[ \t]+\S{1,128}"""
         r"""|[ \t]+-(?!(?:salt|in)(?:\s|$))\S{1,16}){0,4}(?=[ \t]+[^\s-])"""
         r"""|mkpasswd(?:[ \t]+-[mSRP][ \t]+\S{1,64}|[ \t]+--\S{1,32}"""
         r"""|[ \t]+-(?![mSRP](?:\s|$))\S{1,8}){0,4}(?=[ \t]+[^\s-])"""
         r"""|ipmitool\b[^\n|;&]{0,120}?[ \t]user[ \t]+set[ \t]+password[ \t]+\d{1,3})"""
         r"""[ \t]+(?P<v>'[^'\n]{1,256}'|"[^"\n]{1,256}"|[^\s'"<>|;&][^\s;&|]{0,255})""",
         value=("v",), check="url_password", bounded=False, priority=CONTEXT),
)


def registry_value(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                   ) -> str | None:
    """A registry value's data where its name says password: not a flag's number (`/t
    REG_DWORD /d 1`), not an address."""
    value = match.group("v").strip(b"'\"")
    if (value.isdigit() and len(value) < 6) or b"://" in value:
        return None
    return url_password(kind, match, buf, groups)


def call_literal(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                 ) -> str | None:
    """A literal in a credential's place in code: not a variable's name
    (``secret("DB_PASSWORD")``), a prompt (``getpass("Password: ")``), a path or a
    placeholder."""
    value = match.group("v").strip(b"'\"")
    if len(value) < 4 or plain_word(value) or b" " in value or b"/" in value or (
            re.fullmatch(rb"[A-Z][A-Z0-9_]*", value) is not None):
        return None
    if _NAMED_FOR_ONE.fullmatch(value) and _CREDENTIAL_NAME.search(value):
        return None  # a name that says what it names (`flag.String("api-key", …)`)
    return kind if credential_like(value) else None


_NAMED_FOR_ONE = re.compile(rb"[a-z][a-z.\-_]*")  # (small letters, and `.`, `-`, `_`)


# {"name": "API_KEY", "value": …}: the member before that names what the value is
_SIBLING = re.compile(
    rb"""(?i)["']?(?:name|key|property|contenttype)["']?[ \t]*(?:[:=|]|\xe2\x94\x82)[ \t]*["']?"""
    rb"""([A-Za-z0-9_.:\-/]{1,128})""")
# an entry of a secret store, by its id, ARN or name in the same object, whatever the
# secret is called (Azure Key Vault's https://NAME.vault.azure.net/secrets/…, a Secrets
# Manager ARN, Google's projects/…/secrets/…/versions/…): what `az keyvault secret show`
# and its kin print as its value
_STORE_ENTRY = re.compile(
    rb"(?i)vault\.azure\.net/secrets/|:secretsmanager:[^:]{0,32}:[0-9]{0,12}:secret:|"
    rb"/secrets/[^/]{1,128}/versions/")
_OWNER = re.compile(rb"""[ \t]*[:=][ \t]*["']?([A-Za-z0-9_.\-]{1,128})""")  # (reversed)
# a value marked secret beside it: Terraform's `sensitive = true`, SSM's SecureString
# (and Pulumi's secret signature, the member it marks a secret's value with)
_SENSITIVE = re.compile(rb"""(?i)["']?sensitive["']?[ \t]*[:=][ \t]*true\b|"""
                        rb"""["']?type["']?[ \t]*[:=][ \t]*["']?secure(?:string|object)\b|"""
                        rb"""["']4dabf18193072939515e22adb298388d["'][ \t]*:[ \t]*"""
                        rb"""["']1b47061264138c4ac30d75fd1eb44270["']""")
# the name ends with what it names (DB_PASSWORD, ApiSecret; not PasswordPolicy, TokenUrl)
_CREDENTIAL_NAME = re.compile(
    rb"(?i)(?:password|passwd|passphrase|pwd|secret|token|api[_\-]?key|credentials?|"
    rb"private[_\-]?key|access[_\-]?key|auth|signing[_\-]?key|encryption[_\-]?key|"
    rb"master[_\-]?key|(?:^|[_\-.])(?:pass|pw))"  # (SMTP_PASS, root_pw: the word whole)
    rb"(?:[_\-.]?(?:key|value|str|string|pem|der|b64|base64|hex))?$")


# a session cookie's name (a browser's export: {"name": "sessionid", "value": …})
_SESSION_NAME = re.compile(
    rb"(?i)(?:^|[_\-.])(?:session(?:[_\-.]?(?:id|token|key))?|sessid|sid|connect\.sid|"
    rb"phpsessid|jsessionid|remember[_\-]?(?:me|token))$")


def named_value(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                ) -> str | None:
    """A ``value`` member whose sibling ``name`` (or ``key``), just before it in the same
    object or list item, names a credential."""
    start = match.start()
    window = buf[max(0, start - 160):start]
    # the object or list item it is in (a label may stand for what held a brace: a second
    # reading looks no further back than the first)
    cut = max(window.rfind(b"{"), window.rfind(b"\n\n"), window.rfind(b"- name"),
              window.rfind(b"[REDACTED:"))
    # the rest of its object (or list item), for the members that come after it
    after = buf[match.end():match.end() + 160]
    after = after[:min((i for i in (after.find(b"}"), after.find(b"\n\n")) if i >= 0),
                       default=len(after))]
    if _SENSITIVE.search(window, max(0, cut)) or (b"ecure" in after and _SENSITIVE.search(
            after)):  # (SSM's Type after its Value: looked for only where `ecure` stands)
        return key_value(kind, match, buf, groups)  # {"sensitive": true, "value": …}
    if (b"secret" in window or b"secret" in after) and (
            _STORE_ENTRY.search(window, max(0, cut)) or _STORE_ENTRY.search(after)):
        return key_value(kind, match, buf, groups)  # a secret store's entry
    names = list(_SIBLING.finditer(window, max(0, cut)))
    if not names and cut >= 0 and window[cut:cut + 1] == b"{":
        # {"adminPassword": {"value": …}} (ARM's parameters): the member that holds it
        # (matched backwards from the brace: a search ending at it tried every place
        # before it, 24 µs a trigger on a text of `{"value": …}` objects)
        owner = _OWNER.match(window[max(0, cut - 160):cut][::-1])
        if owner is not None and _CREDENTIAL_NAME.search(owner.group(1)[::-1]):
            return key_value(kind, match, buf, groups)
    if b"cookie" in window.lower() and names:  # a cookie object: a session's value is the
        value = match.group(match.lastgroup or 0)  # login (`theme: dark` is a preference)
        return key_value(kind, match, buf, groups) if len(value.strip(b"'\"")) >= 16 else None
    if not names:  # {"value": …, "name": "DB_PASSWORD"}: members come in any order
        first = _SIBLING.search(after)  # (the first name, unless another value comes first)
        names = [first] if first is not None and b"value" not in after[:first.start()].lower(
            ) else []
    if not names or not (_CREDENTIAL_NAME.search(names[-1].group(1))
                         or _SESSION_NAME.search(names[-1].group(1))):
        return None
    if b"value" in window[names[-1].end():].lower():
        return None  # another value came between
    return key_value(kind, match, buf, groups)




_CHANGED_KEY = re.compile(  # the key ends with what it names (token_ttl names a duration)
    rb"(?i)(?:password|passwd|passphrase|secret|token|api[_\-]?key|private[_\-]?key|"
    rb"credentials?)(?:[_\-.]?(?:key|value|str|string))?[\"']?[ \t]*=[ \t]*\"[^\"\n]{0,256}$")


def _keyed_literal(key: re.Pattern[bytes], reach: int) -> Check:
    """A check that wants ``key`` to end where the match starts, on its line (which starts
    within ``reach`` bytes), then judges the literal as code's (``call_literal``)."""
    def check(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
              ) -> str | None:
        line = line_start(buf, match.start(), reach)
        if key.search(buf, line, match.start()) is None:
            return None
        return call_literal(kind, match, buf, groups)
    return check


# a change shown as ``key = "OLD" -> "NEW"`` (Terraform's plan): the new value, when the key
# on its line names a credential
changed_value = _keyed_literal(_CHANGED_KEY, 512)


# a credential's key, its separator and an opening quote, right before a `$(…)`
_PRINTED_KEY = re.compile(
    rb"(?i)(?:password|passwd|passphrase|pwd|secret|token|api[_\-]?key|private[_\-]?key|"
    rb"credentials?)[A-Za-z0-9_]{0,32}[\"']?[ \t]*[=:][ \t]*[\"']?$")
# ``TOKEN=$(echo …)``: the literal a command substitution prints, when the key it is given
# to on its line names a credential
printed_value = _keyed_literal(_PRINTED_KEY, 256)


_RELAY_HOST = re.compile(rb"\[[\w.-]{1,253}$")


def relay(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
          ) -> str | None:
    """Postfix's sasl_passwd: ``[host]:port user:password``, the host in brackets first on
    its line."""
    line = line_start(buf, match.start(), 300)
    if headed_then(buf, line, match.start(), _RELAY_HOST) is None:  # (or after a head)
        return None
    value = match.group("v")
    if len(value) >= 8 and not plain_word(value) and b"/" not in value:
        return kind  # its place says so, whatever its letters (Gmail's 16 lower-case ones)
    return call_literal(kind, match, buf, groups)


# registered with the others (the scanner reads one table)
VALUE_CHECKS.update({"call_literal": call_literal, "named_value": named_value,
                     "changed_value": changed_value, "relay": relay,
                     "printed_value": printed_value,
                     "registry_value": registry_value})
