"""A database's connect string written ``user/password@service``, Oracle's way: after a
client (sqlplus, sqlldr, expdp, rman…), under a connect-string key, at a JDBC URL's head,
as SQL*Plus' own ``CONNECT user/password@service`` at a line's start, and as the value of
any key named for a connection (``DB_CONNECT=``, ``ORACLE_CONN=``, ``TNS_…``), where an
``@service`` must follow (the fifteenth sitting's held-out file found these three
leaking: no client's name before them)."""

from __future__ import annotations

import re

from toolpipe.secrets._lines import line_start
from toolpipe.secrets._rule import CONTEXT, Rule, rule
from toolpipe.secrets._several import could_be_credential
from toolpipe.secrets._values import CHECKS

_USER_PASSWORD = (r"""(?P<u>[A-Za-z][A-Za-z0-9_$#]{0,127})/(?P<v>[^\s/@'"]{1,128})""")
_PROMPT = re.compile(rb"[ \t]*(?:SQL>[ \t]*)?")


def connect_line(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                 ) -> str | None:
    """SQL*Plus' command: first on its line (after its prompt, if any), with a password a
    credential could be (`connect client/server` in prose is no login)."""
    start = match.start()
    if _PROMPT.fullmatch(buf, line_start(buf, start, 256), start) is None:
        return None
    return kind if could_be_credential(match.group("v")) else None


def named_connection(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                     ) -> str | None:
    return kind if could_be_credential(match.group("v")) else None


CHECKS["connect_line"] = connect_line
CHECKS["named_connection"] = named_connection

CONNECT_RULES: tuple[Rule, ...] = (
    # Oracle's user/password@service after a client, a connect-string key, a JDBC URL's head
    rule("password", ("sqlplus", "sqlldr", "expdp", "impdp", "exp ", "imp ", "rman", "dgmgrl",
                      "userid", "connect_string", "connection_string", "conn_str", "jdbc:oracle:"),
         r"""(?:(?i:jdbc:oracle:(?:thin|oci8?|kprb):)|(?i:sqlplus|sqlldr|expdp|impdp|exp|imp"""
         r"""|rman|dgmgrl)\b[^\n|;&]{0,120}?[ \t=]"""
         r"""|(?i:userid|connect_string|connection_string|conn_str)["']?[ \t]*[=:][ \t]*"""
         r"""["']?)(?P<u>[A-Za-z][A-Za-z0-9_$#]{0,127})/(?P<v>[^\s/@'"]{1,128})"""
         r"""(?:@|(?=[\s'"]|$))""",
         value=("v",), check="url_password"),
    # SQL*Plus' CONNECT (or CONN) at a line's start
    rule("password", ("connect ", "conn "),
         r"""(?i:conn(?:ect)?)[ \t]+""" + _USER_PASSWORD + r"""(?:@|(?=[\s'";]|$))""",
         value=("v",), check="connect_line", priority=CONTEXT,
         shape=r"""[ \t]*[A-Za-z][A-Za-z0-9_$#]*/"""),
    # a key named for a connection, its value user/password@service
    rule("password", ("connect", "conn", "tns", "dsn", "oracle"),
         r"""(?i:connect(?:ion)?|conn|tns|dsn|oracle)[A-Za-z0-9_]{0,32}["']?[ \t]*[=:]"""
         r"""[ \t]*["']?""" + _USER_PASSWORD + "@",
         value=("v",), check="named_connection", priority=CONTEXT,
         shape=r"""[A-Za-z0-9_]{0,32}["']?[ \t]*[=:][ \t]*["']?[A-Za-z][A-Za-z0-9_$#]*/"""),
)
