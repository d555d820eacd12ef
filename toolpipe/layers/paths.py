"""Path extractors: which files a call reads or writes, for the memoizer's invalidation."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from toolpipe._shell import commands
from toolpipe.context import ToolContext

PATH_FIELDS = ("path", "file_path", "filename", "filepath")
COMMAND_FIELDS = ("command", "cmd")
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh"})


class PathExtractor(Protocol):
    def __call__(
        self, tool: str, input: Mapping[str, Any], context: ToolContext
    ) -> Iterable[str]: ...


def normalise(path: str, cwd: str) -> str:
    """Lexical normalisation against ``cwd`` (no filesystem access)."""
    return posixpath.normpath(posixpath.join(cwd or ".", path))


WRITE_REDIRECTS = frozenset({">", ">>", "2>", "2>>", "1>", "1>>", "&>", ">&", ">|", "&>>"})


def redirect_targets(command: str, *, depth: int = 1) -> list[str]:
    """Targets of ``> >> 2> 2>> 1> 1>> &> >&`` (also ``>|``, ``&>>``), inline or as the next
    token, also inside one level of ``sh -c '…'``; ``&N`` and digit operands are skipped."""
    targets: list[str] = []
    for cmd in commands(command):
        for op, target in cmd.redirects:
            if op not in WRITE_REDIRECTS or not target:
                continue
            if target.isdigit() or target.startswith("&") or target == "-":
                continue
            targets.append(target)
        words = cmd.words
        if depth > 0 and words and posixpath.basename(words[0]) in SHELLS:
            for i, word in enumerate(words[1:-1], start=1):
                if word == "-c" or (word.startswith("-") and word.endswith("c")):
                    targets.extend(redirect_targets(words[i + 1], depth=depth - 1))
                    break
    return targets


class WritePathExtractor:
    """First string field of path/file_path/filename/filepath; for command/cmd, the
    redirection targets. Paths are normalised lexically against the context's cwd."""

    def __call__(
        self, tool: str, input: Mapping[str, Any], context: ToolContext
    ) -> list[str]:
        cwd = context.cwd
        for field in PATH_FIELDS:
            value = input.get(field)
            if isinstance(value, str) and value:
                return [normalise(value, cwd)]
        for field in COMMAND_FIELDS:
            value = input.get(field)
            if isinstance(value, str):
                return [normalise(t, cwd) for t in redirect_targets(value)]
        return []

    def __repr__(self) -> str:
        return "WritePathExtractor()"


class NoPathExtractor:
    """Declares no paths: every write invalidates every entry (see the memoize page)."""

    def __call__(self, tool: str, input: Mapping[str, Any], context: ToolContext) -> list[str]:
        return []

    def __repr__(self) -> str:
        return "NoPathExtractor()"
