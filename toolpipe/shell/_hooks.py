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
from toolpipe.shell._listings import listed_item, lister
from toolpipe.shell._model import Command
from toolpipe.shell._oneliners import LANGUAGES
from toolpipe.shell._parameters import _ELEMENTS
from toolpipe.shell._printed import printed
from toolpipe.shell._words import UNKNOWN, Word, literal
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


def assigned(cmd: Command, listed: dict[str, Word], fed: dict[str, str]) -> dict[str, Word]:
    """The variables ``printf -v NAME FORMAT ARGS…``, ``read`` (see ``read_into`` and
    ``read_listed``) or ``readarray``/``mapfile`` set (see ``listed_into``; ``listed``: the
    word for each name a process substitution lists, see ``listed_item``; ``fed``: what a
    plain one prints; both by the substitution's text)."""
    if cmd.name == "printf" and len(cmd.args) >= 3 and cmd.args[0].text == "-v":
        return {cmd.args[1].text: printed(cmd.args[2:])}
    if cmd.name in ("readarray", "mapfile"):
        return listed_into(cmd, listed, fed)
    if cmd.name == "read":
        return read_into(cmd) or read_listed(cmd, listed) or read_unknown(cmd)
    return {}


def read_unknown(cmd: Command) -> dict[str, Word]:
    """What ``read NAME…`` reads from anywhere else (a file, a pipe, ``< <(…)``): not
    known, whatever NAME held before, and from the programs that feed it (a download's
    or a decoder's name may climb out of the folder it is joined to: ``curl … | while read
    -r f; do rm -rf "build/$f"``)."""
    texts = [a.text for a in cmd.args]
    names = [t for i, t in enumerate(texts) if re.fullmatch(r"[A-Za-z_]\w*", t) and not (
        i and texts[i - 1] in ("-d", "-n", "-N", "-p", "-t", "-u", "-a"))]
    if "-a" in texts or not names:
        return {}  # (an array's elements: left as they were, unknown when never set)
    sources = tuple(c.name for c in cmd.upstream if c.name) + tuple(
        s for r in cmd.redirects if r.op == "<" and r.target is not None
        for s in r.target.sources)
    return {n: Word(UNKNOWN, f"<read into {n}>", tame=False, sources=sources) for n in names}


def _listing_read(cmd: Command, listed: dict[str, Word]) -> Word | None:
    """Each name, when ``cmd`` reads the lines of a listing: from ``< <(ls -d build/*)``,
    or from its pipe (``find build -print0 | while read -r -d '' f``)."""
    source = next((listed[r.target.raw] for r in cmd.redirects if r.op == "<"
                   and r.target is not None and r.target.raw in listed), None)
    if source is None and not any(r.op in ("<", "<<", "<<<", "<<-") for r in cmd.redirects):
        source = listed_item(lister(cmd.upstream))
    return source


# readarray's options that take a value (-C's callback runs code: not read here)
_MAPFILE_VALUED = frozenset({"-d", "-n", "-O", "-s", "-u", "-c"})


def listed_into(cmd: Command, listed: dict[str, Word], fed: dict[str, str]) -> dict[str, Word]:
    """``readarray -t NAME < <(ls -d build/*)``: NAME's elements are the names the listing
    prints, each under its root (tame: none climbs out); from ``< <(printf '%s\\n' build
    dist)``, the lines printed. Nothing else is known: input from elsewhere, another
    descriptor (-u), a callback (-C), a name not plain."""
    source = _listing_read(cmd, listed)
    texts = [a.text for a in cmd.args]
    printed_lines = next((fed[r.target.raw] for r in cmd.redirects if r.op == "<"
                          and r.target is not None and r.target.raw in fed), None)
    if (source is None and printed_lines is None) or "-C" in texts or "-u" in texts:
        return {}
    names = [t for i, t in enumerate(texts) if not t.startswith("-") and (
        i == 0 or texts[i - 1] not in _MAPFILE_VALUED)]
    name = names[-1] if names else "MAPFILE"
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        return {}
    if source is not None:
        return {name: source, name + "[]": source}
    elements = [e for e in re.split(r"[\n\0]", printed_lines or "") if e]
    if not elements:
        return {}
    return {name: literal(elements[0]),
            name + "[]": Word(_ELEMENTS.join(elements), printed_lines or "", tame=True)}


def read_listed(cmd: Command, listed: dict[str, Word]) -> dict[str, Word]:
    """``while read -r NAME; do …; done < <(ls -d build/*)`` (or a listing's pipe into the
    loop, ``-d ''`` for ``find -print0``'s names): NAME is each name the listing prints,
    under its root. Several names, an array, a count or another descriptor: nothing."""
    source = _listing_read(cmd, listed)
    texts = [a.text for a in cmd.args]
    names: list[str] = []
    at = 0
    while at < len(texts):
        t = texts[at]
        if t == "-d" and at + 1 < len(texts):
            at += 2
            continue
        if t.startswith("-") and set(t[1:]) <= set("rse"):
            at += 1
            continue
        names.append(t)
        at += 1
    if source is None or len(names) != 1 or not re.fullmatch(r"[A-Za-z_]\w*", names[0]):
        return {}
    return {names[0]: source}


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
