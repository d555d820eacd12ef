"""Credentials known by what is said around them rather than a key word of their own: a
vendor's key in an environment name (``STRIPE_KEY=…``, ``REDIS_AUTH=…``), a sentence that
gives one (``Your new API key is …``), ``user:password`` handed to an option named for both
(``CURLOPT_USERPWD``), the line a token-printing command prints, a ``-p`` after a ``-u`` on
any command line (``cqlsh -u cassandra -p …``), Samba's ``user%password``.
"""

from __future__ import annotations

import re

from toolpipe.secrets._addresses import ADDRESS_RULES
from toolpipe.secrets._codes import CODE_RULES
from toolpipe.secrets._printed import PRINTED_RULES, stored
from toolpipe.secrets._rule import CONTEXT, Rule, rule
from toolpipe.secrets._said import SAID_RULES
from toolpipe.secrets._several import SEVERAL
from toolpipe.secrets._values import (
    CHECKS,
    _value,
    credential_like,
    line_start,
    plain_word,
    sample,
    token_shaped,
    url_password,
)

# names that end in _KEY and hold no secret: a data structure's key, a public key
_NOT_SECRET_NAME = re.compile(
    rb"(?:PUBLIC|PUBLISHABLE|PUB|SORT|PRIMARY|PARTITION|CACHE|HASH|RANGE|FOREIGN|MAP|ROW|"
    rb"IDEMPOTENCY|DEDUP|GROUP|ROUTING|SHARD|LOOKUP|INDEX|SITE|ANON|CLIENT_ID|LICENSE_PUBLIC)"
    rb"_(?:KEY|AUTH)$|^(?:KEY|AUTH)$|(?:^|_)(?:USE|NO|ENABLE|DISABLE|SKIP|REQUIRE|BASIC)_AUTH$")
# keys made to be public (the rules' public zones name them, and the scan leaves a span
# that starts with one, whichever rule found it)
PUBLIC_PREFIXES = (b"pk_live_", b"pk_test_", b"sb_publishable_", b"phc_", b"pk-lf-")
_NAME_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_ENCODED = re.compile(rb"[A-Za-z0-9+/=_\-]{16,}")


def _key_shaped(value: bytes) -> bool:
    return not plain_word(value) and (token_shaped(value) or (
        _ENCODED.fullmatch(value) is not None and not value.isalpha()))


def vendor_name(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                ) -> str | None:
    """``STRIPE_KEY=…``, ``REDIS_AUTH=…``, ``set_var("STRIPE_KEY", "…")``: an upper-case
    name ending in ``_KEY`` or ``_AUTH`` (not a public or a data structure's key) given a
    value a word is not (token-shaped, or 16+ characters of an encoding)."""
    start = match.start()  # the _ of _KEY: the name is the capitals before it
    while start > 0 and buf[start - 1] in _NAME_CHARS:
        start -= 1
    name = buf[start:match.start("tail")]
    if not name[:1].isalpha() or _NOT_SECRET_NAME.search(name):
        return None
    if match.group("sep").strip().startswith(b",") and buf[start - 1:start] not in (b'"', b"'"):
        return None  # f(A_KEY, "x"): a quoted name only (os.Setenv("A_KEY", "…"))
    value = _value(match, groups)[0]
    if name.endswith(b"AUTH") and value.count(b"/") == 1:
        # USER/PASSWORD in one variable (NEO4J_AUTH=neo4j/PW)
        user, _, password = value.partition(b"/")
        value = password if user and credential_like(password) else value
    if b"," in value and name.endswith(b"KEYS"):  # a list of keys (APP_KEYS=k1,k2,k3)
        parts = value.split(b",")
        return kind if all(_key_shaped(p) for p in parts) else None
    if plain_word(value) or b"/" in value or b"[REDACTED:" in value:
        return None  # (a key made to be public, `pk_live_…`: left by the scan, whatever found it)
    if sample(value, 0, len(value)):
        return None  # sk_test_placeholder, your_api_key_here: a sample, not a key
    return kind if token_shaped(value) or (
        _ENCODED.fullmatch(value) and not value.isalpha()) else None


def shaped(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
           ) -> str | None:
    """A value that no word is (see ``token_shaped``): prose and printed output."""
    value = _value(match, groups)[0]
    return kind if token_shaped(value) and b"[REDACTED:" not in value else None


_PORTISH = re.compile(rb"[0-9:,.\-/]+")


def user_then_pass(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                   ) -> str | None:
    """``-p VALUE`` (or ``-P``) on a command line that names a user with ``-u``/``-U``
    before it (the rule's regex), whatever the program (cqlsh, cypher-shell, rabbitmqadmin,
    evil-winrm, ipmitool): the password by position. Ports, numbers, paths and words are not."""
    value = match.group("v").strip(b"'\"")
    if len(value) < 4 or _PORTISH.fullmatch(value) or b"/" in value or plain_word(value):
        return None
    if b"[REDACTED:" in value or (value.isalpha() and value.islower() and len(value) < 8):
        return None
    return kind



# CI systems' commands that set a named value (GitHub's `::set-output name=N::V`, Azure's
# `##vso[task.setvariable variable=N]V`, TeamCity's `##teamcity[setParameter name='N'
# value='V']`): the value, when the name is a credential's
_CREDENTIAL_NAME = re.compile(rb"(?i)pass|pwd|secret|token|key|credential|auth")


def line_of_three(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                  ) -> str | None:
    """``URL user password`` as a line of its own (davfs2's secrets), not a command's
    arguments: nothing but blanks before the address on its line."""
    start = match.start()
    line = line_start(buf, start, 256)
    if buf[line:start].strip(b" \t") or (line and buf[line - 1:line] != b"\n"):
        return None  # (or a line longer than 256 bytes before it)
    return stored(kind, match, buf, groups)


def ci_named(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
             ) -> str | None:
    name = next((match.group(g) for g in ("name", "name2", "name3")
                 if match.group(g) is not None), b"")
    if not _CREDENTIAL_NAME.search(name):
        return None
    return stored(kind, match, buf, groups)


_GROUPED_LABELS = tuple(
    f"{a}{sep}{b}" for a, b in (
        ("app", "password"), ("application", "password"), ("app-specific", "password"),
        ("application-specific", "password"), ("app specific", "password"),
        ("two-factor", "secret"), ("two-factor", "key"), ("two factor", "secret"),
        ("2fa", "secret"), ("2fa", "key"), ("mfa", "secret"), ("totp", "secret"),
        ("totp", "seed"), ("otp", "secret"), ("setup", "key"), ("secret", "key"),
        ("recovery", "key"), ("recovery", "password"))
    for sep in (" ", "-", "_"))
_PROSE_LABELS = ("mot de passe", "passwort", "kennwort", "contraseña", "contrasena", "senha",
                 "wachtwoord", "hasło", "haslo", "lösenord", "adgangskode", "passord",
                 "salasana", "parola", "пароль", "密码", "密碼", "パスワード", "비밀번호",
                 "암호")

# a Cookie or Set-Cookie header: every cookie whose value is a token (16 characters or
# more, no word), whatever its name (`_gh_sess=…`, `auth=…`); attributes are not cookies
_COOKIE_PAIR = re.compile(rb"[ \t]*(?P<name>[^=;\s]{1,64})=(?P<v>[^;\r\n]{0,4096})")
_ATTRIBUTES = frozenset({b"path", b"domain", b"expires", b"max-age", b"samesite", b"priority"})
_TRACKING = (b"_ga", b"_gid", b"_gat", b"__utm", b"_fbp", b"_gcl", b"_hj", b"ajs_", b"mp_")


def _cookie_header(buf: bytes, start: int, found: re.Match[bytes], floor: int
                   ) -> tuple[list[tuple[int, int]], int]:
    end = buf.find(b"\n", found.end())
    end = len(buf) if end < 0 else min(end, found.end() + 8192)
    out: list[tuple[int, int]] = []
    pos = found.end()
    while pos < end:
        m = _COOKIE_PAIR.match(buf, pos, end)
        if m is None:
            break
        value = m.group("v").strip().strip(b'"')
        name = m.group("name").lower()
        if (name not in _ATTRIBUTES and not name.startswith(_TRACKING) and len(value) >= 16
                and b"[REDACTED:" not in value and token_shaped(value)):
            out.append(m.span("v"))
        pos = m.end() + 1
    return out, end


SEVERAL["cookie_header"] = _cookie_header

NAMED_RULES: tuple[Rule, ...] = (
    *SAID_RULES,  # (a value before its label, a user / password pair: _said)
    *ADDRESS_RULES,  # (an address that is its own credential: _addresses)
    *CODE_RULES,  # (one-time codes under their heading: _codes)
    # an Authorization header's value with no scheme before it (`Authorization: <key>`, as
    # some APIs take a key): a token, whatever wraps it (a scheme's own rules read the rest)
    rule("authorization", "authorization",
         r"""(?i:authorization)(?:\\?["'`*]){0,3}[ \t]*(?:[:=|>]|=>|：|│|%3[ADad](?:%20)?"""
         r"""|\\u003[ADad]|&\#(?:58|61);)[ \t]*(?:[&!][\w!.:/-]{0,40}[ \t]+)?"""
         r"""(?:\\?["'`(\[*]){0,2}"""  # (a YAML anchor or tag first: `&a`, `!!str`)
         r"""(?P<v>[A-Za-z0-9\-._~+/]{16,4096}={0,2})(?![A-Za-z0-9\-._~+/=]|[ \t]+[A-Za-z0-9])""",
         value=("v",), check="shaped", bounded=False, priority=CONTEXT,
         shape=r"""(?:\\?["'`*]){0,3}[ \t]*(?:[:=|>]|=>|：|│|%3[ADad]|\\u003|&\#)"""),
    # an address without its scheme, as mount.cifs and smbclient take one (`//svc:PW@host/
    # share`): the password before the @ as in a URL (`://` is the URL rule's)
    rule("url_password", "//",
         r"""(?<![\w:/])//[^\s:/@"'<>\\\[\]]{1,128}:(?P<v>[^\s/"'<>\\\[\]]{1,256})@"""
         r"""(?=[A-Za-z0-9.\-_]+(?:[:/?#\s"']|$))""", value=("v",), check="url_password",
         bounded=False, shape=r"""[^\s:/@"'<>\\\[\]]+:[^\s@/"'<>\\\[\]]+@"""),
    # (case-sensitive triggers for _KEY: `sort_key=` in code is none; a class such as
    # [A-Z0-9] in the trigger union slowed its scan 5x)
    rule("api_key_kv", tuple(f"_auth{s}" for s in ("=", ":", " =", '"', "'", "]")),
         r"""_(?:KEYS?|AUTH)(?P<tail>["']?\]?)(?P<sep>[ \t]*[=:][ \t]*"""
         r"""|[ \t]*,[ \t]*)(?:"(?P<dq>[^"\n]{8,512})"|'(?P<sq>[^'\n]{8,512})'"""
         # (a list of keys: APP_KEYS=k1,k2)
         r"""|(?P<bare>(?:(?<=S=)|(?<=S= )|(?<=S=  )|(?<=S: ))"""
         r"""[^\s"'`,;<>(){}\[\]\\|&$%#*][^\s"'`;<>(){}\[\]\\|&]{7,2047}"""
         r"""|[^\s"'`,;<>(){}\[\]\\|&$%#*][^\s"'`,;<>(){}\[\]\\|&]{7,511}))""",
         value=("dq", "sq", "bare"), check="vendor_name", bounded=False, priority=CONTEXT,
         # (_AUTH by literals: a literal trigger at a place hides a fragment there, and
         # npmrc's `_auth` is one)
         case_triggers=tuple(f"_KEY{s}" for s in ("=", ":", " =", '"', "'", "]"))
         + tuple(f"_KEYS{s}" for s in ("=", ":", '"'))),
    rule("session_cookie", ("cookie:", "set-cookie:"), r"""(?i:set-)?(?i:cookie):[ \t]*""",
         check="cookie_header", bounded=False, priority=CONTEXT),
    # a sentence that gives one: "Your new API key is …", "the password for alice is …",
    # "Token generated: …"
    # ("A temporary password is generated for root@localhost: …": MySQL's log)
    rule("password", ("key is ", "key was ", "password for ", "password is ", "password was ",
                      "token is ", "token was ", "token generated", "token created",
                      "secret is ", "passphrase is ", "key generated", "key created",
                      "passwd is ", "pwd is ", "credentials are ", "credentials is ",
                      "password set to ", "password reset to ", "password changed to ",
                      "key is:", "password is:", "token is:", "secret is:", "passphrase is:"),
         r"""(?i:key|token|password|passphrase|secret|passwd|pwd|credentials)"""
         r"""(?:[ \t]+for[ \t]+\S{1,64})?[ \t]+(?:(?i:is|was)[ \t]+(?=(?i:generated|created)))?"""
         r"""(?i:is|are|was|generated|created|set[ \t]+to|reset[ \t]+to|changed[ \t]+to)"""
         r"""(?:[ \t]+(?i:for)[ \t]+\S{1,64}(?=:))?"""
         r"""[ \t]*:?[ \t]+["'`]?(?P<v>[A-Za-z0-9+/=_\-.!@#^*~]{7,255}[A-Za-z0-9+/=_\-!@#^*~])""",
         value=("v",), check="shaped", bounded=False, priority=CONTEXT),
    # the same in other languages: "le mot de passe est …", "das Passwort lautet …",
    # "パスワードは …"
    rule("password", _PROSE_LABELS,
         r"""(?i:""" + "|".join(_PROSE_LABELS) + r""")(?:[ \t]+(?i:est|lautet|ist|es|é|era"""
         r"""|jest|är|er|on|je|este|è|è:|is|was)|は|是|为|為|는|은)[ \t]*(?::|：)?[ \t]*"""
         # (alternatives, not a class: a class of bytes takes one byte of « or “ for it)
         r"""(?:["'`]|«|“|„|「)?(?P<v>[A-Za-z0-9+/=_\-.!@#^*~]{7,255}[A-Za-z0-9+/=_\-!@#^*~])""",
         value=("v",), check="shaped", bounded=False, priority=CONTEXT),
    # a prompt and what was typed after it, when a log or a transcript shows it:
    # `[sudo] password for alice: …`, `Password for 'https://…': …`, `Enter passphrase
    # (empty for no passphrase): …`; the value alone to the line's end
    rule("password", ("password for ", "passphrase for ", "pass phrase for ", "password (",
                      "passphrase (", "pin for "),
         r"""(?i:password|passphrase|pass phrase|pin)[ \t]+"""
         r"""(?:for[ \t]+[^\n]{1,100}?|\([^)\n]{0,60}\))"""
         r"""[ \t]*:[ \t]+(?P<v>\S{4,256})[ \t]*(?:\r?\n|$)""",
         value=("v",), check="stored", bounded=False, priority=CONTEXT),
    # a tool's setting `user = "name:password"` (curl's .curlrc, its --user in a file)
    rule("password", ("user =", "user=", 'user "', "proxy-user"),
         r"""(?i:proxy-user|user)[ \t]*=?[ \t]*["']?[^\s:"'@/=]{1,64}:"""
         r"""(?P<v>[^\s"']{4,256})["']?[ \t]*(?:\r?\n|$)""",
         value=("v",), check="stored", bounded=False, priority=CONTEXT),
    # a line of address, user and password (davfs2's secrets): the line starts with it
    rule("password", ("https://", "http://", "davs://", "dav://"),
         r"""(?:https?|davs?)://[^\s]{1,256}[ \t]+[^\s\-:/][^\s:/]{0,63}[ \t]+"""
         r"""(?P<v>[^\s/]{4,256})[ \t]*(?:\r?\n|$)""",
         value=("v",), check="line_of_three", bounded=False, priority=CONTEXT),
    # a password stored in the clear under its scheme (Dovecot's passwd-file: {PLAIN}pw)
    rule("password", ("{plain}", "{cleartext}", "{clear}"),
         # (not a template's `{{plain}}`: a value does not start with its brace)
         r"""\{(?i:plain|cleartext|clear)\}(?P<v>[^:\s}][^:\s]{0,255})""",
         value=("v",), check="url_password", bounded=False, priority=CONTEXT),
    # Windows' netsh: a Wi-Fi key given on the command line
    rule("password", ("netsh",),
         r"""(?i:netsh)[^\n|;&]{0,200}?[ \t](?i:key|keymaterial)=(?P<v>[^\s"']{1,256})""",
         value=("v",), check="url_password", bounded=False, priority=CONTEXT),
    # user:password handed to an option named for both (PHP's CURLOPT_USERPWD)
    rule("password", ("userpwd", "user_pwd", "userpass", "user_pass", "proxyuserpwd"),
         r"""(?i:(?:proxy)?user_?pwd|user_?pass)["']?\]?[ \t]*[,=:][ \t]*["'][^"':\s]{1,128}:"""
         r"""(?P<v>[^"'\n]{1,256})["']""",
         value=("v",), check="url_password", bounded=False, priority=CONTEXT),
    *PRINTED_RULES,  # (what a credential-printing command printed: _printed)
    rule("password", ("::set-output", "::save-state", "##vso[task.setvariable",
                      "##teamcity[setparameter"),
         r"""::(?:set-output|save-state)[ \t]+name=(?P<name>[^:\n]{1,64})::"""
         r"""(?P<v>[^\s"']{4,4096})"""
         r"""|##vso\[task\.setvariable[ \t]+variable=(?P<name2>[^;\]\n]{1,64})[^\]\n]*\]"""
         r"""(?P<v2>[^\s"']{4,4096})"""
         r"""|##teamcity\[setParameter[ \t]+name='(?P<name3>[^'\n]{1,64})'[ \t]+value='"""
         r"""(?P<v3>[^'\n]{4,4096})'""",
         value=("v", "v2", "v3"), check="ci_named", bounded=False, priority=CONTEXT),
    # an interactive session's echo of an expression that names a credential (a REPL's, a
    # debugger's, a console's): its value, alone on the next line, after the session's
    # mark for a result (`>>> os.environ["DB_PASSWORD"]` then `'…'`, IPython's `Out[4]:`,
    # irb's `=>`, gdb's `$1 =`, lldb's `(String) $R0 =`, psql's `\echo :name`, terraform
    # console's `> var.name`)
    rule("password", (">>> ", "(pdb)", "(gdb)", "(lldb)", "irb(", "pry(", "\\echo",
                      "> var.", "> local.", "> nonsensitive(", "> process.env."),
         r"""(?:>>>[ \t]+|In[ \t]\[\d{1,6}\]:[ \t]+|\((?i:pdb|gdb|lldb)\)[ \t]+"""
         r"""(?:(?:pp?|print|po|expr|call|x/s)[ \t]+)?|irb\([^)\n]{0,40}\)[:\d]{0,12}[>*][ \t]+"""
         r"""|pry\([^)\n]{0,40}\)>[ \t]+|\\echo[ \t]+:|>[ \t]+)(?P<name>[^\n]{1,200})\r?\n"""
         r"""(?:Out\[\d{1,6}\]:[ \t]*|=>[ \t]*|\$\w{1,8}[ \t]=[ \t]|\(\w[^)\n]{0,40}\)[ \t]"""
         r"""\$\w{1,8}[ \t]=[ \t])?(?:"(?P<dq>[^"\n]{4,4096})"|'(?P<sq>[^'\n]{4,4096})'"""
         r"""|(?P<bare>[^\s"'$(\[{<][^\s"']{3,4095}))[ \t]*(?:\r?\n|$)""",
         value=("dq", "sq", "bare"), check="ci_named", bounded=False, priority=CONTEXT,
         case_triggers=(r"In \[[0-9]",)),
    # a key's emoji as the label (`🔑 …`, `🔐: …`): the token after it
    rule("password", ("🔑", "🔐", "🗝"),
         r"""(?:🔑|🔐|🗝️?)[ \t]*:?[ \t]*(?P<v>[A-Za-z0-9+/=_\-.~]{12,4096})(?![^\s,;)])""",
         value=("v",), check="stored", bounded=False, priority=CONTEXT),
    # -p after -u on any command line (its own program's rows are in the shell table):
    # found from the -u, the rarer of the two in ordinary text
    rule("password", (" -u ", " -u'", ' -u"', " -u="),
         r"""[ \t]-[uU][ \t=]+["']?[^\s\-'"][^\s'"]{0,127}["']?[^\n|;&]{0,200}?"""
         r"""[ \t]-[pP](?:[ \t]+|(?=[^\s-]))(?P<v>'[^'\n]{1,256}'|"[^"\n]{1,256}"|"""
         r"""[^\s'"\-][^\s;|&]{0,255})""",
         value=("v",), check="user_then_pass", bounded=False, priority=CONTEXT),
    # a vault or disk opened with its password fed on the input (`<<< pw`, `echo pw |`)
    # (and a secret store given the secret to keep on the input: `wrangler secret put K <<<
    # v`, `gh secret set K`, `docker secret create k -`, `gcloud secrets create k --data-file=-`)
    rule("password", ("keepassxc-cli", "cryptsetup", "veracrypt", "bw unlock", "op signin",
                      "gocryptfs", "encfs", "zfs load-key", "vercel env add",
                      "wrangler secret put", "gh secret set", "pass insert", "gopass insert",
                      "secret-tool store", "keyring set", "docker secret create",
                      "podman secret create", "gcloud secrets", "fly secrets import",
                      "supabase secrets set", "doppler secrets set", "netlify env:set",
                      "railway variables"),
         r"(?i:keepassxc-cli|cryptsetup|veracrypt|bw[ \t]+unlock|op[ \t]+signin|gocryptfs"
         r"|encfs|zfs[ \t]+load-key|vercel[ \t]+env[ \t]+add|wrangler[ \t]+secret[ \t]+put"
         r"|gh[ \t]+secret[ \t]+set|g?o?pass[ \t]+insert|secret-tool[ \t]+store"
         r"|keyring[ \t]+set|(?:docker|podman)[ \t]+secret[ \t]+create|gcloud[ \t]+secrets"
         r"|fly[ \t]+secrets[ \t]+import|(?:supabase|doppler)[ \t]+secrets[ \t]+set"
         r"|netlify[ \t]+env:set|railway[ \t]+variables)(?![\w-])", check="stdin_fed",
         bounded=False, priority=CONTEXT),
    # any client's `--user NAME:PASSWORD` (etcdctl, influx, couchbase's…), not a uid:gid
    # or a user:group (`docker run --user 1000:1000`, `--user app:staff`)
    rule("password", ("--user=", "--user "),
         r"""--user[ =]["']?(?P<u>[^\s:%'"$]{1,128}):(?P<v>[^\s'"]{1,256})""",
         value=("v",), check="user_colon", bounded=False, priority=CONTEXT),
    # a secret written in groups after its label: an app password (Google's `abcd efgh ijkl
    # mnop`, Apple's `abcd-efgh-ijkl-mnop`), a two-factor setup key in groups of base32, a
    # recovery key in groups of digits (BitLocker's eight of six); every group the same
    # length (`the secret key is stored in vault` is prose)
    rule("password", _GROUPED_LABELS,
         r"""(?i:app(?:lication)?(?:[-_ ]specific)?[-_ ]password|(?:two[-_ ]factor|2fa|mfa|totp"""
         r"""|otp)[-_ ](?:secret|key|seed)|setup[-_ ]key|secret[-_ ]key"""
         r"""|recovery[-_ ](?:key|password))"""
         r"""[^\n:=]{0,40}?(?:[ \t](?i:is)[ \t]+|[ \t]*[:=][ \t]*)["'`]?"""
         r"""(?P<v>[A-Za-z0-9]{4,8}(?:[ -][A-Za-z0-9]{4,8}){2,7})(?![A-Za-z0-9])""",
         value=("v",), check="grouped", bounded=False, priority=CONTEXT),
    # Samba's user%password: smbclient -U 'DOMAIN\user%pw', rpcclient -U user%pw
    # (and CIFS' mount option: `-o user=backup%pw,…`)
    rule("password", (" -u ", " -u'", ' -u"', "--user=", "--user ", "user=", "username="),
         r"""(?:[ \t]-U[ \t]*|--user(?:name)?[ =]|(?<=[ \t,])user(?:name)?=)["']?"""
         r"""[^\s%'",]{1,128}%"""
         r"""(?P<v>[^\s'",]{1,256})""",
         value=("v",), check="url_password", bounded=False, priority=CONTEXT),
)


def grouped(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
            ) -> str | None:
    """Groups of one length, one separator: a secret as it is shown to be typed."""
    value = match.group("v")
    separators = {c for c in value if c in b" -"}
    parts = re.split(rb"[ -]", value)
    return kind if len(separators) == 1 and len({len(p) for p in parts}) == 1 else None


def user_colon(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
               ) -> str | None:
    value = match.group("v").strip(b"'\"")
    if value.isdigit() or value == match.group("u") or value.startswith((b"$", b"%")) or (
            not credential_like(value)):
        return None  # a uid:gid, a user:group, a reference
    return url_password(kind, match, buf, groups)


CHECKS["grouped"] = grouped
CHECKS["user_colon"] = user_colon
CHECKS["vendor_name"] = vendor_name
CHECKS["shaped"] = shaped
CHECKS["user_then_pass"] = user_then_pass
CHECKS["line_of_three"] = line_of_three
CHECKS["ci_named"] = ci_named
