"""Rules that find several secrets at once, in a region the trigger opens: a markdown
table's credential column, cloud-init's and chpasswd's ``user:password`` lines, the
``KEY=VALUE`` words of a command that stores secrets. Each returns the secrets' spans and
where its region ends (the scanner reads a region once)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from toolpipe.secrets._lines import headed_then
from toolpipe.secrets._values import credential_like, line_start, plain_word

Spans = list[tuple[int, int]]


def _stands(value: bytes, judged: dict[bytes, bool], placed: bool = False) -> bool:
    """Is ``value`` a secret in a region that marks its values so? Not a label already, not
    a plain word (``null``, ``$VAR``, a path); where only its place says so (``placed``:
    a table cell, a ``user:pw`` line), one that could be a credential. Each value is
    judged once per region (``judged``)."""
    known = judged.get(value)
    if known is None:  # (a quote or two is a splice read as written, `<<< '"'"'pw'…`)
        known = judged[value] = len(value.strip(b"'\"` \t")) >= 4 and (
            could_be_credential(value) if placed else (
                b"[REDACTED:" not in value and not plain_word(value)))
    return known


def could_be_credential(value: bytes) -> bool:
    """A value only its place says is a credential: not a label already, not a plain word,
    one that could be a credential (see ``credential_like``)."""
    return b"[REDACTED:" not in value and not plain_word(value) and credential_like(value)

# user:password, one per line (cloud-init `chpasswd: list: |`, `echo 'u:pw' | chpasswd`)
_USER_PASSWORD = re.compile(rb"[ \t]*[A-Za-z_][A-Za-z0-9_.\-]{0,31}:(?P<v>[^\s:'\"]{1,256})"
                            rb"[ \t]*(?:\r?\n|$)")
_LIST = re.compile(rb"chpasswd:[^\n]*\n(?:[ \t]+[^\n]*\n){0,4}?[ \t]+list:[ \t]*[|>][-+]?"
                   rb"[ \t]*\r?\n")
_PIPED = re.compile(rb"(?:echo|printf)(?:[ \t]+-[a-z]+)*[ \t]+(?P<q>['\"]?)(?P<body>"
                    rb"[A-Za-z_][A-Za-z0-9_.\-]{0,31}:[^\s'\"|]{1,256}(?:(?:\\n|\n )"
                    rb"[A-Za-z_][A-Za-z0-9_.\-]{0,31}:[^\s'\"|]{1,256})*)(?P=q)[ \t]*\|[ \t]*"
                    rb"(?:sudo[ \t]+)?chpasswd\b")
_PAIR = re.compile(rb"[A-Za-z_][A-Za-z0-9_.\-]{0,31}:([^\s'\"|\\]{1,256})")


# a markdown table's header cell that names a credential column
_CREDENTIAL_HEADER = re.compile(
    rb"(?i)[*_`\s]*(?:[a-z]+[ _\-])?(?:password|passwd|passphrase|pwd|pass|secret|token|"
    rb"api[ _\-]?key|access[ _\-]?key|secret[ _\-]?key|private[ _\-]?key|credentials?|"
    rb"auth[ _\-]?token)s?[*_`\s]*")
_SEPARATOR_ROW = re.compile(rb"[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|?)+[ \t]*")
_TABLE_END = re.compile(rb"\n(?![ \t]*\|)")


def _table(buf: bytes, lo: int, found: re.Match[bytes], floor: int) -> tuple[Spans, int]:
    """A markdown table whose separator row (``|---|---|``) starts after the line break at
    ``lo``: the cells of its rows under a header that names a credential (``| user |
    password |``), and where the table ends (every row is read once, by one regex per
    credential column; a value seen before is not judged again)."""
    end = buf.find(b"\n", lo + 1)
    hi = len(buf) if end < 0 else end
    if not _SEPARATOR_ROW.fullmatch(buf, lo + 1, hi):
        return [], lo + 1
    stop = _TABLE_END.search(buf, hi + 1) if hi < len(buf) else None
    table_end = stop.start() if stop is not None else len(buf)
    header = buf[line_start(buf, lo):lo].strip().strip(b"|").split(b"|")
    out: Spans = []
    judged: dict[bytes, bool] = {}
    verdicts: dict[bytes, bool] = {}  # a cell's text: a secret? (judged once per table)
    for column, cell in enumerate(header):
        if not _CREDENTIAL_HEADER.fullmatch(cell):
            continue
        row = re.compile(rb"(?m)^[ \t]*\|(?:[^|\n]*\|){%d}[ \t]*`?([^|`\n]*?)`?[ \t]*(?:\||$)"
                         % column)
        # the column's values first, in one C pass; where none is a secret (a table of
        # names and notes), no row needs its place
        secrets = False
        for value in dict.fromkeys(row.findall(buf, hi + 1, table_end)):
            secret = verdicts.get(value)
            if secret is None:
                secret = bool(value) and b"[REDACTED:" not in value
                if secret and len(verdicts) < CELL_BUDGET:
                    # a note in brackets, `(unset)`, is a word too
                    # (and stars alone, `********`, are a mask)
                    inner = value.strip(b"()[]<>*_")
                    secret = bool(inner) and credential_like(value) and _stands(
                        inner, judged) and not _NOTE.fullmatch(value)
                    verdicts[value] = secret
                # past the budget, a cell of a credential column is a secret unjudged: a
                # table of distinct values, one per row, cannot make the reading slow (a
                # second pass sees labels there, and judges only what the first judged)
                elif secret:
                    verdicts[value] = secret
            secrets = secrets or secret
        if secrets:
            out += [cell_found.span(1) for cell_found in row.finditer(buf, hi + 1, table_end)
                    if verdicts.get(cell_found.group(1))]
    return out, table_end


# a note of words in brackets, `(in the vault)`, `<see 1Password>`, `[rotated monthly]`
_NOTE = re.compile(rb"\([^()]* [^()]*\)|\[[^\[\]]* [^\[\]]*\]|<[^<>]* [^<>]*>")
CELL_BUDGET = 1024  # distinct values judged per table, as TRIGGER_BUDGET per text


def _chpasswd(buf: bytes, start: int, found: re.Match[bytes], floor: int
              ) -> tuple[Spans, int]:
    """cloud-init's ``chpasswd: list: |`` block, or ``echo 'user:pw' | chpasswd`` ending on
    the line the trigger is in (the echo up to 1 KB before it)."""
    out: Spans = []
    judged: dict[bytes, bool] = {}
    listed = _LIST.match(buf, start)
    if listed is not None:
        at = listed.end()
        while True:
            line = _USER_PASSWORD.match(buf, at)
            if line is None or line.start("v") == line.end("v"):
                break
            if _stands(line.group("v"), judged, placed=True):
                out.append(line.span("v"))
            at = line.end()
        return out, at
    # the echo may be a line or two before (a "\\n" in it is read as a line break)
    line_end = buf.find(b"\n", start)
    for m in _PIPED.finditer(buf, max(0, start - 1024), len(buf) if line_end < 0 else line_end):
        if m.end() < start:
            continue
        body_at = m.start("body")
        for pair in _PAIR.finditer(m.group("body")):
            if _stands(pair.group(1), judged, placed=True):
                out.append((body_at + pair.start(1), body_at + pair.end(1)))
    return out, start + 1


# a literal echoed into a program that reads a password on its input: `echo 'pw' | docker
# login --password-stdin`, `printf '%s' pw | gpg --passphrase-fd 0`, `echo pw | sudo -S …`;
# or given it as a here-string (`… --password-stdin <<< 'pw'`). Found without a search: the
# pipe before the trigger, the command before that pipe, one anchored match each.
_ALTERNATIVES = (rb"'(?P<sq>[^'\n]{1,512})'|\"(?P<dq>[^\"\n]{1,512})\""
                 rb"|(?P<bare>[^\s'\"|;&$`<][^\s|;&]{0,511})")
_VALUE = rb"(?:" + _ALTERNATIVES + rb")"
# (the scanner reads an escape as a break and a blank: `printf '%s\n' pw` is `printf '%s`,
# a break, ` ' pw`; `printf 'pw\npw\n'` a literal broken in three)
_BROKEN = rb"(?:[^'\n]|\n ){1,512}"
_ECHOED = re.compile(rb"[ \t]*(?:echo|printf)(?:[ \t]+-[a-zE]+)*"
                     rb"(?:[ \t]+(?:'%s(?:\n )*'|\"%s(?:\n )*\"|%s(?:\n )*))?"
                     rb"[ \t]+(?:" + _ALTERNATIVES + rb"|'(?P<broken>" + _BROKEN + rb")'"
                     rb"|\"(?P<dbroken>" + _BROKEN.replace(b"'", b'"') + rb")\")[ \t]*")
_HERE = re.compile(rb"<<<[ \t]*" + _VALUE)
# what ends a command line here: a separator, a line break, or a label (which may stand
# for a redacted block that held a line break: a second reading must read as the first)
_BREAK = re.compile(rb"[|;&\n]|\[REDACTED:")


def _echoed_into(buf: bytes, start: int) -> re.Match[bytes] | None:
    """``echo X |`` just before ``start``, on its command line; a break the scanner made
    of an escape (a break, then a blank) does not end that line (up to four of them)."""
    line = line_start(buf, start, 1024)
    pipe = buf.rfind(b"|", line, start)
    if pipe < 0 or _BREAK.search(buf, pipe + 1, start) is not None:
        return None
    for _ in range(5):
        begin = max(buf.rfind(b"|", line, pipe), buf.rfind(b";", line, pipe),
                    buf.rfind(b"&", line, pipe), line - 1) + 1
        echoed = _ECHOED.fullmatch(buf, begin, pipe) if pipe - begin <= 640 else None
        if echoed is None and begin == line and pipe - begin <= 640:
            # after a line's head: set -x's `+ `, a prompt, a log's header
            echoed = headed_then(buf, line, pipe, _ECHOED)
        if echoed is not None or line < 2 or buf[line - 1:line + 1] != b"\n ":
            return echoed
        line = line_start(buf, line - 1, 1024)
    return None


def _stdin_fed(buf: bytes, start: int, found: re.Match[bytes], floor: int
               ) -> tuple[Spans, int]:
    """The password a program told to read it on its input (the trigger) is fed: echoed
    into it just before, or given as a here-string after it, on the same command line."""
    judged: dict[bytes, bool] = {}
    out: Spans = []
    found_at: list[re.Match[bytes] | None] = [_echoed_into(buf, start)]
    here = buf.find(b"<<<", found.end(), found.end() + 256)
    if here >= 0 and _BREAK.search(buf, found.end(), here) is None:
        found_at.append(_HERE.match(buf, here))
    for m in found_at:
        if m is not None and m.lastgroup and _stands(m.group(m.lastgroup), judged):
            out.append(m.span(m.lastgroup))  # the one of sq, dq, bare that holds it
    return out, start + 1


_VALUE_ATTRIBUTE = re.compile(rb'\svalue\s*=\s*(?:"(?P<dq>[^"<>\n]{1,512})"'
                              rb"""|'(?P<sq>[^'<>\n]{1,512})'|(?P<bare>[^\s"'<>=`]{1,512}))""",
                              re.I)


def _html_input(buf: bytes, start: int, found: re.Match[bytes], floor: int
                ) -> tuple[Spans, int]:
    """``<input type="password" value="…">``: the value of a password field, wherever the
    attribute stands in its tag (before ``type`` too)."""
    opened = buf.rfind(b"<", max(0, start - 512), start)
    closed = buf.find(b">", start, start + 512)
    if opened < 0 or closed < 0 or buf.find(b">", opened, start) >= 0:
        return [], start + 1
    judged: dict[bytes, bool] = {}
    out: Spans = []
    for m in _VALUE_ATTRIBUTE.finditer(buf, opened, closed):
        if m.lastgroup and _stands(m.group(m.lastgroup), judged):
            out.append(m.span(m.lastgroup))  # the one of dq, sq, bare that holds it
    return out, start + 1


_GRAPHQL_ARGUMENT = re.compile(
    rb"(?i:password|passwd|passphrase|secret|token|apikey|api_key|credential)\w{0,20}"
    rb"\s*:\s*\$(?P<name>[A-Za-z_]\w{0,63})")


def _graphql_vars(buf: bytes, start: int, found: re.Match[bytes], floor: int
                  ) -> tuple[Spans, int]:
    """GraphQL's variables: each one the operation before passes as a credential-named
    argument (``login(password: $p)``) has its value redacted. The operation is looked for
    back to the last trigger of this kind of rule (``floor``) and at most 4 KB, the
    variables up to their closing brace: a text of many operations is read once back."""
    back = max(floor, start - 4096, 0)
    names = {m.group("name") for m in _GRAPHQL_ARGUMENT.finditer(buf, back, start)}
    if not names:
        return [], start + 1  # (a region past here would hide other rules' triggers)
    end = buf.find(b"}", found.end(), found.end() + 4096)
    end = min(len(buf), found.end() + 4096) if end < 0 else end
    judged: dict[bytes, bool] = {}
    out: Spans = []
    for m in _JSON_STRING_MEMBER.finditer(buf, found.end(), end):
        if m.group("name") in names and _stands(m.group("v"), judged):
            out.append(m.span("v"))
    return out, start + 1  # the next operation's look back starts here


_JSON_STRING_MEMBER = re.compile(rb'"(?P<name>[A-Za-z_]\w{0,63})"\s*:\s*"(?P<v>[^"\n]{1,512})"')


_ASSIGNMENT = re.compile(rb"(?:(?<=[ \t])|(?<=--from-literal=))[A-Za-z_][A-Za-z0-9_.\-]{0,127}="
                         rb"(?P<v>'[^'\n]{1,1024}'|\"[^\"\n]{1,1024}\"|[^\s'\"@;|&][^\s;|&]{0,1023})")


def _assignments(buf: bytes, start: int, found: re.Match[bytes], floor: int
                 ) -> tuple[Spans, int]:
    """``vault kv put PATH k=v``, ``fly secrets set K=V``, ``kubectl create secret …
    --from-literal=K=V``: every value given, to the end of the command."""
    if found.group(0).startswith(b"--from"):  # kubectl: only `create secret`'s literals
        line = buf[line_start(buf, start):start]
        if b"secret" not in line:
            return [], start + 1
    end = min(len(buf), found.end() + 4096)  # one command line, at most 4 KB
    for stop in (b"\n", b"|", b";", b"&&"):
        at = buf.find(stop, found.end(), end)
        if at >= 0:
            end = at
    out: Spans = []
    judged: dict[bytes, bool] = {}
    for m in _ASSIGNMENT.finditer(buf, found.end(), end):
        value = m.group("v").strip(b"'\"")
        if len(value) >= 4 and _stands(value, judged):
            lo, hi = m.span("v")
            if m.group("v")[:1] in (b"'", b'"'):
                lo, hi = lo + 1, hi - 1
            out.append((lo, hi))
    return out, end


_DOC_END = re.compile(rb"\n---|\n\.\.\.")
_YAML_BLOCK = re.compile(rb"(?m)^(?P<indent>[ \t]*)(?:data|stringData):[ \t]*\r?\n")
_YAML_ITEM = re.compile(rb"(?m)^[ \t]+[\w.\-]{1,253}:[ \t]+(?P<v>[^\s#][^\n]{0,8191}?)[ \t]*$")
_JSON_BLOCK = re.compile(rb"\"(?:data|stringData)\"[ \t]*:[ \t]*\{(?P<body>[^{}]{0,65536})\}")
_JSON_ITEM = re.compile(rb"\"[\w.\-]{1,253}\"[ \t]*:[ \t]*\"(?P<v>[^\"\\]{1,8192})\"")


@functools.lru_cache(maxsize=16)
def _shallow(indent: int) -> re.Pattern[bytes]:
    """A line indented no deeper than ``indent``."""
    return re.compile(rb"(?m)^(?![ \t]{%d}[ \t])" % indent)


def _kube_secret(buf: bytes, start: int, found: re.Match[bytes], floor: int
                 ) -> tuple[Spans, int]:
    """A Kubernetes Secret (``kind: Secret``, in YAML or JSON, as ``kubectl get secret -o
    yaml`` prints it): every value under its ``data`` and ``stringData``, whatever the key
    (kubectl puts ``data:`` before ``kind:``, so the whole document is read, each block to
    its end; a value seen before is not judged again)."""
    # the document: back to its --- (not before what an earlier Secret's reading covered)
    back = max(0, start - 65536, floor)
    lo = max(buf.rfind(b"\n---", back, start), buf.rfind(b"\n...", back, start), back)
    lo = line_start(buf, lo) if lo else 0  # from the start of its line
    stop = _DOC_END.search(buf, start)
    hi = min(stop.start() if stop is not None else len(buf), start + 65536)
    out: Spans = []
    judged: dict[bytes, bool] = {}
    end = hi
    # a header that starts before hi (its line may end a little after), each block read whole
    for block in _YAML_BLOCK.finditer(buf, lo, min(len(buf), hi + 64)):
        if block.start() >= hi:
            break
        outer = len(block.group("indent"))
        edge = _shallow(outer).search(buf, block.end())  # the first line not inside it
        block_end = edge.start() if edge is not None else len(buf)
        for item in _YAML_ITEM.finditer(buf, block.end(), block_end):
            if _stands(item.group("v"), judged):
                out.append(item.span("v"))
        end = max(end, block_end)
    for block in _JSON_BLOCK.finditer(buf, lo, hi):
        at = block.start("body")
        for item in _JSON_ITEM.finditer(block.group("body")):
            if _stands(item.group("v"), judged):
                out.append((at + item.start("v"), at + item.end("v")))
    return out, end


Several = Callable[[bytes, int, "re.Match[bytes]", int], "tuple[Spans, int]"]
SEVERAL: dict[str, Several] = {"table": _table, "chpasswd": _chpasswd,
                               "assignments": _assignments, "kube_secret": _kube_secret,
                               "stdin_fed": _stdin_fed, "html_input": _html_input,
                               "graphql_vars": _graphql_vars}
