"""Values a log gives as a statement's bind parameters: the statement names the column each
placeholder is bound to (`SET password = $1`, `"password" = %s`, `api_token = ?`,
`secret = :secret`, `INSERT INTO t (login, password) VALUES (%s, %s)`), and the list
after it gives the values (PostgreSQL's `DETAIL:  parameters: $1 = '…', $2 = '42'`,
Django's `args=('…', 3)`, a driver's `params=(…)` or `parameters=[…]`). A value bound to
a credential's column is redacted where it stands in the list; the statement is looked
for in the 4 KB before the list."""

from __future__ import annotations

import re

from toolpipe.secrets._rule import CONTEXT, Rule, rule
from toolpipe.secrets._several import SEVERAL, Spans, _stands

# a column named for a credential, as a statement names it (quoted, or after its table)
_CREDENTIAL = re.compile(
    rb"(?i)(?:[a-z0-9]+[_\-])*(?:password|passwd|passphrase|pwd|secret|token|api[_\-]?key|"
    rb"access[_\-]?key|private[_\-]?key|credentials?|client[_\-]?secret)(?:[_\-][a-z0-9]+)?")
_PLACEHOLDER = re.compile(rb"\$(\d{1,4})|%s|\?|%\((\w{1,64})\)s|(?<![:\w]):(\w{1,64})")
# the column a placeholder is compared with or set to: `"users"."password" = $1`
_COLUMN_BEFORE = re.compile(rb"""[`"\[]?(\w{1,64})[`"\]]?[ \t]*(?:=|<>|!=|(?i:like))[ \t]*\Z""")
_INSERT = re.compile(rb"""(?i:insert[ \t]+into)[ \t]+[\w."`\[\]]{1,128}[ \t]*"""
                     rb"""\(([^()\n]{1,1024})\)[ \t]*(?i:values)[ \t]*\(([^()\n]{1,1024})\)""")
_PG_VALUE = re.compile(rb"""\$(\d{1,4})[ \t]*=[ \t]*'((?:[^'\n]|'')*)'""")
_ITEM = re.compile(rb"""[ \t]*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|([^,\s()\[\]]+))"""
                   rb"""[ \t]*,?""")
_REACH = 4096


def _bound_columns(statement: bytes) -> tuple[set[int], set[bytes]]:
    """The positions (0-based, in order, or `$N` less one) and the names of the
    placeholders bound to a credential's column."""
    positions: set[int] = set()
    names: set[bytes] = set()
    for m in _INSERT.finditer(statement):
        columns = [c.strip(b" \t`\"[]") for c in m.group(1).split(b",")]
        holders = [h.strip() for h in m.group(2).split(b",")]
        for i, (column, holder) in enumerate(zip(columns, holders, strict=False)):
            if _CREDENTIAL.fullmatch(column):
                pg = re.fullmatch(rb"\$(\d{1,4})", holder)
                positions.add(int(pg.group(1)) - 1 if pg else i)
    for k, m in enumerate(_PLACEHOLDER.finditer(statement)):
        column = _COLUMN_BEFORE.search(statement, max(0, m.start() - 96), m.start())
        if column is None or not _CREDENTIAL.fullmatch(column.group(1)):
            continue
        if m.group(1):
            positions.add(int(m.group(1)) - 1)
        elif m.group(2) or m.group(3):
            names.add(m.group(2) or m.group(3))
        else:
            positions.add(k)
    return positions, names


def _bound(buf: bytes, start: int, found: re.Match[bytes], floor: int) -> tuple[Spans, int]:
    positions, names = _bound_columns(buf[max(0, start - _REACH):start])
    out: Spans = []
    if not positions and not names:
        return out, found.end()
    judged: dict[bytes, bool] = {}
    group = next(g for g in ("pg", "tup") if found.group(g) is not None)
    lo = found.start(group)
    region = found.group(group)
    if group == "pg":
        for m in _PG_VALUE.finditer(region):
            if int(m.group(1)) - 1 in positions and _stands(m.group(2), judged, placed=True):
                out.append((lo + m.start(2), lo + m.end(2)))
        return out, found.end()
    for i, m in enumerate(_ITEM.finditer(region)):
        value_group = next((g for g in (1, 2, 3) if m.group(g) is not None), None)
        if value_group is None:
            break
        if i in positions and _stands(m.group(value_group), judged, placed=True):
            out.append((lo + m.start(value_group), lo + m.end(value_group)))
    return out, found.end()


SEVERAL["bound"] = _bound

BOUND_RULES: tuple[Rule, ...] = (
    rule("password", ("parameters:", "args=(", "params=(", "parameters=["),
         r"""(?:(?i:parameters):[ \t]*(?P<pg>\$\d[^\n]{0,2048})"""
         r"""|(?:args|params|parameters)=[(\[](?P<tup>[^\n]{0,2048}?)[)\]][ \t]*(?:\r?\n|$))""",
         check="bound", bounded=False, priority=CONTEXT),
)
