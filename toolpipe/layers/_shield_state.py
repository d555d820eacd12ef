"""What a shell that lasts from call to call keeps after a line: its working folder and the
variables the line set (an agent's shell tool often lasts the session; toolpipe's own
`Bash` runs each call in a new shell). The wing does not know which kind it guards, so a
call is read both ways, in a new shell and in the one earlier calls left, and the stricter
reading stands (`cd ~` in one call, `rm -rf .cache` in the next, deletes the home's).

The state is kept as shell text, a prefix of the lines that set it (``cd -- FOLDER``,
``NAME=value``), so the persisted reading is the wing's own reading of ``PREFIX⏎LINE``.
Only what can be known is kept: a folder the analysis worked out, a variable given a
literal, or a value made of literals and other variables (`PATH=/tmp/b:$PATH`); a value
computed by a command (`K=$(cat key)`) is not (the prefix would run it again at every
later call), nor a folder that is not known (`cd "$DIR"`)."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable

from toolpipe.shell import Script

# a variable set at a statement's start (or by export/declare -x) to a literal, a quoted
# literal, or literals and variables: no command substitution, no backquote
_SET = re.compile(r"""(?:^|[;&|(\n]|\bexport[ \t]+|\bdeclare[ \t]+-x[ \t]+)[ \t]*"""
                  r"""([A-Za-z_][A-Za-z0-9_]{0,63})=((?:[^\s;&|`$()'"\\]|\$\{?[A-Za-z_]\w*\}?"""
                  r"""|'[^'\n]*'|"(?:[^"$`\\\n]|\$\{?[A-Za-z_]\w*\}?)*")*)(?=[\s;&|)]|$)""")
_UNSET = re.compile(r"(?:^|[;&|(\n])[ \t]*unset[ \t]+(?:-v[ \t]+)?([A-Za-z_][\w \t]*)")
_MOVES = re.compile(r"(?:^|[\s;&|(])(?:cd|pushd|popd)(?=[\s;&|)]|$)")
MAX_VARIABLES = 32  # variables kept (the latest ones)
_PLAIN = re.compile(r"~?[\w./@%+=:,-]*")


def _folder_word(folder: str) -> str:
    """A folder as a word of the prefix (a leading `~` left bare, as the home)."""
    return folder if _PLAIN.fullmatch(folder) else shlex.quote(folder)


def after_line(state: str, command: str, read: Callable[[str], Script]) -> str:
    """The state (a prefix) a lasting shell keeps after ``command``, from ``state``
    (``read`` is the wing's reading of a text)."""
    folder, variables = _parsed(state)
    if _MOVES.search(command):
        end = read(f"{state}\n{command}\n:" if state else f"{command}\n:").commands
        cwd = end[-1].cwd if end else None
        folder = "." if cwd is None else cwd  # (not known: the new shell's reading stands)
    for name, value in _SET.findall(command):
        variables.pop(name, None)
        variables[name] = value
    for names in _UNSET.findall(command):
        for name in names.split():
            variables.pop(name, None)
    kept = list(variables.items())[-MAX_VARIABLES:]
    lines = [f"cd -- {_folder_word(folder)}"] if folder not in (".", "") else []
    return "\n".join(lines + [f"{k}={v}" for k, v in kept])


def _parsed(state: str) -> tuple[str, dict[str, str]]:
    folder, variables = ".", {}
    for line in state.splitlines():
        if line.startswith("cd -- "):
            folder = line[len("cd -- "):]
            folder = shlex.split(folder)[0] if folder[:1] in "'\"" else folder
        else:
            name, _, value = line.partition("=")
            variables[name] = value
    return folder, variables


def shown(state: str) -> str:
    """The state as a reason says it (`cd ~; T=~`), at most 80 characters."""
    text = "; ".join(state.splitlines())
    return text if len(text) <= 80 else text[:77] + "…"


def path_folders(text: str) -> list[str]:
    """The folders a line puts on PATH (`PATH=/tmp/b:$PATH`, `export PATH="$PWD/bin:…"`),
    as written, the current folder's spellings as `.`."""
    out: list[str] = []
    for name, value in _SET.findall(text):
        if name != "PATH":
            continue
        for part in value.strip("'\"").split(":"):
            part = re.sub(r"^\$\{?PWD\}?(?=/|$)", ".", part)
            if part and "$" not in part:
                out.append(part)
    return out
