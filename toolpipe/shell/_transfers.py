"""Files a transfer client sends by its own language: the commands ``sftp``, ``ftp``,
``lftp`` and ``smbclient`` read from their input or from ``-c``/``-e`` (``put FILE``,
``mput``, ``reput``, ``append``), and the addresses ``socat`` joins (``FILE:PATH``,
``OPEN:PATH``, ``GOPEN:PATH`` to ``TCP:HOST:PORT``): each file so named is sent, and
judged as any file sent is (a secret's, the project's)."""

from __future__ import annotations

import re
import shlex

from toolpipe.shell._effects import Effect, handles
from toolpipe.shell._model import Command
from toolpipe.shell._printed import fed_input
from toolpipe.shell._words import Word, literal

_PUTS = re.compile(r"^\s*(?:put|mput|reput|append|mirror\s+-R|mirror\s+--reverse)\s+(.+)$",
                   re.I)
TRANSFER_CLIENTS = frozenset({"sftp", "ftp", "lftp", "smbclient", "tftp", "ncftp", "pftp"})
_SCRIPT_OPTIONS = ("-c", "-e")  # lftp -c/-e, smbclient -c: commands given as an option
_SOCAT_FILE = re.compile(r"^(?:FILE|OPEN|GOPEN|CREATE?):([^,]+)", re.I)
_SOCAT_NETWORK = re.compile(r"^(?:TCP[46]?|UDP[46]?|OPENSSL|SSL|SCTP|DCCP)(?:-CONNECT)?:",
                            re.I)


def _commands(cmd: Command) -> list[str]:
    """The client's commands: its input's lines (a here-string or a here-document, or an
    `echo` piped to it: `fed_input`, as every reader of a program's input takes it), and
    an option's value (``-c 'put x'``)."""
    lines = [line for _, data in fed_input(cmd) if data.known
             for line in data.text.splitlines()]
    args = cmd.args
    for i, a in enumerate(args[:-1]):
        if a.text in _SCRIPT_OPTIONS and args[i + 1].known:
            lines += re.split(r"[;\n]", args[i + 1].text)
    return lines


def client_sends(cmd: Command) -> list[Word]:
    """The local files a transfer client's commands put on the server."""
    if cmd.name not in TRANSFER_CLIENTS:
        return []
    out: list[Word] = []
    for line in _commands(cmd):
        m = _PUTS.match(line)
        if m is None:
            continue
        try:
            words = shlex.split(m.group(1))
        except ValueError:
            words = m.group(1).split()
        operands = [w for w in words if not w.startswith("-")]
        if operands:  # `put LOCAL [REMOTE]`; mput's are all local
            out += [literal(w) for w in (operands if line.strip().lower().startswith(
                "mput") else operands[:1])]
    return out


def socat_sends(cmd: Command) -> list[Word]:
    """The files ``socat`` reads and joins to a network address."""
    texts = [a.text for a in cmd.args if a.known]
    if cmd.name != "socat" or not any(_SOCAT_NETWORK.match(t) for t in texts):
        return []
    return [literal(m.group(1)) for t in texts if (m := _SOCAT_FILE.match(t)) is not None]


@handles("lftp", "smbclient", "ftp", "tftp", "ncftp", "pftp")
def _client(cmd: Command) -> list[Effect]:
    return [Effect("send", cmd, w) for w in client_sends(cmd)]
