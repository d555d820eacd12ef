"""A shell's start-up hook: the code a program prints for a shell to run as it starts
(``eval "$(direnv hook bash)"``, ``source <(kubectl completion zsh)``). The output of
another command run as code is asked about (:mod:`toolpipe.shell._grammar`), but a hook is
that program's own documented use: running it is no more than running the program."""

from __future__ import annotations

import posixpath
import re

from toolpipe.shell._effects import DECODERS, NETWORK_SOURCES
from toolpipe.shell._oneliners import LANGUAGES
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
