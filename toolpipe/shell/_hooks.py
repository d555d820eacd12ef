"""Values a command hands the shell that the walk can still read: a shell's start-up hook,
the code a program prints for a shell to run as it starts (``eval "$(direnv hook bash)"``,
``source <(kubectl completion zsh)``; the output of another command run as code is asked
about (:mod:`toolpipe.shell._grammar`), but a hook is that program's own documented use:
running it is no more than running the program), and what ``printf -v`` and ``read``
(from a here-string or a here-document) put in variables."""

from __future__ import annotations

import posixpath
import re

from toolpipe.shell._effects import DECODERS, NETWORK_SOURCES
from toolpipe.shell._model import Command
from toolpipe.shell._oneliners import LANGUAGES
from toolpipe.shell._printed import printed
from toolpipe.shell._words import UNKNOWN, Word
from toolpipe.shell._wrappers import SHELLS

# a word that is one substitution, whole: "$(X)", $(X), `X`, <(X) (X: its command's text)
_HOOKED = re.compile(r'"?\$\((?P<a>[^()]*)\)"?|`(?P<b>[^`]*)`|<\((?P<c>[^()]*)\)')

# A shell's start-up hook: a program asked for the code that sets it up in a shell, by
# the subcommands such programs share (`direnv hook bash`, `pyenv init -`, `brew
# shellenv`, `kubectl completion zsh`, `minikube docker-env`, `opam env`, `mise activate`)
# or a flag (`fzf --bash`), and the agents' own (`ssh-agent -s`, `dircolors -b`). One
# simple command with no expansion, no pipe and no quote; a downloader, a decoder, a
# shell or an interpreter is never one.
_HOOK = re.compile(
    r"\s*(?P<program>[\w./-]+)(?:\s+-{1,2}[\w-]+(?:=[\w./-]+)?)*(?:\s+(?:completions?|init|hook"
    r"|shellenv|activate|env|[a-z]+-env|shell\.(?:bash|zsh|fish|posix)|path)(?:\s+[\w.=/-]+)*"
    r"|\s+--(?:bash|zsh|fish)|(?<=ssh-agent)(?:\s+-[sc])?|(?<=dircolors)(?:\s+-[bc])?)\s*")


def hooked(raw: str) -> bool:
    """Is this word one substitution of a command that prints a shell's start-up hook
    (see ``_HOOK``)?"""
    whole = _HOOKED.fullmatch(raw)
    if whole is None:
        return False
    m = _HOOK.fullmatch(whole.group("a") or whole.group("b") or whole.group("c") or "")
    if m is None:
        return False
    program = posixpath.basename(m.group("program"))
    return program not in NETWORK_SOURCES | DECODERS | SHELLS and program not in LANGUAGES


def assigned(cmd: Command, listed: dict[str, str]) -> dict[str, Word]:
    """The variables ``printf -v NAME FORMAT ARGS…``, ``read`` (see ``read_into``) or
    ``readarray``/``mapfile`` set (see ``listed_into``; ``listed``: the root of what each
    process substitution lists, by its text)."""
    if cmd.name == "printf" and len(cmd.args) >= 3 and cmd.args[0].text == "-v":
        return {cmd.args[1].text: printed(cmd.args[2:])}
    if cmd.name in ("readarray", "mapfile"):
        return listed_into(cmd, listed)
    return read_into(cmd) if cmd.name == "read" else {}


# readarray's options that take a value (-C's callback runs code: not read here)
_MAPFILE_VALUED = frozenset({"-d", "-n", "-O", "-s", "-u", "-c"})


def listed_into(cmd: Command, listed: dict[str, str]) -> dict[str, Word]:
    """``readarray -t NAME < <(ls -d build/*)``: NAME's elements are the names the listing
    prints, each under its root (tame: none climbs out). Nothing else is known: input from
    elsewhere, another descriptor (-u), a callback (-C), a name not plain."""
    source = next((listed[r.target.raw] for r in cmd.redirects if r.op == "<"
                   and r.target is not None and r.target.raw in listed), None)
    texts = [a.text for a in cmd.args]
    if source is None or "-C" in texts or "-u" in texts:
        return {}
    names = [t for i, t in enumerate(texts) if not t.startswith("-") and (
        i == 0 or texts[i - 1] not in _MAPFILE_VALUED)]
    name = names[-1] if names else "MAPFILE"
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        return {}
    word = Word(source + UNKNOWN, f"<names from {source}>", tame=True)
    return {name: word, name + "[]": word}


def read_into(cmd: Command) -> dict[str, Word]:
    """``read [-r] NAME <<< TEXT`` (or a here-document): the first line of the text, its
    blanks at either end trimmed. Nothing else is known, and its name keeps whatever value
    it had (unknown when none): input from a pipe or a file, several names (split at IFS,
    which a prefix may have changed: `IFS=: read -r a b`), an array (-a), a delimiter, a
    count or another descriptor (-d, -n, -N, -u)."""
    data = next((r.data for r in cmd.redirects if r.op in ("<<<", "<<", "<<-")
                 and r.data is not None), None)
    names = [a.text for a in cmd.args if not a.text.startswith("-")]
    flags = "".join(a.text[1:] for a in cmd.args if a.text.startswith("-"))
    if data is None or not data.known or len(names) != 1 or UNKNOWN in names[0] or not (
            set(flags) <= set("rse")):
        return {}
    line = data.text.split("\n", 1)[0].strip(" \t")
    return {names[0]: Word(line, line, False, data.tame, data.sources)}
