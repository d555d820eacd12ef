"""Path extractors: which files a call reads or writes, for the memoizer's invalidation."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from toolpipe.context import ToolContext
from toolpipe.shell import write_targets

PATH_FIELDS = ("path", "file_path", "filename", "filepath")
COMMAND_FIELDS = ("command", "cmd")


class PathExtractor(Protocol):
    def __call__(
        self, tool: str, input: Mapping[str, Any], context: ToolContext
    ) -> Iterable[str]: ...


def normalise(path: str, cwd: str) -> str:
    """Lexical normalisation against ``cwd`` (no filesystem access)."""
    return posixpath.normpath(posixpath.join(cwd or ".", path))


class WritePathExtractor:
    """First string field of path/file_path/filename/filepath; for command/cmd, the files
    the shell wing finds it may change (redirections, ``cp``/``mv``/``tee``/``sed -i``…, at
    every depth of nested code). Paths are normalised lexically against the context's cwd.
    A command whose targets cannot all be known declares none (every entry is then
    invalidated, see the memoize page)."""

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
                return write_targets(value, cwd) or []
        return []

    def __repr__(self) -> str:
        return "WritePathExtractor()"


class NoPathExtractor:
    """Declares no paths: every write invalidates every entry (see the memoize page)."""

    def __call__(self, tool: str, input: Mapping[str, Any], context: ToolContext) -> list[str]:
        return []

    def __repr__(self) -> str:
        return "NoPathExtractor()"
