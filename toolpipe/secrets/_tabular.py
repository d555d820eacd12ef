"""Credentials known by the column or the name paired with them in data: a SQL INSERT's
column list (``INSERT INTO t (login, pass) VALUES ('a', '…')``), a CSV or TSV header
(``username,password`` then ``alice,…``), PHP's ``serialize`` (``s:8:"password";s:…:"…"``),
a heredoc under a credential's name (``password = <<EOT``, HCL and shell alike)."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from toolpipe.secrets._cells import (
    BOX_BARS,
    DELIMITERS,
    MARKDOWN_ROW,
    OPENING_BARS,
    RULE_ROW,
    cells,
)
from toolpipe.secrets._languages import LABELS
from toolpipe.secrets._rule import CONTEXT, Rule, rule
from toolpipe.secrets._several import SEVERAL, Spans, _stands, could_be_credential
from toolpipe.secrets._values import CHECKS, line_start

# a column or key named for a credential (not `password_changed`, `token_count`)
# (and "password" in other languages, `_languages.LABELS`: a table's `Passwort` column)
_FOREIGN = tuple(dict.fromkeys((*LABELS, *(w[0].upper() + w[1:] for w in LABELS))))
_NAMED = re.compile(
    rb"(?i)[`\"'\[]?(?:[a-z]+[_\-])?(?:password|passwd|passphrase|pwd|pass|secret|token|"
    rb"api[_\-]?key|access[_\-]?key|secret[_\-]?key|private[_\-]?key|credentials?|"
    rb"client[_\-]?secret|auth[_\-]?token|"
    + b"|".join(re.escape(w.encode()) for w in _FOREIGN) + rb")[`\"'\]]?")
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


def _csv(buf: bytes, start: int, found: re.Match[bytes], floor: int) -> tuple[Spans, int]:
    """A header line naming a credential column (``username,password,role``, psql's and
    mysql's tables too, their names padded to the columns' widths), and the rows after
    it, split at the same delimiter: that column's cells (a table's rules between rows,
    `-----+-----`, `+-----+`, skipped). A line whose other cells hold
    values, not names, is a row itself (``DB_PASSWORD,…``, ``password | …``): the cell
    after the credential's name is its value."""
    lo = line_start(buf, start)
    hi = buf.find(b"\n", start)
    hi = len(buf) if hi < 0 else hi
    return _read_table(buf, lo, hi)


# a line that is a call's argument list: an open bracket before the first comma, its close
# after the last (`f(user, password, domain);`, `new X(a, b)`)
_CALL_ARGUMENTS = re.compile(rb"[^,(\n]*\([^()\n]*,[^()\n]*\)[^,\n]*")


def _read_table(buf: bytes, lo: int, hi: int) -> tuple[Spans, int]:
    """The table whose header is the line at ``lo:hi`` (see ``_csv``)."""
    header = buf[lo:hi].rstrip(b"\r")
    delimiter = next((d for d in DELIMITERS if d in header), None)
    if delimiter is None:
        return [], hi
    if delimiter == b"|" and header.lstrip().startswith(b"|"):
        after = buf.find(b"\n", hi + 1)
        if MARKDOWN_ROW.fullmatch(buf, hi + 1, len(buf) if after < 0 else after):
            return [], hi  # (a markdown table is the table rule's)
    if delimiter == b"," and _CALL_ARGUMENTS.fullmatch(header):
        return [], hi  # a call's arguments (`NetworkCredential(user, password, domain)`):
        # the call rules read them by position (_calls), no cell is a value
    places = cells(header, lo, delimiter)
    names = [buf[a:b].strip() for a, b in places]
    wanted = [i for i, n in enumerate(names) if _NAMED.fullmatch(n)]
    if not wanted or len(names) < 2:
        return [], hi
    out: Spans = []
    judged: dict[bytes, bool] = {}
    # a row, not a header (not a markdown or boxed row, `| password | str | … |`, `│ … │`: the
    # table rule reads those under their header; nor a line over a table's rule, which
    # is its header whatever its names look like: `DB_PASSWORD | user` over `---+---`)
    # (a box's row is a header only over its rule: `│ DB_PASSWORD │ … │` among its rows
    # is the other rules', a second reading must not take it for a header; a line
    # holding a label, `password<TAB>[REDACTED:…]`, is a row read before)
    after = buf.find(b"\n", hi + 1)
    ruled = RULE_ROW.fullmatch(buf, hi + 1, len(buf) if after < 0 else after) is not None
    if delimiter in BOX_BARS and not ruled and header.lstrip().startswith(OPENING_BARS):
        return [], hi  # (a boxed row; `passwd │ …`, psql's expanded record, is a row)
    if any(b"[REDACTED:" in n for n in names) or (
            not header.lstrip().startswith(OPENING_BARS) and not ruled and not all(
                _a_name(n.strip(b"\"'")) for n in names)):
        for i in wanted:
            if i + 1 < len(places):
                out += _cell(buf, places[i + 1], judged, placed=True)
        return out, hi
    pos = hi + 1
    for _ in range(MAX_ROWS):
        if pos > len(buf):
            break
        end = buf.find(b"\n", pos)
        end = len(buf) if end < 0 else end
        row = buf[pos:end].rstrip(b"\r")
        if not RULE_ROW.fullmatch(row):
            row_cells = cells(row, pos, delimiter)
            while len(row_cells) > len(names) and not buf[slice(*row_cells[-1])].strip():
                row_cells.pop()  # (a row's trailing delimiter: an export's, an empty cell)
            if len(row_cells) != len(names) or _header_again(
                    [buf[a:b].strip() for a, b in row_cells], names, wanted):
                break  # not a row of this table
            for i in wanted:
                out += _cell(buf, row_cells[i], judged)
        pos = end + 1
    return out, max(pos - 1, hi)


_WORDS_NAME = re.compile(rb"(?:#[ \t]*)?[A-Za-z][A-Za-z0-9_.\-/()]*(?: [A-Za-z0-9_.\-/()]+)+"
                         rb"|#[ \t]*[A-Za-z][A-Za-z0-9_.\-/()]*")


def _a_name(cell: bytes) -> bool:
    """Could this cell be a column's name (a header's), not a value? Not a credential's
    shape, or words between single blanks (`IP addresses`), or a commented header's first
    name (`# client`)."""
    return not could_be_credential(cell) or _WORDS_NAME.fullmatch(cell) is not None


def _cell(buf: bytes, place: tuple[int, int], judged: dict[bytes, bool],
          placed: bool = False) -> Spans:
    """A credential column's cell, when it holds one (its column says what it is: any
    value but a plain word, as a key's; ``placed``: one that could be a credential)."""
    raw = buf[place[0]:place[1]]
    cell = raw.strip().strip(b"\"'`")
    if len(cell) >= 4 and not cell.isdigit() and _stands(cell, judged, placed):
        at = buf.find(cell, place[0], place[1])
        return [(at, at + len(cell))]
    return []


_GAP = re.compile(rb"[ \t]{2,}")
_COLUMN_NAME = re.compile(rb"[A-Za-z][A-Za-z0-9 _.\-/()]{0,40}")


@functools.lru_cache(maxsize=256)
def _header_columns(header: bytes
                    ) -> tuple[tuple[int, ...], tuple[bytes, ...], tuple[int, ...]] | None:
    """Where each name of a header of names aligned by blanks starts, the names, and which
    name a credential's (``None``: not such a header). Kept: a table printed again
    (`kubectl get` in a loop) brings the same header."""
    starts, names = [], []
    at = len(header) - len(header.lstrip())
    for name in _GAP.split(header.strip()):
        if not _COLUMN_NAME.fullmatch(name) or not _a_name(name):
            return None  # not a header of names
        at = header.find(name, at)
        starts.append(at)
        names.append(name)
        at += len(name)
    wanted = tuple(i for i, n in enumerate(names) if _NAMED.fullmatch(n))
    return (tuple(starts), tuple(names), wanted) if wanted and len(names) >= 2 else None


def _aligned(buf: bytes, start: int, found: re.Match[bytes], floor: int
             ) -> tuple[Spans, int]:
    """Columns aligned by blanks under a header of names (kubectl's, docker's, `column
    -t`'s: ``NAME    PASSWORD    AGE``): each row's cell that starts where a credential's
    name starts, left-aligned under it (a row that is not ends the table)."""
    lo = line_start(buf, start)
    hi = buf.find(b"\n", start)
    hi = len(buf) if hi < 0 else hi
    columns = _header_columns(buf[lo:hi].rstrip(b"\r"))
    if columns is None:
        return [], hi
    starts, names, wanted = columns
    out: Spans = []
    judged: dict[bytes, bool] = {}
    pos = hi + 1
    for _ in range(MAX_ROWS):
        if pos >= len(buf):
            break
        end = buf.find(b"\n", pos)
        end = len(buf) if end < 0 else end
        row = buf[pos:end].rstrip(b"\r")
        # a row of this table: a cell starts where each credential's name does (what
        # comes before it ends in a blank); the cell runs to the next gap of blanks (a
        # value wider than its column pushes the next one right)
        if not all(c < len(row) and row[c:c + 1] not in b" \t" and (
                c == 0 or row[c - 1:c] in b" \t") for c in (starts[i] for i in wanted)):
            break
        if _header_again(_GAP.split(row.strip()), names, wanted):
            break
        for c in (starts[i] for i in wanted):
            gap = _GAP.search(row, c)
            out += _cell(buf, (pos + c, pos + (gap.start() if gap else len(row))), judged,
                         placed=True)
        pos = end + 1
    return out, max(pos - 1, hi)


def _header_again(cells: Sequence[bytes], names: Sequence[bytes], wanted: Sequence[int]
                  ) -> bool:
    """Is this row (its cells' texts) the header again (the next table's: its other names
    the same, or its credential's name again)? It ends the table it would be read in (a
    table under it is read from its own header, or not at all: as a second reading
    would)."""
    if len(cells) != len(names):
        return False
    if any(_NAMED.fullmatch(cells[i]) for i in wanted):
        return True
    others = [i for i in range(len(names)) if i not in wanted]
    return bool(others) and all(cells[i] == names[i] for i in others)


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
SEVERAL["aligned"] = _aligned
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
                 "api-key", "client_secret", "access_key", "private_key", *_FOREIGN)
# a header's name holding one of them (`db_password`, `API-KEY`), as the rules spell it
_HEADER_NAME = (r"""(?i:[a-z_\-]{0,16}(?:password|passwd|pwd|pass|secret|token|api[_\-]?key|"""
                r"""access[_\-]?key|private[_\-]?key|"""
                + "|".join(re.escape(w) for w in _FOREIGN) + "))")
# a header's last name (not `pass` nor `pwd`: Python's statement, the shell's command)
_AT_LINE_END = tuple(w + "\n" for w in _HEADER_WORDS if w not in ("pass", "pwd"))
_QUOTED_NAMES_TO_END = r"""(?:[,;\t|]"[^"\n]{0,64}")*[ \t]*(?:\r?\n|$)"""  # (or the text's end)

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
    # (a name padded to its column's width before the bar, psql's and mysql's; a name
    # that ends the header, `db_password` then the line's end)
    # (and a box's bars, `│ password │`: psql's unicode style, rich's, a grid's)
    rule("password", tuple(d + w for w in _HEADER_WORDS for d in (",", ";", "\t", "|"))
         + tuple(w + d for w in _HEADER_WORDS for d in (",", ";", "\t", "|", " |", "  ",
                                                        " │", " ┃", " ║"))
         + _AT_LINE_END,
         r"[,;\t|]?" + _HEADER_NAME + r"[ \t]*(?:[,;\t|]|│|┃|║|\r?\n)",
         check="csv", bounded=False, priority=CONTEXT),
    # a header whose names are quoted (`"id","login","api_token"`): found from the word and
    # its closing quote, where only quoted names and delimiters follow to the line's end
    rule("password", tuple(w + '"' for w in _HEADER_WORDS),
         _HEADER_NAME + '"' + _QUOTED_NAMES_TO_END,
         check="csv", bounded=False, priority=CONTEXT, shape=_QUOTED_NAMES_TO_END),
    # columns aligned by blanks, a credential's name among the header's names
    rule("password", tuple(w + "  " for w in _HEADER_WORDS) + _AT_LINE_END,
         _HEADER_NAME + r"(?:[ \t]{2,}|\r?\n)",
         check="aligned", bounded=False, priority=CONTEXT),
    # SSM's parameter as `--output text` prints it, decrypted: the value after its type's
    # SecureString (the version, a number, may come between: the columns' order varies)
    rule("password", ("\tsecurestring\t",),
         r"""\tSecureString\t(?:\d{1,6}\t)?(?P<v>[^\t\n]{4,4096})""",
         value=("v",), bounded=False, priority=CONTEXT),
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
