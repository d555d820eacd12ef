"""Credentials known by the column or the name paired with them in data: a SQL INSERT's
column list (``INSERT INTO t (login, pass) VALUES ('a', '…')``), a CSV or TSV header
(``username,password`` then ``alice,…``), PHP's ``serialize`` (``s:8:"password";s:…:"…"``),
a heredoc under a credential's name (``password = <<EOT``, HCL and shell alike)."""

from __future__ import annotations

import re

from toolpipe.secrets._rule import CONTEXT, Rule, rule
from toolpipe.secrets._several import SEVERAL, Spans, _stands, could_be_credential
from toolpipe.secrets._values import CHECKS, line_start

# a column or key named for a credential (not `password_changed`, `token_count`)
_NAMED = re.compile(
    rb"(?i)[`\"'\[]?(?:[a-z]+[_\-])?(?:password|passwd|passphrase|pwd|pass|secret|token|"
    rb"api[_\-]?key|access[_\-]?key|secret[_\-]?key|private[_\-]?key|credentials?|"
    rb"client[_\-]?secret|auth[_\-]?token)[`\"'\]]?")
_SQL_VALUE = re.compile(rb"""\s*(?:'((?:[^'\\]|\\.|'')*)'|"((?:[^"\\]|\\.)*)"|([^,()\s]+))\s*""")
_NEXT_ROW = re.compile(rb"\s*,\s*\(")  # `), (`: the next row of an INSERT
MAX_ROWS = 256  # rows of a CSV read under one header


def _credential_columns(cols: bytes) -> list[int]:
    """The places in a column list (`id, login, password`) of the columns named for a
    credential."""
    return [i for i, c in enumerate(cols.split(b",")) if _NAMED.fullmatch(c.strip())]


def _sql_columns(buf: bytes, start: int, found: re.Match[bytes], floor: int
                 ) -> tuple[Spans, int]:
    """INSERT INTO t (cols…) VALUES (…), (…): each row's value in a credential's column."""
    wanted = _credential_columns(found.group("cols"))
    if not wanted:
        return [], found.end()
    out: Spans = []
    judged: dict[bytes, bool] = {}
    at = found.start("vals") - 1  # the first row's "("
    end = min(len(buf), found.end() + 65536)
    for _ in range(MAX_ROWS):
        if at >= end or buf[at:at + 1] != b"(":
            break
        values: list[tuple[int, int]] = []
        pos = at + 1
        while pos < end:
            m = _SQL_VALUE.match(buf, pos, end)
            if m is None:
                break
            group = next((g for g in (1, 2, 3) if m.group(g) is not None), 0)
            values.append(m.span(group) if group else (pos, pos))
            pos = m.end()
            if buf[pos:pos + 1] != b",":
                break
            pos += 1
        for i in wanted:
            if i < len(values):
                lo, hi = values[i]
                if hi - lo >= 4 and _stands(buf[lo:hi], judged):
                    out.append((lo, hi))
        close = buf.find(b")", pos, end)
        if close < 0:
            break
        nxt = _NEXT_ROW.match(buf, close + 1, end)
        if nxt is None:
            break
        at = nxt.end() - 1
    return out, found.end()


_DELIMITERS = (b",", b";", b"\t", b"|")


def _csv(buf: bytes, start: int, found: re.Match[bytes], floor: int) -> tuple[Spans, int]:
    """A header line naming a credential column (``username,password,role``), and the
    rows after it, split at the same delimiter: that column's cells."""
    lo = line_start(buf, start)
    hi = buf.find(b"\n", start)
    if hi < 0:
        return [], len(buf)
    header = buf[lo:hi].rstrip(b"\r")
    delimiter = next((d for d in _DELIMITERS if d in header), None)
    if delimiter is None or header.lstrip().startswith(b"|"):
        return [], hi  # (a markdown table is the table rule's)
    names = header.split(delimiter)
    wanted = [i for i, n in enumerate(names) if _NAMED.fullmatch(n.strip())]
    if not wanted or len(names) < 2:
        return [], hi
    out: Spans = []
    judged: dict[bytes, bool] = {}
    pos = hi + 1
    for _ in range(MAX_ROWS):
        end = buf.find(b"\n", pos)
        end = len(buf) if end < 0 else end
        row = buf[pos:end].rstrip(b"\r")
        cells = row.split(delimiter)
        if len(cells) != len(names):
            break  # not a row of this table
        offset = pos
        starts = []
        for cell in cells:
            starts.append(offset)
            offset += len(cell) + len(delimiter)
        for i in wanted:
            cell = cells[i].strip().strip(b"\"'")
            # (its column says what it is: any value but a plain word, as a key's)
            if len(cell) >= 4 and not cell.isdigit() and _stands(cell, judged):
                at = buf.find(cell, starts[i], starts[i] + len(cells[i]))
                out.append((at, at + len(cell)))
        if end >= len(buf):
            pos = end
            break
        pos = end + 1
    return out, max(pos, hi)


def _copy_rows(buf: bytes, start: int, found: re.Match[bytes], floor: int
               ) -> tuple[Spans, int]:
    """PostgreSQL's ``COPY t (cols…) FROM stdin;`` (pg_dump's data): each row after it,
    up to its ``\\.`` line, split at tabs (or at the escaped tabs the scanner reads as a
    line break and a blank): the cells of its credential columns."""
    wanted = _credential_columns(found.group("cols"))
    if not wanted:
        return [], found.end()
    stop = buf.find(b"\n\\.", found.end(), found.end() + 65536)
    end = min(len(buf), found.end() + 65536) if stop < 0 else stop
    region = buf[found.end():end].replace(b"\n ", b" \t")  # (the same length)
    out: Spans = []
    judged: dict[bytes, bool] = {}
    pos = 0
    for row in region.split(b"\n")[:MAX_ROWS]:
        offset = pos
        for i, cell in enumerate(row.split(b"\t")):
            value = cell.strip()
            if i in wanted and len(value) >= 4 and value != b"\\N" and _stands(value, judged):
                at = found.end() + offset + cell.find(value)
                out.append((at, at + len(value)))
            offset += len(cell) + 1
        pos += len(row) + 1
    return out, end


SEVERAL["sql_columns"] = _sql_columns
SEVERAL["csv"] = _csv
SEVERAL["copy_rows"] = _copy_rows


_PHP_NAME = re.compile(rb's:\d{1,4}:"([^"\n]{1,64})\Z')


def serialized(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
               ) -> str | None:
    """PHP's ``s:N:"name";s:M:"value"``: the value, when the name before it is a
    credential's (the trigger is the ``";s:`` between them)."""
    name = _PHP_NAME.search(buf[max(0, match.start() - 80):match.start()])
    if name is None or not _NAMED.fullmatch(name.group(1)):
        return None
    value = match.group("v")
    return kind if could_be_credential(value) else None


_HEREDOC_KEY = re.compile(rb"""(?i)(?:password|passwd|passphrase|secret|token|api[_\-]?key|"""
                          rb"""private[_\-]?key|credentials?)["']?[ \t]*$""")


def heredoc(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
            ) -> str | None:
    """``NAME = <<EOT`` then the value: when the name before ``=`` is a credential's."""
    before = buf[line_start(buf, match.start()):match.start()]
    if not _HEREDOC_KEY.search(before):
        return None
    value = match.group("v").strip()
    return kind if could_be_credential(value) else None


_GO_NAME = re.compile(rb"(?i)(?:password|passwd|passphrase|pwd|secret|token|api_?key|"
                      rb"access_?key|private_?key|credentials?)$")


def typed_var(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
              ) -> str | None:
    """Go's ``var apiToken string = "…"``: when the name ends with a credential's word."""
    if not _GO_NAME.search(match.group("name")):
        return None
    value = match.group("v")
    return kind if could_be_credential(value) else None


CHECKS["serialized_value"] = serialized
CHECKS["typed_var"] = typed_var
CHECKS["heredoc"] = heredoc

# the credential words a CSV header may hold, next to a delimiter
_HEADER_WORDS = ("password", "passwd", "pwd", "pass", "secret", "token", "api_key", "apikey",
                 "api-key", "client_secret", "access_key", "private_key")
# a header's name holding one of them (`db_password`, `API-KEY`), as the rules spell it
_HEADER_NAME = (r"""(?i:[a-z_\-]{0,16}(?:password|passwd|pwd|pass|secret|token|api[_\-]?key|"""
                r"""access[_\-]?key|private[_\-]?key))""")
_QUOTED_NAMES_TO_END = r"""(?:[,;\t|]"[^"\n]{0,64}")*[ \t]*\r?\n"""

TABULAR_RULES: tuple[Rule, ...] = (
    rule("password", ("copy ",),
         r"""(?i:copy)[ \t]+[\w."]{1,128}[ \t]*\((?P<cols>[^()\n]{1,512})\)[ \t]+"""
         r"""(?i:from[ \t]+stdin)[^\n]{0,64}\n""",
         check="copy_rows", bounded=True, priority=CONTEXT,
         shape=r"""[\w."]+[ \t]*\("""),
    rule("password", ("insert into",),
         r"""(?i:insert[ \t]+into)[ \t]+[\w."`\[\]]{1,128}[ \t]*\((?P<cols>[^()\n]{1,512})\)"""
         r"""\s*(?i:values)\s*\((?P<vals>)""",
         check="sql_columns", bounded=False, priority=CONTEXT),
    rule("password", tuple(d + w for w in _HEADER_WORDS for d in (",", ";", "\t", "|"))
         + tuple(w + d for w in _HEADER_WORDS for d in (",", ";", "\t", "|")),
         r"[,;\t|]?" + _HEADER_NAME + r"(?:[,;\t|]|\r?\n)",
         check="csv", bounded=False, priority=CONTEXT),
    # a header whose names are quoted (`"id","login","api_token"`): found from the word and
    # its closing quote, where only quoted names and delimiters follow to the line's end
    rule("password", tuple(w + '"' for w in _HEADER_WORDS),
         _HEADER_NAME + '"' + _QUOTED_NAMES_TO_END,
         check="csv", bounded=False, priority=CONTEXT, shape=_QUOTED_NAMES_TO_END),
    rule("password", ('";s:',),
         r"""";s:\d{1,6}:"(?P<v>[^"\n]{1,4096})";""",
         value=("v",), check="serialized_value", bounded=False, priority=CONTEXT),
    # an element named for a credential whose <Value> child holds it (Windows' answer
    # files: <Password><Value>…</Value><PlainText>true</PlainText></Password>)
    # (and a name in a <Key> element, its <Value> after it: KeePass' XML export)
    rule("password", ("password>", "passwd>", "secret>", "token>", "password</", "passwd</",
                      "secret</", "token</", "passphrase</", "pin</"),
         r"""(?i:password|passwd|secret|token|passphrase|pin)(?:>|</(?i:key|name)>)\s{0,64}"""
         r"""<(?i:value)(?:\s[^<>/]{0,128})?>(?P<v>[^<\s][^<\n]{0,255})</(?i:value)>""",
         value=("v",), check="url_password", bounded=False, priority=CONTEXT),
    rule("password", ("var ",),
         r"""var[ \t]+(?P<name>\w{1,64})[ \t]+[\w.*\[\]]{1,24}[ \t]*=[ \t]*"""
         r'"(?P<v>[^"\n]{4,512})"',
         value=("v",), check="typed_var", bounded=True, priority=CONTEXT),
    rule("password", ("= <<", "=<<", "=$(cat <<", "= $(cat <<"),
         r"""=[ \t]*(?:\$\(cat[ \t]+)?<<-?["']?(?P<tag>[A-Za-z_]{1,16})["']?[ \t]*\r?\n"""
         r"""[ \t]*(?P<v>[^\n]{4,4096})""",
         value=("v",), check="heredoc", bounded=False, priority=CONTEXT),
)
