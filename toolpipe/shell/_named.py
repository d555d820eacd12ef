"""Commands a wrapper names by an option rather than by its operands.

``env -S STRING`` (``--split-string``): the string split into the command's words.
``start-stop-daemon --start``: the program it starts is an option's value (``--exec
PATH``, or ``--startas PATH`` when both are given), its arguments the words after ``--``,
and ``--chdir DIR`` the folder it runs in (Debian's; OpenRC's has the same options). It is
read as a wrapper of that command: ``start-stop-daemon -S -d / -x /bin/rm -- -rf home``
deletes ``/home``."""

from __future__ import annotations

from collections.abc import Sequence

from toolpipe.shell._options import split
from toolpipe.shell._words import Word

# its options that take a value (short letters and long names)
_SHORT = "xadrucnpgsRNPIkOe"
_LONG = ("--exec", "--startas", "--chdir", "--chroot", "--user", "--chuid", "--name",
         "--pidfile", "--group", "--signal", "--retry", "--nicelevel", "--procsched",
         "--iosched", "--umask", "--output", "--env", "--ppid")


def daemon_argv(args: Sequence[Word]) -> tuple[tuple[Word, ...], Word | None] | None:
    """The command ``start-stop-daemon ARGS`` starts and the folder it starts it in (None
    when it starts nothing: ``--stop``, ``--status``, no program named)."""
    flags, values, operands = split(args, _SHORT, _LONG)
    program = next((values[k] for k in ("a", "--startas", "x", "--exec") if k in values),
                   None)
    if not flags & {"S", "--start"} or program is None:
        return None
    texts = [a.text for a in args]
    after = args[texts.index("--") + 1:] if "--" in texts else operands
    return (program, *after), values.get("d") or values.get("--chdir")


def env_split(args: Sequence[Word], end: int) -> tuple[str, Sequence[Word]] | None:
    """env's ``-S STRING`` among its own options (``args[:end]``): the string and the words
    after it. ``-S`` may close a cluster (``-iS 'rm -rf ~'``) or hold its value (``-S'…'``);
    a ``-S`` after the command is the command's (both were misread before the ninth
    sitting: `env -iS 'rm -rf ~'` and `env bash -c 'rm -rf ~' -S x` were allowed)."""
    for k, a in enumerate(args[:end]):
        t = a.text
        glued: str | None = None  # the value in the same word, if any
        if t.startswith("--split-string"):
            glued = t.split("=", 1)[1] if "=" in t else None
        elif t.startswith("-") and not t.startswith("--"):
            at = next((j for j, letter in enumerate(t[1:], 1) if letter in "SuCa"), None)
            if at is None or t[at] != "S":  # (u, C, a take the rest as their value)
                continue
            glued = t[at + 1:] or None
        else:
            continue
        if glued is not None:
            return glued, args[k + 1:]
        return (args[k + 1].text if k + 1 < len(args) else ""), args[k + 2:]
    return None


_MACHINECTL_VALUED = frozenset({"-M", "--machine", "-p", "--property", "-E", "--setenv",
                                "--uid", "-n", "--lines", "-o", "--output", "-s", "--signal",
                                "--kill-whom", "-H", "--host"})


def machine_shell(args: Sequence[Word]) -> tuple[Word, ...] | None:
    """``machinectl shell [USER@HOST] [COMMAND ARGS…]``: the command, run by a login shell
    of that user (from their home), or None (another subcommand, or no command)."""
    texts = [a.text for a in args]
    if "shell" not in texts:
        return None
    i = texts.index("shell") + 1
    while i < len(args) and texts[i].startswith("-"):
        i += 2 if texts[i] in _MACHINECTL_VALUED else 1
    if i < len(args) and ("@" in texts[i] or texts[i] == ".host"):
        i += 1  # (the user and machine)
    return tuple(args[i:]) or None
