"""The facts the shell wing produces: commands as they will run, and what it could not read."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Literal

import attrs

from toolpipe.shell._words import Word

if TYPE_CHECKING:
    from toolpipe.shell._effects import Effect

ProblemKind = Literal[
    "unparsed", "too-deep", "too-long", "dynamic-command", "dynamic-code", "fork-bomb",
    "reverse-shell", "socket", "destroys", "exhausts", "schedules",
]


# Commands whose first operand names what they do (``git push``), shown in summaries.
SUBCOMMANDS = frozenset({"git", "docker", "podman", "kubectl", "systemctl", "apt", "apt-get",
                         "npm", "pip", "cargo", "helm", "terraform", "aws", "gcloud", "az",
                         "gsutil", "crontab", "rclone", "lvm", "zfs", "zpool", "btrfs"})


@attrs.frozen
class Redirect:
    """``op`` as written (``>``, ``>>``, ``&>``, ``>&``, ``<``, ``<>``, ``<<``, ``<<<``)."""

    op: str
    fd: int | None
    target: Word | None  # a file, or None for here-documents and here-strings
    data: Word | None = None  # the here-document's or here-string's text

    @property
    def writes(self) -> bool:
        return ">" in self.op and self.target is not None and not self.duplicates

    @property
    def reads(self) -> bool:
        return self.op in ("<", "<>") and self.target is not None

    @property
    def duplicates(self) -> bool:
        """``2>&1``, ``>&-``: a file descriptor, not a file."""
        t = self.target
        return (self.op in (">&", "<&") and t is not None and t.known
                and (t.text.isdigit() or t.text == "-"))


@attrs.frozen
class Command:
    """One simple command as it will run: wrappers (sudo, env, timeout…) peeled off."""

    argv: tuple[Word, ...]
    wrappers: tuple[str, ...] = ()
    redirects: tuple[Redirect, ...] = ()
    # Commands earlier in the same pipeline (their output is this command's input).
    upstream: tuple[Command, ...] = ()
    where: tuple[str, ...] = ()  # the code strings it was found in, outermost first
    cwd: str | None = "."  # the directory it runs in, relative to the workspace; None: unknown
    pipeline: int = 0
    position: int = 0
    privileged: bool = False  # run through sudo, doas, su, pkexec…

    @functools.cached_property
    def name(self) -> str:
        """The command's name: the basename of its first word, lower-cased, without a
        Windows program's ``.exe`` (``/mnt/c/Windows/System32/reg.exe`` from WSL is ``reg``,
        as a row names it); '' if unknown."""
        if not self.argv or not self.argv[0].known:
            return ""
        text = self.argv[0].text
        base = text.replace("\\", "/").rpartition("/")[2].lower()
        return (base[:-4] if base.endswith(".exe") and len(base) > 4 else base) or text

    @property
    def args(self) -> tuple[Word, ...]:
        return self.argv[1:]

    @functools.cached_property
    def worked_out(self) -> tuple[Effect, ...]:
        """Its effects, worked out once (``toolpipe.shell._effects.effects``: the rules, the
        session's data flow and the caches all ask, of the same facts)."""
        from toolpipe.shell._effects import work_out  # (the effect model, built on this one)

        return tuple(work_out(self))

    @property
    def stdin_data(self) -> tuple[Word, ...]:
        return tuple(r.data for r in self.redirects if r.data is not None)

    @property
    def piped(self) -> bool:
        return bool(self.upstream)

    def summary(self, limit: int = 3) -> str:
        """``sudo rm -rf``: wrappers, the name and its first option words."""
        wrappers = self.wrappers[:-1] if self.wrappers[-1:] == (self.name,) else self.wrappers
        words = [*wrappers, self.name or (self.argv[0].shown if self.argv else "redirection")]
        if self.name in SUBCOMMANDS:
            words += [a.shown for a in self.args if not a.text.startswith("-")][:1]
        opts = [a.shown for a in self.args if a.text.startswith("-")][:limit]
        return " ".join(words + opts)

    def located(self, limit: int = 3) -> str:
        """The summary and where it was found: ``rm -rf inside eval``."""
        inner = " inside ".join(reversed(self.where))
        return self.summary(limit) + (f" inside {inner}" if inner else "")


@attrs.frozen
class Problem:
    """Something the wing could not analyse, or a shape that is dangerous in itself."""

    kind: ProblemKind
    text: str
    where: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()  # for dynamic code: the commands whose output it is

    def located(self) -> str:
        inner = " inside ".join(reversed(self.where))
        return self.text + (f" inside {inner}" if inner else "")


@attrs.frozen
class Script:
    """Everything found in one command line or script, at every depth."""

    text: str
    commands: tuple[Command, ...]
    problems: tuple[Problem, ...]
    workspace: str = "."

    @functools.cached_property
    def networked(self) -> bool:
        """Does any of its commands talk to the network?"""
        from toolpipe.shell._effects import sends  # the effect model, built on this module

        return any(sends(c) for c in self.commands)

    @functools.cached_property
    def _pipelines(self) -> dict[int, tuple[Command, ...]]:
        out: dict[int, list[Command]] = {}
        for c in self.commands:
            out.setdefault(c.pipeline, []).append(c)
        return {k: tuple(v) for k, v in out.items()}

    def downstream(self, cmd: Command) -> tuple[Command, ...]:
        return tuple(c for c in self._pipelines.get(cmd.pipeline, ())
                     if c.position > cmd.position)
