"""The shield's patterns, written as shell text or paths, and its combos across calls (the
specification's part of the score, matched against the shell wing's facts)."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

import attrs

from toolpipe.errors import ConfigError
from toolpipe.shell import Command

_ALIASES = {"rm": {"--recursive": "-r", "--force": "-f"}, "chmod": {"--recursive": "-r"}}


def _normal_args(name: str, words: Iterable[str]) -> set[str]:
    """Words lower-cased, combined short flags split (``-rf`` → ``-r``, ``-f``)."""
    aliases = _ALIASES.get(name, {})
    out: set[str] = set()
    for word in words:
        w = word.lower()
        if w.startswith("-") and not w.startswith("--") and len(w) > 2 and w[1:].isalpha():
            out.update(f"-{c}" for c in w[1:])
        else:
            out.add(aliases.get(w, w))
    return out


@attrs.frozen
class ShellPattern:
    """A command pattern written as shell text: ``rm -rf``, ``chmod 777``, ``| sh``.

    It matches a command as it will run (wrappers such as sudo peeled, at any depth of
    nested code) whose name is the pattern's first word and whose arguments include the
    pattern's other words (combined short flags are expanded, so ``rm -fr`` matches ``rm
    -rf``). A leading ``|`` requires the command to read from a pipe. Matching ignores case.
    """

    text: str
    score: float
    piped: bool = attrs.field(init=False)
    name: str = attrs.field(init=False)
    args: frozenset[str] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        text = self.text.strip().lower()
        piped = text.startswith("|")
        words = text.lstrip("|&").split()
        if not words:
            raise ConfigError(f"pattern {self.text!r} names no command")
        object.__setattr__(self, "piped", piped)
        object.__setattr__(self, "name", words[0])
        object.__setattr__(self, "args", frozenset(_normal_args(words[0], words[1:])))

    def matches(self, cmd: Command) -> bool:
        if self.piped and not cmd.piped:
            return False
        if self.name in cmd.wrappers and not self.args:
            return True  # `sudo`: the command runs through it
        if cmd.name != self.name:
            return False
        return not self.args or self.args <= _normal_args(
            self.name, (a.text for a in cmd.args))


@attrs.frozen
class PathPattern:
    """``/etc/`` (a leading ``/``: the path starts with it) or ``.ssh/`` (anywhere)."""

    text: str
    score: float

    def matches_path(self, path: str) -> bool:
        p = posixpath.normpath(path.lower())
        text = self.text.lower()
        if text.startswith("/"):
            return (p + "/").startswith(text if text.endswith("/") else text + "/") or p == text
        return ("/" + text) in ("/" + p + "/")


# The spec's patterns. Ours drop the rm and sudo ones (a deletion is judged by what it
# deletes, sudo by what it runs): pass ``bash_patterns=SPEC_BASH`` to have them back.
SPEC_BASH = (
    ShellPattern("rm -rf", 0.9), ShellPattern("rm -r -f", 0.9), ShellPattern("rm --recursive", 0.9),
    ShellPattern("rm -f", 0.7), ShellPattern("| sh", 0.8), ShellPattern("|sh", 0.8),
    ShellPattern("sudo", 0.6), ShellPattern("chmod 777", 0.5),
    ShellPattern("curl", 0.3), ShellPattern("wget", 0.3),
)
DEFAULT_BASH = (
    ShellPattern("| sh", 0.8), ShellPattern("|sh", 0.8), ShellPattern("chmod 777", 0.5),
    ShellPattern("curl", 0.3), ShellPattern("wget", 0.3),
)
DEFAULT_WRITE = (PathPattern("/etc/", 0.7), PathPattern(".ssh/", 0.8), PathPattern("/usr/bin", 0.6))
DEFAULT_EDIT = (PathPattern("/etc/", 0.5), PathPattern(".ssh/", 0.7))
# What a file tool's write does, by the place written (a shell write scores the same).


@attrs.frozen
class ComboRule:
    """``first`` in the history, then ``second`` in the current call: (tool, pattern|None)."""

    first: tuple[str, str | None]
    second: tuple[str, str | None]
    score: float
    reason: str


DEFAULT_COMBOS = (
    ComboRule(("Bash", "curl"), ("Bash", "| sh"), 0.85, "download then pipe to shell"),
    ComboRule(("Write", None), ("Bash", "chmod +x"), 0.75, "write then make executable"),
    ComboRule(("Bash", "chmod"), ("Write", None), 0.65, "chmod then write"),
)
