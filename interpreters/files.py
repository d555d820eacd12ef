"""Workspace file operations (the ``FileOp`` effect), confined to the workspace folder.

Confinement is checked on the *resolved* path: ``..`` and symlinks that lead outside the
root are refused with a sentence the model can read, before anything is read or written.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from typing import Any

from returns.result import Failure, Result, Success

from toolpipe.effects import FileOp

MAX_READ_BYTES = 10_000_000
MAX_WALK_FILES = 20_000
SKIP_DIRS = frozenset({".git", "__pycache__", ".venv", "node_modules"})
_UMASK = os.umask(0)  # read once, at import (setting it later would race other threads)
os.umask(_UMASK)


class Escape(Exception):
    pass


def resolve(root: str, path: str) -> str:
    """The real path of ``path`` inside ``root``; raises ``Escape`` when it leads outside."""
    real_root = os.path.realpath(root)
    candidate = path if os.path.isabs(path) else os.path.join(real_root, path)
    real = os.path.realpath(candidate)
    if real != real_root and not real.startswith(real_root.rstrip(os.sep) + os.sep):
        raise Escape(path)
    return real


def perform(effect: FileOp) -> Result[Any, str]:
    """Carry out one ``FileOp``; every failure is a ``Failure(sentence)``, never a raise."""
    try:
        real = resolve(effect.root, effect.path)
    except Escape:
        return Failure(f"Path '{effect.path}' is outside the workspace")
    except (OSError, ValueError) as exc:
        return Failure(f"Cannot resolve '{effect.path}': {exc}")
    try:
        return _OPS[effect.op](effect, real)
    except FileNotFoundError:
        return Failure(f"No such file or directory: '{effect.path}'")
    except IsADirectoryError:
        return Failure(f"'{effect.path}' is a directory, not a file")
    except NotADirectoryError:
        return Failure(f"'{effect.path}' is not a directory")
    except PermissionError:
        return Failure(f"Permission denied: '{effect.path}'")
    except (OSError, ValueError) as exc:
        return Failure(f"Cannot {effect.op} '{effect.path}': {exc}")


def _read(effect: FileOp, real: str) -> Result[Any, str]:
    size = os.stat(real).st_size
    if size > MAX_READ_BYTES:
        return Failure(f"'{effect.path}' is too large to read ({size:,} bytes)")
    with open(real, "rb") as handle:
        return Success(handle.read().decode("utf-8", errors="replace"))


def _write(effect: FileOp, real: str) -> Result[Any, str]:
    """Write a temporary file beside the target and rename it over the target: a reader
    sees the old text or the new, never a truncated file. The target's mode is kept."""
    data = effect.data or ""
    folder = os.path.dirname(real)
    os.makedirs(folder, exist_ok=True)
    if os.path.isdir(real):
        raise IsADirectoryError(real)
    try:
        mode: int | None = stat.S_IMODE(os.stat(real).st_mode)
    except FileNotFoundError:
        mode = None
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".toolpipe-", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(data)
        if mode is not None:
            os.chmod(temporary, mode)
        else:  # a new file gets the usual mode (mkstemp makes it 0600)
            os.chmod(temporary, 0o666 & ~_UMASK)
        os.replace(temporary, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return Success(len(data))


def _temporary(name: str) -> bool:
    """A write's temporary file, there only until its rename (listings do not show it)."""
    return name.startswith(".toolpipe-") and name.endswith(".tmp")


def _resolve(effect: FileOp, real: str) -> Result[Any, str]:
    return Success(real)


def _list(effect: FileOp, real: str) -> Result[Any, str]:
    entries = []
    with os.scandir(real) as it:
        for entry in it:
            if _temporary(entry.name):
                continue
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            kind = ("link" if stat.S_ISLNK(info.st_mode) else
                    "dir" if stat.S_ISDIR(info.st_mode) else "file")
            entries.append((entry.name, kind, info.st_size if kind == "file" else 0))
    return Success(tuple(sorted(entries)))


def _walk(effect: FileOp, real: str) -> Result[Any, str]:
    if not os.path.isdir(real):
        if os.path.exists(real):
            return Success(("",))  # a file: the one path below it is itself
        raise FileNotFoundError(real)
    found: list[str] = []
    for folder, dirs, files in os.walk(real):  # symlinked folders are not followed
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for name in files:
            if _temporary(name):
                continue
            found.append(os.path.relpath(os.path.join(folder, name), real))
            if len(found) >= MAX_WALK_FILES:
                return Success(tuple(sorted(found)))
    return Success(tuple(sorted(found)))


_OPS = {"read": _read, "write": _write, "list": _list, "walk": _walk, "resolve": _resolve}
