"""Credentials known by their position, not their shape: netrc, pgpass, redis.conf, SQL
password clauses, Oracle connect strings, the credential flags of common clients (from the
shell wing's table), the password argument of well-known client calls, YAML block
scalars under a secret-named key, base64 of ``user:pass`` under an auth key, presigned
URL signatures.
"""

from __future__ import annotations

import re

from toolpipe.secrets._argv import glued_flags
from toolpipe.secrets._calls import CALL_RULES
from toolpipe.secrets._calls import QUOTED as _QUOTED
from toolpipe.secrets._connect import CONNECT_RULES
from toolpipe.secrets._letters import wordy as _wordy
from toolpipe.secrets._rule import B64, CONTEXT, Rule, rule
from toolpipe.secrets._several import SEVERAL
from toolpipe.secrets._values import CHECKS, _value, url_password
from toolpipe.shell import CREDENTIALS, Credential

_PW = r"""(?P<v>'[^'\n]{1,256}'|"[^"\n]{1,256}"|[^\s'"\-][^\s]{0,255})"""  # a flag's value


def _flag_rule(row: Credential) -> Rule:
    """A credential option of a client: ``sshpass -p PW``, ``redis-cli -a PW``, ``docker
    login -p PW`` (a row of the shell wing's program table, ``[[credential]]``); every one
    on its command line (``openssl … -passin pass:A -passout pass:B``, ``snmpwalk -A … -X
    …``)."""
    names = "|".join(re.escape(p).replace(r"\ ", "[ \t]+")
                     for p in sorted(row.programs, key=len, reverse=True))
    options = "|".join(re.escape(f) + ("" if row.attached else "[ \t=]" if f.startswith("--")
                                       else "[ \t]+" if row.spaced else "[ \t]*")
                       for f in sorted(row.flags, key=len, reverse=True))
    value = (r"[^\s%'\"]{1,128}%(?P<v>[^\s'\"]{1,256})" if row.percent else
             r"[^\s,'\"]{1,128},(?P<v>[^\s'\"]{1,256})" if row.comma else
             r"['\"]?[^\s:'\"]{1,128}:(?P<v>[^\s'\"]{1,256})" if row.colon else _PW)
    # the option and its value glued inside one quoted word (`'-pPW'`, `"--password=PW"`)
    glued = "|".join(glued_flags(row))
    every = "|".join(re.escape(f) for f in row.flags)  # (`'-passin'`: an option, not -pass's)
    words = _GLUED_WORD.format(glued=glued, every=every) if glued and not (
        row.percent or row.comma or row.colon) else ""
    if not row.attached and _QUOTED_ALONE:
        options += _QUOTED_ALONE.format(flags="|".join(
            re.escape(f) for f in sorted(row.flags, key=len, reverse=True)))
    made = rule("password", row.programs,
                rf"(?:{names})[ \t][^\n|;&]{{0,200}}?(?<=[ \t])(?:(?:{options}){value}{words})",
                value=("v", "w"), check="flags", shape=r"[ \t]", priority=CONTEXT)
    _FOLLOWING[made.regex.pattern] = re.compile(
        rf"(?<=[ \t\n])(?:(?:{options}){value}{words})".encode())
    return made


_GLUED_WORD = r"""|(?P<q>['"])(?!(?:{every})['"])(?:{glued})(?P<w>[^\s'"]{{1,256}})(?P=q)"""
# the option quoted alone, its value the next word unless that is an option (`redis-cli
# "-a" "PW"`: a command line with every word quoted, as a process list or a unit shows)
_QUOTED_ALONE = r"""|(?P<o>['"])(?:{flags})(?P=o)[ \t]+(?!['"]?-)"""
_FOLLOWING: dict[bytes, re.Pattern[bytes]] = {}  # a flag rule's regex → one of its flags
_COMMAND_END = re.compile(rb"[|;&]|(?<!\\)(?<!\\\r)\n")  # (a continued line goes on)


def _flags(buf: bytes, start: int, found: re.Match[bytes], floor: int
           ) -> tuple[list[tuple[int, int]], int]:
    """Every credential option of the row on this command line, each value judged as one
    alone is (``url_password``)."""
    end = _COMMAND_END.search(buf, found.start(), found.start() + 4096)
    stop = end.start() if end is not None else min(len(buf), found.start() + 4096)
    judge = CHECKS["url_password"]
    return [m.span(g) for m in _FOLLOWING[found.re.pattern].finditer(buf, found.start(), stop)
            for g in ("v" if m.group("v") is not None else "w",)
            if b"[REDACTED:" not in m.group(g) and judge("password", m, buf, (g,))
            is not None and m.group(g).strip(b"'\"").lower() not in _DEFAULTS], stop


# SNMP's default communities (`snmpwalk -c public`): known to everyone, no secret
_DEFAULTS = frozenset({b"public", b"private"})


SEVERAL["flags"] = _flags  # (registered with the rules that find several at once)


CONTEXT_RULES: tuple[Rule, ...] = (
    rule("password", ("machine ", "default "),
         r"(?i:machine[ \t]+\S+|default)(?:\s+(?i:login|account|port|protocol)[ \t]+\S+)*"
         r"\s+(?i:password)[ \t]+(?P<v>\S{1,256})",
         value=("v",), check="url_password", shape=r"\S"),
    # host:port:database:user:password, a colon in the password escaped
    rule("password", (), r"(?P<lead>:(?:[0-9]{2,5}|\*):)[^\s:]{1,128}:[^\s:]{1,128}:"
         r"(?P<v>(?:[^\s:\\]|\\.){1,256})(?=\s|$)", value=("v",), check="pgpass",
         bounded=False,
         case_triggers=(r":(?:[0-9]{2,5}|\*):[^\s:]{1,128}:[^\s:]{1,128}:[^\s:]",)),
    rule("password", ("requirepass", "masterauth"),
         r"""(?i:requirepass|masterauth)[ \t]+(?P<v>"[^"\n]{1,256}"|\S{1,256})""",
         value=("v",), check="url_password", shape=r"[ \t]+\S"),
    # SQL: PASSWORD '…', IDENTIFIED [WITH plugin] BY […], SET PASSWORD [FOR u] = '…'
    rule("password", ("password '", 'password "'), rf"(?i:password)[ \t]+{_QUOTED}",
         value=("v",), check="sql"),
    rule("password", ("identified", "set password"),
         r"""(?i:identified(?:[ \t]+with[ \t]+[A-Za-z0-9_]{1,64})?[ \t]+by"""
         r"""(?:[ \t]+password)?|set[ \t]+password(?:[ \t]+for[ \t]+[^\s=]{1,128})?"""
         r"""[ \t]*=(?:[ \t]*password[ \t]*\()?)[ \t]*"""
         r"""(?:(?P<q>['"])(?P<v>[^'"\n]{1,256})(?P=q)|(?P<b>[^\s;'"()&][^\s;'"()]{0,127})(?=[\s;]|$))""",
         value=("v", "b"), check="sql"),
    *CONNECT_RULES,  # (Oracle's user/password@service: _connect)
    rule("password", "curl",
         r"""curl\b[^\n|;&]{0,200}?(?:[ \t]-[uU][ \t]*|[ \t]--(?:proxy-)?user[ =])(?P<q>['"]?)"""
         r"""[^\s:'"]{0,128}:(?P<v>[^\s'"]{1,256})(?P=q)""", value=("v",),
         check="url_password"),
    *(_flag_rule(row) for row in CREDENTIALS),
    # -b: FILE USER PASSWORD, or with -n among its options: USER PASSWORD
    rule("password", "htpasswd",
         r"htpasswd(?=(?:[ \t]+-[A-Za-z]+)*[ \t]+-[A-Za-z]*b)"
         r"(?:(?=(?:[ \t]+-[A-Za-z]+)*[ \t]+-[A-Za-z]*n)"
         r"(?:[ \t]+-[A-Za-z]+)+[ \t]+[^\s-]\S*[ \t]+(?P<n>\S{1,256})"
         r"|(?:[ \t]+-[A-Za-z]+)+[ \t]+\S+[ \t]+\S+[ \t]+(?P<v>\S{1,256}))",
         value=("n", "v"), check="htpasswd"),
    *CALL_RULES,  # (a client call's password argument, by position: _calls)
    rule("password", ("password", "passwd", "passphrase", "pwd", "pass", "secret", "token"),
         r"""(?i:password|passwd|passphrase|pwd|pass|secret|token)["']?[ \t]*:[ \t]*"""
         # the block's line is the value, however long (a cut at 256 bytes left the
         # rest of a long line, and another secret on it, unread: found by CI)
         r"""[|>][-+0-9]{0,2}[ \t]*\r?\n[ \t]+(?P<v>[^\s\\][^\n\\]{3,4095})""",
         value=("v",), check="url_password", bounded=False,
         shape=r"""["']?[ \t]*:[ \t]*[|>]"""),
    rule("url_signature", ("sig=", "signature=", "x-goog-signature=", "x-amz-signature="),
         r"(?i:sig|signature|x-goog-signature|x-amz-signature)="
         r"(?P<v>[A-Za-z0-9%+/=_\-.]{8,2048})", value=("v",), check="url_password"),
    # network devices: `password 0 PW`, `secret 5 HASH`, `key 7 HEX`, snmp communities
    rule("password", ("password 0 ", "password 7 ", "secret 0 ", "secret 4 ", "secret 5 ",
                      "secret 8 ", "secret 9 ", "key 0 ", "key 7 ", "snmp-server community "),
         r"(?i:(?:password|secret|key)[ \t]+[0-9][ \t]+|snmp-server[ \t]+community[ \t]+)"
         # (a quote ends it: `{"msg": "enable secret 0 …"}` once took the `"}` too)
         r"(?P<v>[^\s(<\"'][^\s\"']{3,255})", value=("v",), check="network"),
    # crypt(3) hashes: shadow and htpasswd lines, bcrypt in a database dump
    rule("password", ("$1$", "$5$", "$6$", "$apr1$", "$2a$", "$2b$", "$2y$", "$2x$", "$y$",
                      "$argon2", "$7$"),
         r"\$(?:(?:1|5|6|apr1)\$(?:rounds=[0-9]{1,9}\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{22,86}"
         # Mosquitto's PBKDF2-SHA512 (`$7$ITERATIONS$SALT$HASH`, base64)
         r"|7\$[0-9]{1,7}\$[A-Za-z0-9+/]{8,64}={0,2}\$[A-Za-z0-9+/]{40,172}={0,2}"
         r"|2[abxy]\$[0-9]{2}\$[./A-Za-z0-9]{53}"
         r"|y\$[./A-Za-z0-9]{1,32}\$[./A-Za-z0-9]{1,86}\$[./A-Za-z0-9]{43}"
         r"|argon2(?:id|i|d)\$v=[0-9]{1,4}\$m=[0-9]{1,9},t=[0-9]{1,4},p=[0-9]{1,4}"
         r"\$[A-Za-z0-9+/]{8,128}\$[A-Za-z0-9+/]{16,512})", bounded=False),
    # password hashes as dumping tools print them, each a password to a cracker: Kerberos
    # tickets and AS-REP replies (`$krb5tgs$23$…`), a pwdump line's NT hash (and its LM hash
    # unless the empty one: `NAME:RID:LM:NT:::`), a NetNTLM challenge's response
    rule("password", ("$krb5tgs$", "$krb5asrep$", "$krb5pa$"),
         r"\$krb5(?:tgs|asrep|pa)\$[0-9]{1,2}\$[^\s'\"]{16,16384}", bounded=False),
    rule("password", ":::", r"(?<=[0-9]:)(?:aad3b435b51404eeaad3b435b51404ee:(?P<v>"
         r"(?!31d6cfe0d16ae931b73c59d7e0c089c0)[0-9a-fA-F]{32})|(?P<w>(?!aad3b435b51404eeaad3b435b51404ee)[0-9a-fA-F]{32}:"
         r"[0-9a-fA-F]{32}))(?=:::)", value=("v", "w"), bounded=False, back=(65, 65)),
    rule("password", "::", r"::[^:\s]{1,64}:[0-9a-fA-F]{16}:(?P<v>[0-9a-fA-F]{32}:"
         r"[0-9a-fA-F]{32,16384}|[0-9a-fA-F]{48}:[0-9a-fA-F]{48})(?![0-9a-fA-F])",
         value=("v",), bounded=False),
    # a crypt hash with its dollars doubled for docker compose (Traefik's `admin:$$apr1$$…`)
    rule("password", ("$$apr1$$", "$$1$$", "$$5$$", "$$6$$", "$$2a$$", "$$2b$$", "$$2y$$"),
         r"\$\$(?:apr1|1|5|6|2[abxy])\$\$[./A-Za-z0-9]{1,53}(?:\$\$[./A-Za-z0-9]{8,86})?",
         bounded=False),
    # Werkzeug's hashes (`scrypt:N:r:p$SALT$HEX`, `pbkdf2:sha256:N$SALT$HEX`)
    rule("password", ("scrypt:", "pbkdf2:"),
         r"(?:scrypt|pbkdf2):[a-z0-9:]{1,32}\$[A-Za-z0-9./+]{4,64}\$[0-9a-f]{32,256}",
         bounded=False),
    # ZooKeeper's super user: `superDigest=super:BASE64(SHA1(super:PW))`
    rule("password", "superdigest=", r"(?i:superdigest)=[^:\s\"']{1,64}:"
         r"(?P<v>[A-Za-z0-9+/]{20,64}={0,2})", value=("v",), bounded=False),
    # DB2's `CONNECT TO DB USER NAME USING PW`, Teradata's `.logon HOST/USER,PW`
    rule("password", ("user ",), r"(?i:user)[ \t]+[^\s\"']{1,64}[ \t]+(?i:using)[ \t]+"
         r"(?P<v>[^\s\"';)]{1,256})", value=("v",), check="url_password", bounded=False),
    rule("password", ".logon", r"\.(?i:logon)[ \t]+[^\s,/]{1,128}/[^\s,]{1,128},"
         r"(?P<v>[^\s;'\"]{1,256})", value=("v",), check="url_password", bounded=False),
    # PuTTY's private key file: the lines after Private-Lines
    rule("pem_private_key", "private-lines:",
         r"(?i:private-lines):[ \t]*[0-9]{1,3}[ \t]*\r?\n"
         r"(?P<v>(?:[A-Za-z0-9+/=]{4,128}(?:\r?\n|$)){1,64})", value=("v",), bounded=False),
    # user:password lines: cloud-init's `chpasswd: list: |`, `echo 'u:pw' | chpasswd`
    rule("password", "chpasswd", r"chpasswd", check="chpasswd", priority=CONTEXT),
    # commands that store secrets: every KEY=VALUE they are given is one
    rule("password", ("kv put", "vault write", "secrets set"),
         r"(?i:kv[ \t]+put|vault[ \t]+write|secrets[ \t]+set)", check="assignments",
         bounded=False, shape=r"[ \t]", priority=CONTEXT),
    rule("password", "--from-literal=", r"--from-literal=", check="assignments",
         bounded=False, priority=CONTEXT),
    # a Kubernetes Secret: every value under data/stringData, whatever its key
    rule("password", ("kind: secret", '"kind": "secret"', '"kind":"secret"'),
         r"""(?i:kind:[ \t]*secret|"kind":[ \t]*"secret")(?![A-Za-z])""", check="kube_secret",
         bounded=False, priority=CONTEXT),
    # a password fed on a program's input (`echo pw | docker login --password-stdin`, `| gpg
    # --passphrase-fd 0`, `| sudo -S`, `<<< pw`; an option that says so: `-o password_stdin`)
    rule("password", ("--password-stdin", "--passphrase-fd", "passwd --stdin", "kinit",
                      "--data-file=-", "--data-file -", "--secret-string-file -",
                      "--with-token", "--token-stdin", "--passphrase-stdin", "password_stdin"),
         r"(?i:--password-stdin|--passphrase-fd[ \t=]+0|passwd[ \t]+--stdin|kinit\b"
         r"|(?<=[ \t,=])password_stdin(?![\w-])"
         r"|--with-token|--token-stdin|--passphrase-stdin"
         r"|--data-file[ \t=]-(?![\w-])|--secret-string-file[ \t=]-(?![\w-]))",
         check="stdin_fed", bounded=False, priority=CONTEXT),
    rule("password", (), r"sudo[ \t]+-S", check="stdin_fed", bounded=False,
         priority=CONTEXT, case_triggers=("sudo -S",)),
    # programs that read a new password (twice) on their input when it is not a terminal:
    # `printf 'pw\npw\n' | passwd` (a word: chpasswd's are `_several`'s), `| smbpasswd -s`…
    rule("password", ("passwd", "smbpasswd -s", "htpasswd -i", "vncpasswd -f"),
         r"(?i:(?<![\w.\-])passwd(?:[ \t]+[A-Za-z_][\w.\-]{0,31})?[ \t]*(?=[;&|\r\n]|$)"
         r"|smbpasswd[ \t]+-s|htpasswd[ \t]+-i|vncpasswd[ \t]+-f)", check="stdin_fed",
         priority=CONTEXT),
    # an XML element named for a credential by its name or key attribute: its text, or its
    # value child's (`<entry key="db.password">…</entry>`, SAML's `<Attribute
    # Name="password"><AttributeValue>…`)
    rule("password", ('name="', "name='", 'key="', "key='"),
         r"""(?i:name|key)\s*=\s*["'][^"'<>]{0,40}"""
         r"""(?i:password|passwd|passphrase|secret|token|api[_\-]?key|credential)[^"'<>]{0,20}"""
         r"""["'][^<>]{0,100}>\s{0,8}(?:<(?:[\w-]+:)?[\w-]{0,20}(?i:value)(?:\s[^<>]{0,80})?>)?"""
         r"""(?P<v>[^<\s][^<\n]{0,255})<""",
         value=("v",), check="url_password", bounded=False,
         shape=r"""\s*=?\s*["']?[^"'<>]{0,40}(?i:passw|passphrase|secret|token|api[_\-]?key|"""
               r"""credential)"""),
    # a GraphQL operation that passes a credential by a variable: `login(password: $p)`,
    # then `"variables": {"p": "…"}`
    rule("password", '"variables"', r'"variables"\s*:\s*\{', check="graphql_vars",
         bounded=False, priority=CONTEXT),
    # an OAuth authorization code in a redirect: `?code=…` in a URL that also carries the
    # flow's `state` or goes to a callback (a code is a credential until it is used)
    rule("oauth_code", ("?code=", "&code=", "#code="),
         r"[?&#]code=(?P<v>[A-Za-z0-9._~%/+\-]{16,512})", value=("v",), check="oauth_code",
         bounded=False, shape=r"[A-Za-z0-9._~%/+\-]{16}"),
    # redis-cli's reply to CONFIG GET: the name on one numbered line, the value on the next
    rule("password", (') "requirepass"', ') "masterauth"'),
         r'\) "(?:requirepass|masterauth)"[ \t]*\r?\n[0-9]{1,3}\) "(?P<v>[^"\n]{1,256})"',
         value=("v",), check="url_password", bounded=False),
    # an HTML password field's value, wherever it stands in the tag
    rule("password", ('type="password"', "type='password'", "type=password"),
         r"""(?i:type\s*=\s*["']?password)(?![\w-])""", check="html_input", bounded=False,
         priority=CONTEXT, shape=r"""(?:["'\s/>]|$)"""),
    # an Authorization header of any scheme but Bearer and Basic (their own rules) and
    # Digest (its fields are named): `SSWS 00…` (Okta), `Token …` (Django REST, GitHub),
    # `ApiKey …`, `Negotiate …`: the credentials after the scheme
    rule("authorization", "authorization",
         r"""(?i:authorization)["']?[ \t]*[:=][ \t]*["']?"""
         r"""(?!(?i:bearer|basic|digest|aws4-hmac-sha256)\b)[A-Za-z][A-Za-z0-9_\-]{1,30}"""
         # its credentials as a list of parameters (OAuth 1.0's, Hawk's, HTTP Signatures'):
         # the whole list, whatever each is named
         # (its quotes JSON-escaped inside a JSON string: `"OAuth k=\"v\""`)
         r"""[ \t]+(?P<v>(?:[A-Za-z][\w\-]{0,63}=(?:\\?"[^"\n]{0,4096}?\\?"|[^\s,"\\]{1,4096})"""
         r"""(?:[ \t]*,[ \t]*|(?=[ \t]*(?:$|[\n"'\\]))))+|[A-Za-z0-9\-._~+/=]{8,4096})""",
         value=("v",), check="auth_scheme", bounded=False,
         shape=r"""["']?[ \t]*[:=][ \t]*["']?[A-Za-z][A-Za-z0-9_\-]{1,30}[ \t]+[A-Za-z0-9]"""),
    # a wallet's seed phrase: 12 to 24 short lower-case words under a key that names one
    rule("seed_phrase", ("mnemonic", "seed phrase", "seed_phrase", "seed-phrase",
                         "seedphrase", "recovery phrase", "recovery_phrase", "secret phrase",
                         "secret_recovery_phrase", "seed words", "seed_words",
                         "backup phrase", "wallet seed", "wallet_seed"),
         r"""(?i:mnemonic|(?:secret[ _\-]recovery|seed|recovery|secret|backup)[ _\-]?"""
         r"""(?:phrase|words)|wallet[ _\-]seed)["']?[ \t]*[:=][ \t]*["']?"""
         r"""(?P<v>[a-z]{3,8}(?:[ \t,]+[a-z]{3,8}){11,23})(?![a-z])""",
         value=("v",), bounded=False, shape=r"""["']?[ \t]*[:=]"""),
    # and a seed in hex (an Ed25519 key's, a wallet's): 32 to 128 hex digits under `seed`
    rule("wallet_key", ("seed",), r"""(?i:seed)["']?[ \t]*[:=][ \t]*["']?(?P<v>(?:0x)?"""
         r"""[0-9a-fA-F]{32,128})(?![0-9a-zA-Z])""", value=("v",), bounded=True,
         shape=r"""["']?[ \t]*[:=][ \t]*["']?(?:0x)?[0-9a-fA-F]{8}"""),
    # PowerShell's plain text made a secure string: `ConvertTo-SecureString "pw" -AsPlainText`
    rule("password", "convertto-securestring",
         r"""(?i:convertto-securestring)[ \t]+(?:(?i:-string)[ \t]+)?(?P<q>['"])"""
         r"""(?P<v>[^'"\n]{1,256})(?P=q)""", value=("v",), check="url_password"),
    # an expect script's answer to a password prompt: `expect "password:"` then `send "…"`
    rule("password", "expect ",
         r"""expect(?:[ \t]+-\S+)*[ \t]+["'{]?[^"'}\n]{0,40}(?i:assword|assphrase|passcode|"""
         r"""pin\b)[^"'}\n]{0,40}["'}]?[ \t]*(?:\r?\n|;)[ \t]*send(?:[ \t]+--)?[ \t]+"""
         r"""(?P<q>["'{])(?P<v>[^"'}\n\\]{1,256})(?:\\{1,2}[rn]|\n|["'}])""",
         value=("v",), check="url_password", bounded=False),
    # a change shown as `OLD -> NEW` (Terraform's plan) under a credential's key: the new one
    rule("password", ('" -> "', '" => "'),
         r"""" (?:->|=>) "(?P<v>[^"\n]{1,256})(?=")""",
         value=("v",), check="changed_value", bounded=False),
    # a password file that is a process substitution: `--vault-password-file <(echo pw)`,
    # and any option named for a password given one (`vncviewer -passwd <(echo pw)`)
    rule("password", ("-file <(", "-file=<(", "passwd <(", "passwd=<(", "password <(",
                      "password=<(", "passfile <(", "passfile=<(", "pass <(", "pass=<("),
         r"""(?:-file|(?i:pass(?:wd|word)?)(?:-?file)?)[ \t=]<\([ \t]*"""
         r"""(?:echo|printf)(?:[ \t]+-[a-zE]+)*[ \t]+"""
         r"""(?:(?:'%s'|"%s"|%s)[ \t]+)?"""
         r"""(?:(?P<q>['"])(?P<v>[^'"\n]{1,256})(?P=q)|(?P<b>[^\s'")]{1,256}))[ \t]*\)""",
         value=("v", "b"), check="url_password", bounded=False),
    # httpie and xh: `http -a user:pw …`
    rule("password", ("http ", "https ", "xh ", "xhs "),
         r"""(?:https?|xhs?)[ \t][^\n|;&]{0,200}?(?<=[ \t])(?:-a|--auth)[ \t=](?P<q>['"]?)"""
         r"""[^\s:'"]{0,128}:(?P<v>[^\s'"]{1,256})(?P=q)""", value=("v",),
         check="url_password", bounded=False),
    # a user:password pair after a word that says it logs in (HAProxy's `stats auth u:pw`,
    # Squid's `login=u:pw`; triggers as specific as the forms: a word as common as `auth `
    # made every text of code judge thousands more triggers, and reach the budget)
    rule("password", ("stats auth ", "login="),
         r"""(?i:stats[ \t]+auth[ \t]+|login=)[\w.@+-]{1,64}:(?P<v>[^\s'":]{1,256})(?=[\s'"]|$)""",
         value=("v",), check="url_password", bounded=False),
    # a relay's credentials, one per line (Postfix's sasl_passwd: `[host]:port user:pw`)
    # (found from `]:` and an SMTP port: `]:` alone is in every text of typed code, and so
    # many more triggers took ordinary text past the budget)
    rule("password", ("]:25 ", "]:25\t", "]:465", "]:587", "]:2525"),
         r"""\]:[0-9]{2,5}[ \t]+[^\s:]{1,128}:(?P<v>[^\s"'<]{1,256})(?=\s|$|["'<])""",
         value=("v",), check="relay", bounded=False, shape=r"[0-9]{0,3}[ \t]*[^\s:]"),
    # a VPN's pre-shared key written with its encoding (Juniper's `ascii-text "…"`)
    rule("password", ("pre-shared-key ", "preshared-key ", "psk "),
         r"""(?i:pre-?shared-key|psk)[ \t]+(?i:ascii-text|hexadecimal|ascii|hex|[07])[ \t]+"""
         r"""(?P<q>"?)(?P<v>[^"\s]{1,256})(?P=q)""", value=("v",), check="url_password",
         bounded=False),
    # OpenVPN's inline credentials: the line after the user name
    rule("password", "<auth-user-pass>",
         r"""<auth-user-pass>[ \t]*\r?\n[^\n<]{1,128}\r?\n(?P<v>[^\n<]{1,256})\r?\n"""
         r"""[ \t]*</auth-user-pass>""", value=("v",), check="url_password", bounded=False),
    # GitHub Actions' mask command: what it masks is a secret by definition
    rule("password", "::add-mask::", r"::add-mask::(?P<v>[^\s\"']{1,4096})", value=("v",),
         check="url_password", bounded=False),
    # a markdown table's separator row (a line that starts `|---`, `| ---` or `|:--`): the
    # cells of its rows under a credential's header
    rule("password", ("\n|-", "\n| -", "\n|:-", "\n| :-"),
         r"\n\|[ \t]*:?-{3,}:?[ \t]*(?:\||\n|$)", check="table", bounded=False, shape="--",
         priority=CONTEXT),
    # base64 of user:pass under any key that ends in "auth" (docker's config.json, .npmrc),
    # or a token under `auth` itself
    rule("basic_auth", "auth",
         rf"""(?i:auth)["']?[ \t]*[:=]>?[ \t]*["']?(?P<v>[{B64}]{{8,4096}}={{0,2}})""",
         value=("v",), check="auth_value", bounded=False,
         shape=r"""["']?[ \t]*[:=]>?[ \t]*["']?[A-Za-z0-9+/]{8}"""),
)


# --- the checks of URLs' tokens and OAuth codes ----------------------------------------


def url_token(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
              ) -> str | None:
    """A URL's user name that is a token: digits among its letters, or 40 and more letters
    in one piece (an Azure DevOps PAT: 52 of base32), not a name made of words."""
    value = match.group("v")
    if any(c in b"0123456789" for c in value):
        return kind if not _wordy(value.replace(b"-", b"_")) else None
    return kind if len(value) >= 40 and b"-" not in value and b"_" not in value else None


_OAUTH_FLOW = re.compile(rb"(?i)[?&]state=|callback|oauth|authorize|redirect|/login|signin")


def oauth_code(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
               ) -> str | None:
    """``code=`` in a URL of an OAuth flow: the same URL holds ``state=`` or goes to a
    callback (``?code=200`` of some API is not a code of this kind)."""
    url = buf.rfind(b"://", max(0, match.start() - 256), match.start())
    first = buf.rfind(b" ", max(0, match.start() - 256), match.start())
    lo = url if url >= 0 else first + 1
    hi = buf.find(b" ", match.end(), match.end() + 256)
    around = buf[max(0, lo):hi if hi >= 0 else match.end() + 256]
    return kind if _OAUTH_FLOW.search(around) else None


CHECKS["url_token"] = url_token
CHECKS["oauth_code"] = oauth_code


# --- SQL's password clauses ------------------------------------------------------------


_SQL_WORDS = frozenset(b"""values password externally globally null none by with as identified
    replace retain current expire account lock unlock default""".split())
_NAMED = re.compile(rb"(?i)[a-z_]*(?:password|passwd|secret|token|pass|pwd)[a-z_]*")


def sql(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
        ) -> str | None:
    """SQL's password clauses: a bind parameter (``:pw``, ``?``, ``$1``, ``@pw``), a
    keyword or a sample named for what it is (``'new_password'``) is not a password."""
    value, _ = _value(match, groups)
    if value[:1] in (b":", b"?", b"$", b"@") or value.lower() in _SQL_WORDS:
        return None
    if _NAMED.fullmatch(value) and _wordy(value):
        return None
    return url_password(kind, match, buf, groups)


CHECKS["sql"] = sql
