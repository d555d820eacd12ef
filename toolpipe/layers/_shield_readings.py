"""The wing's readings of command lines, kept between calls: a reading is pure, so a call is
read once per evaluation and the history's earlier calls are not read again."""

from __future__ import annotations

import functools

from toolpipe.layers._shield_patterns import ShellPattern
from toolpipe.shell import Script, analyse


@functools.lru_cache(maxsize=256)
def _analysed(command: str, workspace: str, max_length: int, max_commands: int) -> Script:
    """The wing's reading of a command (pure, so kept: a call is read once per evaluation
    and the earlier calls of the history are not read again on every call)."""
    return analyse(command, workspace=workspace, max_length=max_length,
                   max_commands=max_commands)


@functools.lru_cache(maxsize=1024)
def _mentions(pattern: ShellPattern, command: str, workspace: str, max_length: int,
              max_commands: int) -> bool:
    """Does a command run something the pattern matches (kept: history is asked often)?"""
    script = _analysed(command, workspace, max_length, max_commands)
    return any(pattern.matches(c) for c in script.commands)


def clear_caches() -> None:
    """Forget every kept reading (for tests that change how the wing reads)."""
    for cached in (_analysed, _mentions):
        cached.cache_clear()
