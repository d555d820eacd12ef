"""A ``sed -i`` edit applied to a text the session knows, when it is only substitutions of
plain text by plain text: `sed -i 's/echo building/echo compiling/' run.sh` on a file an
earlier call wrote gives what the file then holds, so that it is judged by that, neither
asked about as unknown nor read as the union of old and new (a removal can make a command:
`s/echo //` turns `echo rm -rf ~` into `rm -rf ~`)."""

from __future__ import annotations

import re

from toolpipe.shell._model import Command

# one substitution, its delimiter a punctuation character: pattern, replacement, flags
_SUBSTITUTION = re.compile(
    r"\s*s(?P<d>[^\w\s\\])(?P<p>(?:\\.|(?!(?P=d))[^\n\\])*)(?P=d)"
    r"(?P<r>(?:\\.|(?!(?P=d))[^\n\\])*)(?P=d)(?P<f>g?)\s*(?:;|$)")
_REGEX = frozenset(".[]*^$\\+?(){}|")  # a pattern with any of these is more than text
_REPLACING = frozenset("\\&")  # a replacement with these keeps or escapes something


def _plain(text: str, delimiter: str, special: frozenset[str]) -> str | None:
    """``text`` with its escaped delimiters read, or None when it is more than plain."""
    out = text.replace("\\" + delimiter, delimiter)
    return None if any(c in special for c in out.replace(delimiter, "")) else out


def script_commands(scripts: list[str], command: re.Pattern[str]
                    ) -> list[re.Match[str]] | None:
    """Each command of sed's scripts as ``command`` reads it, in order; None when a part
    of a script is not one."""
    out: list[re.Match[str]] = []
    for script in scripts:
        pos = 0
        while pos < len(script):
            m = command.match(script, pos)
            if m is None or m.end() == pos:
                return None
            out.append(m)
            pos = m.end()
    return out


def sed_applied(cmd: Command, content: str, printed: bool = False) -> str | None:
    """What ``content`` becomes under ``cmd``, a `sed -i` of plain substitutions only (its
    script as one operand or as ``-e`` values, no other options than ``-i`` and ``-e``),
    or None when the edit is more than that; ``printed``: a sed that prints the file
    changed (`sed 's/X/Y/' t > out`), not one that edits it."""
    if cmd.name not in ("sed", "gsed") or not all(a.known for a in cmd.args):
        return None
    texts = [a.text for a in cmd.args]
    scripts: list[str] = []
    files: list[str] = []
    in_place = False
    at = 0
    while at < len(texts):
        t = texts[at]
        if t in ("-i", "--in-place"):
            in_place = True
        elif t == "-e" and at + 1 < len(texts):
            scripts.append(texts[at + 1])
            at += 1
        elif t.startswith("-"):
            return None  # -E, -n, -i.bak, -f FILE…: not read here
        elif not scripts and not files and "-e" not in texts:
            scripts.append(t)
        else:
            files.append(t)
        at += 1
    if in_place == printed or not scripts or len(files) != 1:
        return None
    matches = script_commands(scripts, _SUBSTITUTION)
    if matches is None:
        return None
    edits: list[tuple[str, str, bool]] = []
    for m in matches:
        d = m.group("d")
        pattern, replacement = _plain(m.group("p"), d, _REGEX), _plain(m.group("r"), d,
                                                                        _REPLACING)
        if not pattern or replacement is None:
            return None
        edits.append((pattern, replacement, m.group("f") == "g"))
    lines = content.split("\n")
    for pattern, replacement, every in edits:
        lines = [line.replace(pattern, replacement, -1 if every else 1) for line in lines]
    return "\n".join(lines)
