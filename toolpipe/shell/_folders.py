"""The folder a command moves the script to: ``cd``, ``pushd`` and ``popd``.

``cd`` alone goes home; ``cd -`` back to ``$OLDPWD`` (each move sets it); ``popd``, a
name looked for along a ``CDPATH`` and a folder the reader cannot name leave it unknown;
``pushd DIR`` moves as ``cd DIR`` does. A folder ``mktemp -d`` made on the same
line (``cd "$(mktemp -d)"``) is the script's own, as its path would be: what is deleted
there by a relative name (not ``..``) is the script's own scratch (``MADE_BY_MKTEMP``)."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

from toolpipe.shell._options import split
from toolpipe.shell._table import CODE
from toolpipe.shell._words import UNKNOWN, Word, literal, unknown

MOVERS = frozenset({"cd", "pushd", "popd"})
MADE_BY_MKTEMP = "/tmp/(a folder mktemp made)"


def moved_to(name: str, args: Sequence[Word], cwd: str | None,
             env: dict[str, Word] | None = None) -> str | None:
    """The folder after ``name args`` run from ``cwd`` (None: not known). With the
    script's variables (``env``): `cd -` goes back to ``$OLDPWD``, which the move sets;
    a relative name is looked for along a ``CDPATH`` the script set (which of its folders
    holds it is not known, unless they are all the current one)."""
    moved = _moved(name, args, cwd, env or {})
    if env is not None:
        env["OLDPWD"] = literal(cwd) if cwd is not None else unknown("$OLDPWD")
    return moved


def seen_from(folder: Word, cwd: str | None) -> Word:
    """A folder the walk names as it names ``cwd`` (relative to the workspace, or absolute:
    ``$OLDPWD``) as a path from ``cwd``: `build` seen from `build/dist` is `..`; from an
    absolute folder, a workspace's folder cannot be named (not known)."""
    if not folder.known or folder.text.startswith(("/", "~")):
        return folder
    if cwd is None or cwd.startswith(("/", "~")):
        return unknown(folder.raw)
    return literal(posixpath.relpath(folder.text, cwd))


def _moved(name: str, args: Sequence[Word], cwd: str | None, env: dict[str, Word]
           ) -> str | None:
    operands = [a for a in args if not a.text.startswith("-") or a.text == "-"]
    if name == "popd" or (name == "pushd" and (not operands or operands[0].text[:1] in "+-")):
        return None  # back to a folder of the stack, or the stack's top two swapped
    if not operands:
        return "~"
    target = operands[0]
    if target.sources == ("mktemp",) and target.text.rstrip("/") == UNKNOWN:
        return MADE_BY_MKTEMP
    if target.text == "-" and name == "cd" and env.get("OLDPWD", unknown("")).known:
        return env["OLDPWD"].text
    if not target.known or target.text == "-":
        return None
    if target.text.startswith(("/", "~")):
        return posixpath.normpath(target.text)
    cdpath = env.get("CDPATH")
    if cdpath is not None and not target.text.startswith(("./", "../")) and target.text not in (
            ".", "..") and (not cdpath.known or set(cdpath.text.split(":")) - {"", "."}):
        return None
    if cwd is None:
        return None
    return posixpath.normpath(posixpath.join(cwd, target.text))


def in_made_folder(word: Word, cwd: str | None) -> bool:
    """Is ``word``, used from ``cwd``, a relative name in a folder mktemp made?"""
    return cwd == MADE_BY_MKTEMP and word.known and not word.text.startswith(
        ("/", "~")) and ".." not in word.text.split("/")


def chdir_value(options: Sequence[Word], names: frozenset[str],
                separate: frozenset[str] = frozenset()) -> Word | None:
    """The value of the last of ``names`` among a wrapper's option words (``-C DIR``,
    ``-CDIR``, ``--chdir DIR``, ``--chdir=DIR``); only ``separate`` ones take the next
    word (nsenter's ``--wd=DIR``, whose value is optional, is attached or absent: alone,
    ``-w`` is the folder of the process it enters, not known here)."""
    found: Word | None = None
    for k, a in enumerate(options):
        t = a.text
        for option in names:
            if t == option and option in separate and k + 1 < len(options):
                found = options[k + 1]
            elif t == option and option not in separate:
                found = unknown(t)
            elif option.startswith("--") and t.startswith(option + "="):
                found = Word(t[len(option) + 1:], a.raw, a.glob, a.tame, a.sources)
            elif not option.startswith("--") and t.startswith(option) and len(t) > 2:
                found = Word(t[2:], a.raw, a.glob, a.tame, a.sources)
    return found


# (the letter that starts a login shell, and the letters whose value may follow it in a
# cluster: `sudo -iu root`, `su -lc CMD`)
_LOGIN = {"sudo": ("i", "ugCDhpRrtTU"), "su": ("l", "cgGsw"), "runuser": ("l", "cgGsuw")}


def login_folder(name: str, options: Sequence[Word]) -> Word | None:
    """``~`` when su, runuser or sudo starts a login shell (``su -``, ``-l``, ``sudo -i``,
    ``--login``): the command runs in the user's home, so a relative name is read from
    there (`sudo -i rm -rf .ssh` deletes the home's keys, not the workspace's)."""
    login = _LOGIN.get(name)
    if login is None:
        return None
    letter, valued = login
    texts = [a.text for a in options]
    before = options[:texts.index("--")] if "--" in texts else options  # (its own options)
    flags, _, operands = split(before, valued)
    if letter in flags or "--login" in flags or (
            name != "sudo" and any(w.text == "-" for w in operands)):
        return literal("~")
    return None


def code_folder(name: str, args: Sequence[Word]) -> Word | None:
    """The folder the code a program's row reads runs in, where an option names it
    (``tmux new-session -c ~ 'rm -rf .ssh'``), after the row's ``after`` word."""
    row = CODE.get(name)
    if row is None or not row.chdir:
        return None
    start = next((i + 1 for i, a in enumerate(args) if a.text in row.after), 0) if (
        row.after) else 0
    return chdir_value(args[start:], row.chdir, row.chdir)
