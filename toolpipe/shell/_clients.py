"""Files a database client writes by its own commands, and settings written by the
editors of settings files: sqlite3's and duckdb's `.output FILE`, `.once FILE`, `.save
FILE`, `.backup FILE`; psql's `\\o FILE`, `\\g FILE`, `\\w FILE` and its client-side
`\\copy … TO 'FILE'`; mysql's `tee FILE`; `crudini --set FILE …`; augtool's changes under
`/files/PATH` (the server's own writes, `INTO OUTFILE`, are the table's). Each is where
the client puts what its query prints, judged as any write there is (a start-up file in
the home, `~/.bashrc`, is blocked)."""

from __future__ import annotations

import posixpath
import re

from toolpipe.shell._effects import Effect, handles
from toolpipe.shell._model import Command
from toolpipe.shell._printed import fed_input
from toolpipe.shell._words import Word

_QUOTED = r"""(?:'([^']+)'|"([^"]+)"|([^\s;'"]+))"""
_DOT_WRITES = re.compile(r"(?m)^\s*\.(?:output|once|save|backup(?:\s+\w+(?=\s))?|excel)\s+"
                         r"(?:-[a-z]+\s+)*" + _QUOTED)
_PSQL_WRITES = re.compile(r"\\(?:o|out|g|w|gx)\s+" + _QUOTED
                          + r"|\\copy\b[^;\n]{0,1024}?\bto\s+" + _QUOTED)
_MYSQL_WRITES = re.compile(r"(?i)(?:^|;)\s*(?:tee|\\T)\s+" + _QUOTED)
_AUGEAS_CHANGES = frozenset({"set", "setm", "rm", "remove", "mv", "move", "clear", "ins",
                             "insert", "touch", "clearm", "defnode"})


def _places(pattern: re.Pattern[str], cmd: Command) -> list[Effect]:
    out = []
    # (its commands on its input too: `psql <<< '\o ~/.profile'`, `echo … | sqlite3 db`)
    for a in (*cmd.args, *(data for _, data in fed_input(cmd))):
        if not a.known:
            continue
        for m in pattern.finditer(a.text):
            path = next(g for g in m.groups() if g)
            if not path.startswith("-") and not path.startswith("|"):  # (`\o |cmd`: a pipe)
                out.append(Effect("write", cmd, Word(path, a.raw), detail="redirect"))
    return out


@handles("sqlite3", "duckdb", partly=True)
def _dot_commands(cmd: Command) -> list[Effect]:
    return _places(_DOT_WRITES, cmd)


@handles("psql", partly=True)
def _psql(cmd: Command) -> list[Effect]:
    return _places(_PSQL_WRITES, cmd)


@handles("mysql", "mariadb", partly=True)
def _mysql(cmd: Command) -> list[Effect]:
    return _places(_MYSQL_WRITES, cmd)


@handles("crudini", partly=True)
def _crudini(cmd: Command) -> list[Effect]:
    """``crudini --set|--del|--merge FILE …``: FILE edited in place."""
    texts = [a.text for a in cmd.args]
    at = next((i for i, t in enumerate(texts) if t in ("--set", "--del", "--merge")), None)
    files = [a for a in cmd.args[at + 1:] if not a.text.startswith("-")][:1] if (
        at is not None) else []
    return [Effect("write", cmd, w, detail="edits in place") for w in files]


@handles("augtool", partly=True)
def _augtool(cmd: Command) -> list[Effect]:
    """``augtool set /files/etc/ssh/sshd_config/PermitRootLogin yes``: the file under
    /files changed (the node's file: the path without its last part)."""
    words = [a for a in cmd.args if not a.text.startswith("-")]
    if len(words) < 2 or words[0].text not in _AUGEAS_CHANGES:
        return []
    node = words[1].text
    if not node.startswith("/files/"):
        return []
    path = posixpath.dirname(node[len("/files"):].rstrip("/")) or "/"
    return [Effect("write", cmd, Word(path, words[1].raw), detail="edits in place")]
