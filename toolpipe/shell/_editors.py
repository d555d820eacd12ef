"""Effects of editors run with a script (``ed``, ``ex``, ``vim -es``, ``vim -c wq``) and of
``patch``: each writes the files it is given.

An editor's script is read for a command that writes (``w``, ``wq``, ``x``, ``update``,
``saveas``, ``ZZ``); a script it cannot read (``-s``/``-S`` files, ``execute``, a here-string
it does not know) counts as one that writes (fail closed). The handlers register themselves
with :func:`~toolpipe.shell._effects.handles`."""

from __future__ import annotations

import re

from toolpipe.shell._effects import Effect, handles
from toolpipe.shell._model import Command
from toolpipe.shell._options import split as _split

# an ex command that writes (after its range): w, wq, wa, wall, x, xit, exit, up[date],
# sav[eas], wn, wN, wp; a normal-mode ZZ; and what it cannot read (execute, source, a
# call, another language)
_WRITES = re.compile(
    r"(?:^|\|)\s*:*\s*[%$.,'<>0-9\s]*(?:w(?:q?a(?:ll)?|q|rite|n(?:ext)?|N|p)?|x(?:a(?:ll)?|it)?"
    r"|exi(?:t)?|up(?:d(?:ate?)?)?|sav(?:e(?:as?)?)?|exe(?:c(?:ute)?)?|so(?:urce)?|cal(?:l)?"
    r"|lua|py(?:thon)?3?|pe(?:rl)?|rub(?:y)?)!?(?:\s|\||$)|\bZZ\b", re.M)
_ED_WRITES = re.compile(r"^\s*[0-9$.,;'a-z+\-]*\s*[wW]q?(?:\s|$)", re.M)
_EDITORS = ("ex", "vi", "vim", "nvim", "view", "vim.basic", "vim.tiny", "vim.nox", "gvim",
            "rvim", "evim")


def _scripted(cmd: Command, pattern: re.Pattern[str]) -> bool | None:
    """Whether the editor's input writes: True, False, or None when it has no input."""
    data = cmd.stdin_data
    if data:
        return any(not d.known or pattern.search(d.text) for d in data)
    if cmd.upstream or any(r.reads and r.target is not None for r in cmd.redirects):
        return True  # fed by a pipe or a file it does not read: may write
    return None


@handles("ed", "red")
def _ed(cmd: Command) -> list[Effect]:
    _, _, ops = _split(cmd.args, "p", ("--prompt",))
    if not ops or not _scripted(cmd, _ED_WRITES):
        return []
    return [Effect("write", cmd, ops[0], detail="edits with a script")]


@handles(*_EDITORS)
def _vim(cmd: Command) -> list[Effect]:
    # `-s` is silent mode in Ex mode (`ex -s`, `vim -es`), a file of keystrokes otherwise
    silent = cmd.name == "ex" or any(a.text.startswith("-") and not a.text.startswith("--")
                                     and ("e" in a.text or "E" in a.text) for a in cmd.args)
    flags, values, ops = _split(cmd.args, "cSuUiwWTrt" if silent else "cSsuUiwWTrt",
                                ("--cmd", "--clean-cmd"))
    commands = [a for i, a in enumerate(cmd.args) if a.text.startswith("+") or (
        i > 0 and _takes_command(cmd.args[i - 1].text))]
    given = [a.text for a in commands] + [g for a in cmd.args if (g := _glued_command(a.text))]
    unread = bool(values.keys() & {"S", "s", "w", "W"}) or any(not a.known for a in commands)
    batch = silent or "--headless" in flags
    writes = unread or any(_WRITES.search(g.lstrip("+")) for g in given)
    if not writes and batch:
        writes = bool(_scripted(cmd, _WRITES))
    if not writes or "R" in flags or "--version" in flags or "--help" in flags:
        return []
    files = [w for w in ops if not w.text.startswith("+")]
    return [Effect("write", cmd, w, detail="edits with a script") for w in files]


def _glued_command(option: str) -> str:
    """The command glued to ``-c`` in a cluster of short options (``-cx``, ``-ecwq``), or
    '' (vim reads the rest of the word as -c's value)."""
    at = option.find("c", 1)
    if not option.startswith("-") or option.startswith("--") or at < 1 or (
            at > 1 and not option[1:at].isalpha()):
        return ""
    return option[at + 1:]


def _takes_command(option: str) -> bool:
    """``-c``, ``--cmd``, or a cluster of short options ending in ``c`` (``ex -sc …``)."""
    return option in ("-c", "--cmd") or (option.startswith("-") and not option.startswith(
        "--") and option.endswith("c") and option[1:].isalpha())


@handles("patch")
def _patch(cmd: Command) -> list[Effect]:
    """``patch FILE [PATCH]`` writes FILE; ``-o OUT`` writes OUT; with no file it writes
    the files the patch names, under ``-d DIR`` (the current folder by default)."""
    flags, values, ops = _split(cmd.args, "iopdDFrBYzVgx", (
        "--input", "--output", "--strip", "--directory", "--ifdef", "--fuzz",
        "--reject-file", "--prefix", "--basename-prefix", "--suffix", "--version-control",
        "--get", "--debug", "--quoting-style"))
    if flags & {"--dry-run", "--help", "--version", "v"}:
        return []
    out = values.get("o") or values.get("--output")
    if out is not None:
        return [Effect("write", cmd, out, detail="patches")]
    if ops:
        return [Effect("write", cmd, ops[0], detail="patches")]
    folder = values.get("d") or values.get("--directory")
    return [Effect("write", cmd, folder, recursive=True, detail="patches files under")
            ] if folder is not None else []
