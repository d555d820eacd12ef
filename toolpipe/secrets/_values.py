"""Context tests: where a shape matched, is it a secret or something that looks like one?

Each test sees the match and the text around it and answers the kind to report, or
``None`` for "not a secret". They refuse what a reader would not call a secret: a
variable, a call, an attribute, a type, a placeholder, a path, a word in prose.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from toolpipe.secrets._keywords import SPELT_IN_WORDS
from toolpipe.secrets._letters import DIGIT
from toolpipe.secrets._letters import wordy as _wordy
from toolpipe.secrets._lines import IDENT as _IDENT
from toolpipe.secrets._lines import config_line as _config_line
from toolpipe.secrets._lines import glued_setting as _glued_setting
from toolpipe.secrets._lines import line_start as line_start
from toolpipe.secrets._rule import ARROWS

_DOTTED = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
_BOOTSTRAP = re.compile(rb"[a-z0-9]{6}\.[a-z0-9]{16}")  # kubeadm's token: six, a dot, sixteen
_PATH = re.compile(rb"(?:~|\.{1,2})?/[^\s]*|[A-Za-z]:\\[^\s]*")
_FILLER = re.compile(rb"[*xX.#_\-?0]+|(?:x{3,}|X{3,})[\w\-]*|\.\.\."
                     # a key shown masked, its ends kept: sk-...abcd, ghp_…a1b2
                     rb"|[\w\-]{0,12}(?:\.{3}|\xe2\x80\xa6)[\w\-]{0,8}"
                     # a note in brackets where a value would be: (hidden), (not set)
                     rb"|\([\w \-.,']{0,40}\)"  # and a date, a time (`2026-01-01`, `…T10:00Z`)
                     rb"|\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::[\d.]{2,9})?(?:Z|[+-][\d:]{4,5})?)?")
_PLACEHOLDER = re.compile(
    # (`$(NAME)`: Kubernetes' expansion of a variable in a container's args, a shell's
    # command substitution)
    rb"(?i)<[^>]*>|\{\{?[^}]*\}\}?|\$\{?\w+\}?|\$\([^)\n]{1,128}\)|%\{[^}]*\}|%\(\w*\)s|%s"
    # (a printf format with its flags, width and precision: `%-12s`, `%.8x`, Go's `%q`)
    rb"|%[-+ #0]{0,4}[0-9]{0,4}(?:\.[0-9]{1,4})?[sdiuxXfgeqvr]"
    rb"|your[_\-. ]\S*"
    rb"|\S*[_\-]here"
    # a sample's sentence (wp-config-sample's `put your unique phrase here`, `enter your
    # token`, `paste the key here`): words, one of them `your` or the last `here`
    rb"|(?:[a-z]+ )*your(?: [a-z]+)*|(?:[a-z]+ )+here"
    # a masking word in brackets, as loggers and frameworks print one (Rails' [FILTERED])
    rb"|\[(?:[A-Z][A-Z_ ]{2,23}|[a-z][a-z_ ]{2,23})\]"
    rb"|(?:os\.environ|process\.env|env|getenv|os\.getenv|settings|config|secrets)\b.*"
    rb"|(?:vault|secretsmanager|ssm|keychain|keyring|op|awssm|gcpsm|azkv)://.*"
    rb"|(?:file|fd|env):\S*|stdin"
    # other template languages' references (the thirteenth sitting's held-out file: Octopus'
    # and Azure's `#{Name}#`, a build's `@NAME@`, a token's `__NAME__`, Nomad's `[[ .X ]]`,
    # Concourse's `((name))`) and a command's backquotes inside a value's quotes
    rb"|#\{[^}\n]{1,128}\}#?|@@?[A-Za-z_][\w.\-]{0,63}@@?|__[A-Za-z][\w.\-]{0,63}__"
    # (and the fourteenth's: a build's `@@NAME@@`, Windows' `%NAME%` and `!NAME!` with a
    # name in one case, not a token's mixed one, and PowerShell's `${env:NAME}`)
    rb"|%(?-i:[A-Z_][A-Z0-9_]{1,63}|[a-z_][a-z0-9_]{1,63})%"
    rb"|!(?-i:[A-Z_][A-Z0-9_]{1,63}|[a-z_][a-z0-9_]{1,63})!|\$\{env:\w{1,64}\}"
    rb"|\[\[[^\]\n]{1,128}\]\]|\(\([^)\n]{1,128}\)\)|`[^`\n]{1,128}`"
)
# the three at once (one C match where three were tried in turn, on every trigger)
_NOT_VALUE = re.compile(rb"(?i)(?:" + _FILLER.pattern + rb")|(?:" + _PATH.pattern + rb")|(?:"
                        + _PLACEHOLDER.pattern.removeprefix(b"(?i)") + rb")")
# Words that stand where a value would and say nothing secret: types, nulls, booleans,
# the key's own name as a sample value.
_WORDS = frozenset(b"""null none nil nan undefined true false yes no on off empty blank
    string str text int integer number bool boolean bytes any object optional required
    secret secrets password passwd pass pwd token tokens apikey api_key key redacted hidden
    masked omitted removed sensitive placeholder example sample dummy test changeme
    change_me default unset notset not_set todo tbd n/a na new old current
    secretstr secretbytes field foobared value_specified_in_no_log_parameter
    write read include omit same-origin enabled disabled inherit auto""".split())
# a key word's suffix that says what the value is about, not what it holds
_ABOUT = re.compile(
    rb"(?:^|[_\-.]|(?<=[a-z0-9])(?=[A-Z]))(?i:len(?:gth)?|type|kind|name|ids?|ur[li]|path|"
    rb"file|dir|polic(?:y|ies)|expir\w*|expires|ttl|age|count|min|max|hints?|changed|updated|"
    rb"created|reset|rotat\w*|required?|enabled?|disabled?|mode|format|algo\w*|fields?|"
    rb"label|prompt|header|endpoint|env|var|ref|arn|version|strength|regex|pattern|valid\w*|"
    rb"complexity|manager|store|provider|source|location|timeout|lifetime|duration|prefix|"
    rb"suffix|at|date|time|on|by|limits?|attempts|retries|salt|iterations|cost|rounds|rules?|"
    rb"requirements|command|cmd|helper|method|scopes?|audience|issuer|usage|server|host|"
    rb"port|user(?:name)?|login|email|owner|is|has|use|show|hide|visible|mask(?:ed)?|set|"
    rb"needed|hash(?:er|ing)|encoding|charset|style|input|field|button|text|help|error|"
    rb"message|msg|title|placeholder|description|desc|encryption|scheme|maps?|tables?|lookups?|"
    rb"ca|certs?|certificates?|fingerprints?|pins?|accessors?)(?=$|[_\-.]|[A-Z])")  # -ca-cert-hash
# a key word's prefix that says the value names a stored secret (Helm's `existingSecret`)
_EXISTING = re.compile(rb"(?i)existing[_\-.]?$")
_NAMED_PATH = re.compile(rb"[\w.@-]{1,64}:(?:/|~/)[^\s:]*")
# a dotfile's name, words alone (`secret: .env`, `token file: .npmrc`: the file that holds
# one; found when the shield's own message `writes … a secret: .env` was redacted)
_DOTFILE = re.compile(rb"\.[a-z]+(?:[._\-][a-z]+)*")
_RESOURCE_ID = re.compile(rb"(?i)(?:arn|urn):[^\s\"'=,(\[{]{0,256}\Z")  # arn:…:secret:NAME
# Go's %+v of a struct: `{Host:db User:app Password:… Port:5432}`; a field printed empty
# leaves its name, a blank and the next field's name
_NEXT_FIELD = re.compile(rb"[A-Z][A-Za-z0-9]*:")
_GO_FIELDS = re.compile(rb"\{(?:[A-Z][A-Za-z0-9]*:[^\s{}]* )+")
# Keys named like credentials that hold none: pagination cursors (AWS NextToken, Google's
# nextPageToken), GitHub Actions' id-token permission.
_NOT_CREDENTIAL_KEY = re.compile(
    rb"(?i)(?<![A-Za-z0-9])(?:next|prev(?:ious)?|page|continuation|pagination|sync|resume|"
    rb"start|end)[_\-]?(?:page)?[_\-]?(?:token|cursor|marker)$")


# a provider's prefix before a word a sample would hold: no token has these (AWS's own
# documented AKIA…EXAMPLE stays a key, as the spec has it)
SAMPLE = re.compile(rb"(?i)placeholder|dummy|changeme|redacted|your[_\-]?(?:api[_\-]?)?"
                     rb"(?:key|token|secret)|x{8}|\*{4}|<[^>]{1,40}>|\.\.\.")
_SAMPLE_HINTS = (b"lace", b"umm", b"hange", b"edact", b"our", b"xxxx", b"XXXX", b"***", b"<",
                 b"...")


def sample(buf: bytes, lo: int, hi: int) -> bool:
    """Does ``buf[lo:hi]`` hold a sample word (SAMPLE)? A few substring tests first: a
    regex search on every token costs more than the tokens' own rule."""
    window = buf[lo:hi]
    return any(h in window for h in _SAMPLE_HINTS) and SAMPLE.search(window) is not None


# the same in a key's value, where a weak real password may hold a word (changeme2026!)
_SAMPLE_VALUE = re.compile(rb"(?i)placeholder|your[_\-]?(?:api[_\-]?)?(?:key|token|secret)|x{8}|"
                           rb"\*{4}")
_LONG_ALNUM = re.compile(rb"[A-Za-z0-9]{16,}")
_SHORT = frozenset({b"pass", b"pwd", b"pw", b"pat"})  # short key words, inside words only whole
_CIPHERTEXT = re.compile(rb"[\"']?(?:encrypted:|ENC\[|ENC\(|vault:v[0-9]|\$ANSIBLE_VAULT;)")
_CONFIG_VERB = re.compile(rb"\bconfig[ \t]+(?:get|set|rm)\b[^\n]*[ \t]--$")


def _expanded(buf: bytes, pos: int) -> bool:
    """Is the name holding ``pos`` a shell parameter's, inside ``${…}``?"""
    while pos > 0 and (buf[pos - 1:pos].isalnum() or buf[pos - 1] == 95):  # (95: "_")
        pos -= 1
    return buf[max(0, pos - 2):pos] == b"${"


_CIPHER_PARENT = re.compile(rb"[ \t]*(?:encryptedData|encrypted_data|sops|"
                            rb"encrypted_regex)[ \t]*:[ \t]*\r?$")


def _under_ciphertext(buf: bytes, pos: int) -> bool:
    """Is the key at ``pos`` an indented member of a block whose values are ciphertexts
    (its nearest less indented line, among the 32 before it, is ``encryptedData:``)?"""
    line = line_start(buf, pos)
    indent = pos - line
    if not indent or buf[line:pos].strip(b" \t"):
        return False
    reach = max(0, line - 2048)
    if buf.find(b"encrypted", reach, line) < 0 and buf.find(b"sops", reach, line) < 0:
        return False  # (no such parent within reach: two C searches, not a walk of lines)
    end = line - 1
    for _ in range(32):
        if end <= 0:
            return False
        start = line_start(buf, end)
        text = buf[start:end]
        body = text.lstrip(b" \t")
        if body and len(text) - len(body) < indent:
            return _CIPHER_PARENT.fullmatch(text) is not None
        end = start - 1
    return False


def plain_word(value: bytes) -> bool:
    """Not a secret wherever it stands: a word that says none (``null``, ``changeme``),
    filler, a placeholder, a variable, a path, a file reference (``@file``)."""
    v = value.strip(b"'\"")
    return (v.lower() in _WORDS or _NOT_VALUE.fullmatch(v) is not None
            or v.startswith((b"$", b"@")))


def credential_like(value: bytes) -> bool:
    """Could this stand as a password where nothing but its place says so (a config line
    ``rootpw VALUE``, a table cell)? Not a plain word or name, not prose in a script
    without ASCII letters (``请输入您的密码``)."""
    if not any(33 <= c < 127 for c in value):
        return False
    return not (_IDENT.fullmatch(value) and _wordy(value))


def _value(match: re.Match[bytes], groups: tuple[str, ...]) -> tuple[bytes, str]:
    last = match.lastgroup  # the value's group closes last, when it is the regex's end
    if last is not None and last in groups:
        return match.group(last), last
    for name in groups:
        found = match.group(name)
        if found is not None:
            return found, name
    return match.group(0), ""


def key_value(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
              ) -> str | None:
    value, group = _value(match, groups)
    if match.group("sep").endswith((b"**", b"__")):  # `password: **…**`: in emphasis
        if value.endswith(b"__") and _CONSTANT.fullmatch(value, 0, len(value) - 2):
            return None  # `password: __DB_PASSWORD__`: a token's placeholder, a name
        value = value.rstrip(b"*_")
    if len(value) < 4 or value.startswith(b"[REDACTED:") or _WORDS.__contains__(
            value.lower().strip(b"'\"")):
        return None
    if _NOT_VALUE.fullmatch(value):
        return None
    if _SAMPLE_VALUE.search(value, 0, 48):
        return None  # token: ghp_xxxxxxxx…, key: your_api_key_placeholder
    if value.isdigit() and len(value) < 6:
        return None  # a count, a port, a length
    if value[:1] in (b"&", b"!") and _PROPERTY_THEN.match(buf, match.end()):
        return None  # YAML's anchor or tag, the value after it (`key: !!str [REDACTED…]`)
    if value[:2] in (b"{{", b"{%") or (value[:1] in (b"?", b"+") and _expanded(
            buf, match.start())):
        return None  # a template's expression; `${DB_PASSWORD:?message}`, `${X:+other}`
    if value[:1].isalnum() and _under_ciphertext(buf, match.start()):
        return None  # sealed-secrets' `encryptedData:`, sops' `sops:`: encrypted values
    if _CIPHERTEXT.match(value):
        return None  # dotenvx's `encrypted:…`, Jasypt's `ENC(…)`, sops', Vault's, Ansible's
    if _REG_TYPE.match(value):
        return None  # a .reg file's typed value (`"Password"=hex:a1,b2,…`): its own rule
    at = match.start()
    flag = _flag_start(buf, at)  # (asked three times below: worked out once)
    if flag and _CONFIG_VERB.search(buf, line_start(buf, at), at):
        return None  # `pulumi config get --secret NAME`: a switch, then a setting's name
    sep = match.group("sep")
    start = match.start()
    suffix = match.group("ksuf") if "ksuf" in match.re.groupindex else None
    config = sep.strip() == b"" and sep != b">" and _config_line(match, buf)
    word_end = match.start("ksuf") if suffix else match.start("close")
    if start and chr(buf[start - 1]).isascii() and chr(buf[start - 1]).isalpha() and (
            97 <= buf[start] <= 122) and buf[start:word_end].lower() in _SHORT and not (
            config or flag or _glued_setting(buf, start, match)):
        return None  # "pass" inside a word: bypass=, compass=, a token's …XpwPg (not
        # -storepass, RootPW)
    if suffix and _ABOUT.search(suffix):
        return None  # token_type, password_length, passwordPolicy: about the value
    if flag and buf[start:word_end].lower() in (b"secret-id", b"secret_id"):
        return None  # aws secretsmanager … --secret-id NAME: the name of a stored secret
    if _EXISTING.search(buf, max(0, start - 9), start):
        return None  # a Helm chart's `existingSecret=NAME`: a Secret's name, not its value
    if buf[start:start + 5].lower() == b"token" and _NOT_CREDENTIAL_KEY.search(
            buf[max(0, start - 40):match.start("close")]):
        return None  # NextToken, nextPageToken: a pagination cursor
    listed = _DEFINITION.match(sep) is not None  # `Password⏎: …`: a definition list's
    prose = listed or group in ("br", "tq2") or (group not in ("sq", "dq") and (_ARROW.search(
        sep) or sep.strip() in _DASHES))  # `token [optional]`, `password -> reset link sent`
    worded = not prose and buf[start:word_end].strip().lower() in SPELT_IN_WORDS  # `Private key`
    if (prose or worded) and not token_shaped(value) and not (_ENCODED.fullmatch(value) and (
            DIGIT.search(value))):  # (base64 of 16 or more, a `/` in it, stays a value)
        return None  # in prose's forms (and a key in words) only a token is one
    if b"\n" in sep and b"---" not in sep and not (_LONG_ALNUM.match(value) or token_shaped(
            value)) and not listed:
        return None  # "secret:" ending a line opens a YAML block; only a token counts
    if not any(33 <= c < 127 for c in value):  # 密码：请输入您的密码: prose, not a value
        return None
    if _NAMED_PATH.fullmatch(value) or _DOTFILE.fullmatch(value):  # systemd's
        return None  # LoadCredential=NAME:/path, a dotfile's name: a file named
    if buf[start - 1:start] == b":" and _RESOURCE_ID.search(buf, max(0, start - 256), start):
        return None  # arn:aws:secretsmanager:…:secret:NAME: a segment of a resource's name
    if sep[:1] == b":" and sep[1:2] in (b" ", b"\t") and _NEXT_FIELD.match(value) and (
            _GO_FIELDS.search(buf, line_start(buf, start), start)):
        return None  # Go's %+v, `{User:app Password: Port:5432}`: empty, then the next field
    if (b"||" in sep or b"??" in sep or b"?:" in sep) and group not in ("sq", "dq", "bq"):
        return None  # API_TOKEN || "literal": a fallback value, only a literal counts
    if b"," in sep:  # define('DB_PASSWORD', 'VALUE'): a quoted name, then its value
        name = start
        while name > 0 and (buf[name - 1:name].isalnum() or buf[name - 1] in b"_.-"):
            name -= 1
        quote = buf[name - 1:name]
        # or a pair: Erlang's {password, "…"}, Ruby's [:password, "…"] (an atom, a symbol)
        paired = group in ("sq", "dq") and not match.group("close") and (
            buf[name - 1:name] == b"{" or buf[max(0, name - 2):name] == b"[:" or (
                # or a symbol first in a call: Capistrano's `set :password, "…"`
                quote == b":" and _SYMBOL_CALL.fullmatch(
                    buf[line_start(buf, name):name - 1].strip()) is not None))
        before = buf[max(0, name - 8):name - 1].rstrip()  # a call's `(`, or a pair's `[`
        pair = before.endswith(b"[") and _PAIR_END.match(buf, match.end()) is not None
        if not paired and (group not in ("sq", "dq") or quote not in (b"'", b'"') or (
                quote not in match.group("close")) or not (before.endswith(b"(") or (
                pair and credential_like(value)))):
            return None  # the first argument of a call (or of a two-item list), not a member
    if (b"|" in sep or _BOX.search(sep)) and b"||" not in sep and b"=" not in sep and (
            b"\n" not in sep):  # (not a YAML block's `key: |`, its value on the next line)
        # a table row: | password | VALUE | (or │ ┃ ║), the key's cell first on its line
        line = line_start(buf, start)
        if not _BOX_START.match(buf[line:start].lstrip()) or not _CELL_END.match(
                buf, match.end()) or not credential_like(value.strip(b"`")):
            return None
        return kind
    if config:  # (not an option: `mkpasswd --method=sha-512` is a command, not a setting)
        return kind if credential_like(value) and not value.startswith(b"--") else None
    if sep.strip() == b"" or sep == b">":
        # "password hunter2" is prose unless it is a flag (--password hunter2) and a
        # value after ">" only counts inside <password>…</password>.
        if group == "bare" and (buf[match.end():match.end() + 1] in (b"(", b"[", b"{") or (
                _DOTTED.fullmatch(value) and not _BOOTSTRAP.fullmatch(value))):
            return None  # Gradle's `storePassword System.getenv("…")`: a call, a name
        lead = buf[max(0, start - 2):start]  # (<password>…, or an element named for one:
        if sep == b">" and not lead.endswith(b"<") and _ELEMENT_OPEN.search(  # <DB_PASSWORD>)
                buf, max(0, start - 66), start) is None:
            return None
        if sep != b">" and not flag:
            # (csrf-token, x-api-token: a name with a dash, not a flag) prose, unless
            # the word after is a token, not a word (`logging in with password Zq…`)
            # (a word that starts with a dash is an option: `mkpasswd --method=sha-512`)
            return kind if sep != b">" and b"\n" not in sep and token_shaped(value) and (
                not value.startswith(b"-")) else None
        if sep != b">" and (_NO_VALUE_FLAG.search(buf, max(0, start - 12), start)
                            or b"://" in value or value.startswith(b"-")):
            return None  # --ask-password URL, create-secret --name: a switch, then an operand
    if group == "bare":
        end = match.end()  # (the C tests first: this runs at every key in a text of keys)
        if (buf[start:start + 4].lower() == b"cred" and _PAIR_SLASH.match(buf, end)) or (
                b":=" in buf[end:end + 48] and _TYPED.match(buf, end)):  # `credentials: u /`
            return None  # …, a user (_said); Ada's `Key : constant String := …`: a type
        after = buf[match.end():match.end() + 1]
        if after in (b"(", b"[", b".", b"{") or (b"=" in sep and sep.strip() != sep and (
                _COMMAND_NAME.fullmatch(value) and _ARGUMENTS.match(buf, match.end()))):
            return None  # a call, an index, a generic type, a command given arguments
            # (`$pw = Read-Host -AsSecureString`): code, not a value
        if _DOTTED.fullmatch(value) and not _BOOTSTRAP.fullmatch(value):
            return None  # settings.DB_PASSWORD, self.token (a kubeadm token is no name)
        if _IDENT.fullmatch(value) and _wordy(value):
            if buf[max(0, start - 5):start].lower().endswith((b"from_", b"from-", b"from")):
                return None  # from_secret: docker_password names a secret kept elsewhere
            spaced = sep.strip() != sep
            if b"=" in sep and spaced:
                return None  # token = AutoTokenizer: an assignment from a name
            if value[:1].isupper() and b"=" not in sep:
                return None  # api_key: SecretStr, a type
    return kind


# what calls a symbol's setter: `set`, `config.set(`, `fetch(` (a line's start to the `:`)
_SYMBOL_CALL = re.compile(rb"[A-Za-z_][\w.]{0,63}[ \t]*\(?")
_DEFINITION = re.compile(rb"[ \t]*\r?\n[ \t]*:[ \t]")  # a markdown definition list's
_ARROW = re.compile(ARROWS.encode())
_REG_TYPE = re.compile(rb"(?:hex(?:\([0-9a-f]\))?|dword|qword):")
_ARGUMENTS = re.compile(rb"[ \t]+(?:-[A-Za-z]|[\"'])")
_COMMAND_NAME = re.compile(rb"[A-Za-z][A-Za-z_.\-]{0,63}")  # Read-Host: letters, no digits
_DASHES = (b"-", "—".encode(), "–".encode())
_ELEMENT_OPEN = re.compile(rb"<[A-Za-z_][\w.:\-]{0,64}\Z")
_ENCODED = re.compile(rb"[A-Za-z0-9+_\-][A-Za-z0-9+/=_\-]{15,}")
_CONSTANT = re.compile(rb"[A-Z][A-Z0-9_.]{1,63}")  # DB_PASSWORD: a name in capitals
_PROPERTY_THEN, _PAIR_SLASH = re.compile(rb"[ \t]+\S"), re.compile(rb"[ \t]*/[ \t]*[^\s/]")
_TYPED = re.compile(rb"[ \t]+[\w.]{1,40}[ \t]*:=")


def token_shaped(value: bytes) -> bool:
    """A value no word is: 12 characters or more, letters and digits or both cases, not a
    name made of words, a path or a placeholder (``Zq8rT…`` in a log's prose). A ``/`` is
    a path's unless the value is base64 of 16 or more with both cases and a digit in it
    (``3q2+7w/Zx9…``; a path has a dot, a ``_``, or starts with ``/``, ``.`` or ``~``)."""
    v = value.strip(b"'\"")
    # (the tests one by one in C: this runs at every trigger in prose, the slowest judges)
    return (len(v) >= 12 and (b"/" not in v or _SLASHED.fullmatch(v) is not None)
            and b":" not in v
            and _LETTER.search(v) is not None
            and (DIGIT.search(v) is not None or (v.lower() != v and v.upper() != v))
            and not plain_word(v)
            and not (_IDENT.fullmatch(v) is not None and _wordy(v)))


_LETTER = re.compile(rb"[A-Za-z]")
_SLASHED = re.compile(rb"(?=.*[A-Z])(?=.*[a-z])(?=.*[0-9])[A-Za-z0-9+][A-Za-z0-9+/]{15,}={0,2}")


def _flag_start(buf: bytes, start: int) -> bool:
    """Does the word holding the key word at ``start`` start with a dash (``--password``,
    ``--db-password``), as a command's option does?"""
    word = start
    while word > 0 and start - word < 64 and (buf[word - 1:word].isalnum() or
                                              buf[word - 1] in b"_-"):
        word -= 1
    return buf[word:word + 1] == b"-"


_NO_VALUE_FLAG = re.compile(rb"(?i)(?:ask|no|prompt|read|stdin|use|with|show|print)-$")
_BOX = re.compile("│|┃|║".encode())  # (alternatives: a class of bytes takes any byte of them)
_BOX_START = re.compile("\\||│|┃|║".encode())
_CLOSED = re.compile(rb"(?:\]\]>|</[A-Za-z][^<>\s]{0,32}>|['\"][,;)\]}]*)+$")
_CELL_END, _PAIR_END = re.compile("[ \t]*(?:\\||│|┃|║)".encode()), re.compile(rb"\s*\]")


def url_password(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                 ) -> str | None:
    # (a flag's value may be quoted; a line in an element, CDATA or a string ends in its
    # close, `requirepass yes</p>`, `'requirepass yes');`)
    value = _CLOSED.sub(b"", _value(match, groups)[0]).strip(b"'\"")
    if not value or value.lower() in _WORDS or _FILLER.fullmatch(value) or (
            _PLACEHOLDER.fullmatch(value)):
        return None  # (`requirepass ""`: none, redis' way to turn its password off)
    return kind


Check = Callable[[str, "re.Match[bytes]", bytes, tuple[str, ...]], "str | None"]
CHECKS: dict[str, Check] = {"key_value": key_value, "url_password": url_password}
"""The context tests by name (``_schemes``, ``_contexts``, ``_devices``… add their own)."""
