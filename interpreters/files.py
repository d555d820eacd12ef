"""Workspace file operations (the ``FileOp`` effect), confined to the workspace folder.

Confinement is checked on the *resolved* path: ``..`` and symlinks that lead outside the
root are refused with a sentence the model can read, before anything is read or written.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
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
    except Swapped:
        return Failure(f"'{effect.path}' changed while being opened")
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


class Swapped(OSError):
    """A path changed under us (a link appeared where the resolved path had none)."""


def _beneath(effect: FileOp, real: str, *, create: bool = False) -> tuple[int, str]:
    """A descriptor of the folder holding ``real`` and the last name, reached from the
    workspace root one component at a time without following any link: ``real`` was
    resolved already, so a link met on the way is one swapped in since (a race), refused.
    ``create``: make missing folders on the way."""
    root = os.path.realpath(effect.root)
    rel = os.path.relpath(real, root)
    parts = [] if rel == "." else rel.split(os.sep)
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for part in parts[:-1]:
            try:
                inner = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                os.mkdir(part, dir_fd=fd)
                inner = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise Swapped from None
                raise
            os.close(fd)
            fd = inner
    except BaseException:
        os.close(fd)
        raise
    return fd, parts[-1] if parts else "."


_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _read(effect: FileOp, real: str) -> Result[Any, str]:
    """Opened beneath the root without following links, without blocking, and only when
    it is a regular file (a FIFO or a device would hang or never end)."""
    folder, name = _beneath(effect, real)
    try:
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                         dir_fd=folder)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise Swapped from None
            raise
    finally:
        os.close(folder)
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(real)
        if not stat.S_ISREG(info.st_mode):
            return Failure(f"'{effect.path}' is not a regular file")
        if info.st_size > MAX_READ_BYTES:
            return Failure(f"'{effect.path}' is too large to read ({info.st_size:,} bytes)")
        return Success(handle.read(MAX_READ_BYTES + 1).decode("utf-8", errors="replace"))


def _write(effect: FileOp, real: str) -> Result[Any, str]:
    """Write a temporary file beside the target and rename it over the target, all beneath
    the root without following links: a reader sees the old text or the new, never a
    truncated file, and a hard link to a file elsewhere is replaced, not written through.
    The target's mode is kept."""
    data = effect.data or ""
    folder, name = _beneath(effect, real, create=True)
    try:
        try:
            info = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            info = None
        if info is not None and stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(real)
        if info is not None and not stat.S_ISREG(info.st_mode) and not stat.S_ISLNK(
                info.st_mode):
            return Failure(f"'{effect.path}' is not a regular file")
        mode = stat.S_IMODE(info.st_mode) if info is not None and stat.S_ISREG(
            info.st_mode) else 0o666 & ~_UMASK
        temporary = f".toolpipe-{secrets.token_hex(8)}.tmp"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                     | os.O_CLOEXEC, 0o600, dir_fd=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(data)
                os.fchmod(out.fileno(), mode)
            os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=folder)
            raise
    finally:
        os.close(folder)
    return Success(len(data))


def _regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)  # a link to a regular file is one too
    except OSError:
        return False


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
            if _temporary(name) or not _regular(os.path.join(folder, name)):
                continue  # a FIFO, socket or device: reading it would hang or never end
            found.append(os.path.relpath(os.path.join(folder, name), real))
            if len(found) >= MAX_WALK_FILES:
                return Success(tuple(sorted(found)))
    return Success(tuple(sorted(found)))


_OPS = {"read": _read, "write": _write, "list": _list, "walk": _walk, "resolve": _resolve}
