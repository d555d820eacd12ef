"""What a shell command may change, for caches: known files, nothing, or unknown.

The effect model (``_effects``) says what a command deletes, writes, re-modes or re-owns.
That is the whole story only for commands whose writes it models in full (``rm``, ``cp``,
``tee``, ``sed -i``…) and for commands known to write nothing but their redirections (``ls``,
``cat``, ``grep``, ``git status``…). Anything else (``make``, ``npm run``, a script, an
interpreter, a command whose name is not known) may write anything: unknown.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from toolpipe.shell._carried import KNOWN
from toolpipe.shell._effects import effects
from toolpipe.shell._expand import ENVIRONMENT
from toolpipe.shell._grammar import analyse
from toolpipe.shell._model import Command

# Every file these change is one of their effects.
MODELED = frozenset({
    "rm", "srm", "rmdir", "unlink", "shred", "mv", "cp", "install", "ln", "link", "rsync",
    "dd", "tee", "truncate", "touch", "mkdir", "mkfifo", "fallocate", "sed", "gsed",
    "chmod", "chown", "chgrp", "chattr", "setfacl", "lchown", "find",
})
# These write nothing (their redirections are effects of their own).
READ_ONLY = frozenset({
    "ls", "dir", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "rg", "ag", "ack",
    "echo", "printf", "pwd", "cd", "true", "false", "test", "[", "which", "type", "whereis",
    "printenv", "date", "whoami", "id", "groups", "uname", "hostname", "stat", "file", "du",
    "df", "ps", "pgrep", "cut", "tr", "paste", "fold", "fmt", "expand", "unexpand", "rev",
    "tac", "nl", "column", "jq", "diff", "cmp", "comm", "md5sum", "sha1sum", "sha256sum",
    "sha512sum", "b2sum", "cksum", "basename", "dirname", "realpath", "readlink", "sleep",
    "seq", "tree", "less", "more", "od", "hexdump", "strings", "ldd", "nproc", "free",
    "uptime", "lscpu", "lsblk", "export", "local", "declare", "typeset", "readonly", "set",
    "unset", "shift", "exit", "return", ":", "wait", "jobs", "yes", "expr", "bc", "getconf",
    "locale", "tput", "clear", "man", "whatis", "apropos", "env", "command", "shopt",
    "getopts", "read", "sort", "uniq", "base64", "awk", "gawk", "mawk", "xxd", "exec",
})
# git subcommands that change no file of the working tree (or .git).
GIT_READ_ONLY = frozenset({
    "status", "log", "diff", "show", "rev-parse", "describe", "ls-files", "ls-tree",
    "blame", "grep", "shortlog", "cat-file", "rev-list", "reflog", "whatchanged",
    "name-rev", "for-each-ref", "show-ref", "merge-base", "version", "help",
})
_GIT_VALUED = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace"})
_CHANGES = frozenset({"write", "delete", "mode", "owner", "device"})


def _operands(cmd: Command) -> list[str]:
    return [a.text for a in cmd.args if not a.text.startswith("-")]


def _writes_beyond_its_effects(cmd: Command) -> bool:
    """May the command change files its effects do not name?"""
    name = cmd.name
    texts = [a.text for a in cmd.args]
    if name in MODELED:
        return name == "find" and bool({"-fprint", "-fprint0", "-fprintf", "-fls"} & set(texts))
    if name == "git":
        return _git_subcommand(texts) not in GIT_READ_ONLY
    if name not in READ_ONLY:
        return True
    if name == "sort":
        return any(t.startswith(("-o", "--output")) for t in texts)
    if name in ("uniq", "xxd"):
        return len(_operands(cmd)) > 1  # uniq IN OUT, xxd IN OUT
    if name in ("awk", "gawk", "mawk"):
        program = next(iter(_operands(cmd)), "")
        return any(s in program for s in (">", "system", "|"))
    if name in ("env", "command", "exec"):
        return bool(_operands(cmd))  # runs something the wing did not peel
    return False


def _git_subcommand(texts: Sequence[str]) -> str:
    i = 0
    while i < len(texts):
        t = texts[i]
        if t in _GIT_VALUED:
            i += 2
            continue
        if not t.startswith("-"):
            return t
        i += 1
    return ""


def shell_writes(command: str, cwd: str = ".", *, strict: bool = True) -> list[str] | None:
    """The files ``command`` may change, normalised against ``cwd`` (``cd`` followed): a
    list (empty when it writes nothing), or None when they cannot all be known (a command
    not known to write only what the effect model says, a variable or glob target, code
    the wing cannot read). ``strict=False``: the files it names, even when it may change
    others too (None only for a target that cannot be named)."""
    script = analyse(command)
    unknown = {"dynamic-code", "too-long", "too-deep"} | (
        {"dynamic-command", "unparsed"} if strict else set())
    if any(p.kind in unknown for p in script.problems):
        return None
    out: list[str] = []
    for cmd in script.commands:
        if strict and cmd.argv and (not cmd.name or _writes_beyond_its_effects(cmd)):
            return None
        for effect in effects(cmd):
            if effect.kind not in _CHANGES:
                continue
            word = effect.word
            if word is None or not word.known or word.glob or cmd.cwd is None or (
                    ENVIRONMENT in word.sources):  # ${X:-dir}: the environment may say
                return None
            base = posixpath.join(cwd or ".", cmd.cwd) if not cmd.cwd.startswith(
                ("/", "~")) else cmd.cwd
            path = posixpath.normpath(posixpath.join(base, word.text))
            if path not in out and not path.startswith("/dev/"):
                out.append(path)
    return out


# the administrator's folders of the PATH, and the user's (in the home: `~/.local/bin`)
_LOCAL_BIN = re.compile(r"^(?:/usr/local/s?bin|~/\.local/bin|~/bin|~/\.cargo/bin|~/go/bin)"
                        r"/([^/]+)$")


def new_program(path: str) -> bool:
    """Is ``path`` a program of a name no known program has, in the administrator's or
    the user's own folder of the PATH (`/usr/local/bin/tool`, `~/.local/bin/tool`, not
    `~/.local/bin/ls`)?"""
    m = _LOCAL_BIN.match(path)
    return m is not None and m.group(1).lower() not in KNOWN
