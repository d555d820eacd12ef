"""Workspace file operations (the ``FileOp`` effect), confined to the workspace folder.

Confinement is checked twice. On the *resolved* path first: ``..`` and symlinks that lead
outside the root are refused with a sentence the model can read. Then on what is actually
opened: every open goes from a descriptor of the root with ``openat2(RESOLVE_BENEATH |
RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS)`` (a component walk with
O_NOFOLLOW and a mount check where the kernel lacks it), so a link swapped in since, or a
bind mount made inside the workspace, is refused; the opened file must be on the root's
filesystem; a file with several hard links is not read (another name may be outside);
listings and walks read descriptors reached the same way.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import hashlib
import os
import secrets
import stat
import threading
import time
from collections.abc import Callable
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
    """The real path of ``path`` inside ``root``; raises ``Escape`` when it leads outside.

    The common case costs one system call instead of a Python walk: a relative path that
    the kernel opens beneath the root without meeting a link, a mount or a way out
    (``openat2`` with ``O_PATH`` and the flags every open uses) is the root's real path
    joined with the path, normalised. Anything else (a link on the way, a missing part,
    ``..`` past the root, no openat2) is resolved by ``os.path.realpath`` and checked, as
    before."""
    found = _opened_first(root, path, os.O_PATH)
    if found is not None:
        os.close(found)
        return os.path.normpath(os.path.join(_real_root(root), path))
    return _walked(root, path)


def _walked(root: str, path: str) -> str:
    """``resolve`` by ``os.path.realpath``, checked to be inside ``root``."""
    real_root = _real_root(root)
    candidate = path if os.path.isabs(path) else os.path.join(real_root, path)
    real = os.path.realpath(candidate)
    if real != real_root and not real.startswith(real_root.rstrip(os.sep) + os.sep):
        raise Escape(path)
    return real


def _opened_first(root: str, path: str, flags: int) -> int | None:
    """``path`` (relative) opened beneath ``root`` in one ``openat2``, when the kernel finds
    no link, mount or way out on it: the descriptor. None otherwise (refused, missing, no
    openat2, an absolute path): the resolved path's walk then decides, and says why."""
    if not _HAVE_OPENAT2[0] or os.path.isabs(path):
        return None
    try:
        base = os.open(root, _ROOT_FLAGS)
    except OSError:
        return None
    try:
        return _openat2(base, path, flags)
    except OSError:
        return None
    finally:
        os.close(base)


_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK


def perform(effect: FileOp) -> Result[Any, str]:
    """Carry out one ``FileOp``; every failure is a ``Failure(sentence)``, never a raise.
    A read whose path the kernel opens beneath the root at once needs no resolving."""
    read = effect.op == "read"
    if read:
        fd = _opened_first(effect.root, effect.path, _READ_FLAGS)
        if fd is not None:
            return _answer(effect, _read_from, fd)
    try:  # (a read the kernel refused at once goes straight to the walk)
        real = (_walked if read else resolve)(effect.root, effect.path)
    except Escape:
        return Failure(f"Path '{effect.path}' is outside the workspace")
    except (OSError, ValueError) as exc:
        return Failure(f"Cannot resolve '{effect.path}': {exc}")
    return _answer(effect, _OPS[effect.op], real)


def _answer(effect: FileOp, op: Callable[[FileOp, Any], Result[Any, str]], arg: Any
            ) -> Result[Any, str]:
    """``op(effect, arg)``, what it raises said as a sentence naming the path."""
    try:
        return op(effect, arg)
    except Swapped as swapped:
        if swapped.errno == errno.EXDEV:
            return Failure(f"'{effect.path}' reaches across a mount point or onto another "
                           "filesystem (a bind mount inside the workspace?); it is not "
                           "opened")
        return Failure(f"'{effect.path}' changed while being opened (a link appeared)")
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
    """A path changed under us (a link or a mount appeared where the resolved path had
    none), or leads off the workspace's filesystem."""


# --- opening beneath the root: openat2 where the kernel has it, a checked walk elsewhere ---

_OPENAT2 = 437  # the same number on x86_64, aarch64 and the generic table
RESOLVE_NO_XDEV, RESOLVE_NO_MAGICLINKS, RESOLVE_NO_SYMLINKS, RESOLVE_BENEATH = 1, 2, 4, 8
_RESOLVE = RESOLVE_BENEATH | RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS


class _OpenHow(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64),
                ("resolve", ctypes.c_uint64)]


_libc = ctypes.CDLL(None, use_errno=True)
_HAVE_OPENAT2 = [hasattr(_libc, "syscall")]


_HOWS: dict[int, Any] = {}  # flags -> a pointer to its open_how (made once per flags)
_syscall = _libc.syscall
_syscall.restype = ctypes.c_long
_HOW_SIZE = ctypes.c_size_t(ctypes.sizeof(_OpenHow))


def _how(flags: int) -> Any:
    how = _HOWS.get(flags)
    if how is None:
        how = _HOWS[flags] = ctypes.pointer(_OpenHow(flags | os.O_CLOEXEC, 0, _RESOLVE))
    return how


def _openat2(dirfd: int, path: str, flags: int) -> int:
    how = _how(flags)
    while True:
        fd = _syscall(_OPENAT2, ctypes.c_int(dirfd), os.fsencode(path), how, _HOW_SIZE)
        if fd >= 0:
            return int(fd)
        err = ctypes.get_errno()
        if err == errno.EAGAIN or err == errno.EINTR:  # a rename raced the lookup: again
            continue
        if err in (errno.ELOOP, errno.EXDEV):  # a link, a mount or a way out: refused
            raise Swapped(err, os.strerror(err), path)
        raise OSError(err, os.strerror(err), path)


def _mount_id(fd: int) -> str | None:
    try:
        with open(f"/proc/self/fdinfo/{fd}") as info:
            for line in info:
                if line.startswith("mnt_id:"):
                    return line.split()[1]
    except OSError:
        pass
    return None


def open_at(dirfd: int, name: str, flags: int) -> int:
    """Open ``name`` (one component, or a path below ``dirfd``) without following any link
    and without crossing a mount point (a bind mount made inside the workspace included):
    ``openat2`` with RESOLVE_BENEATH | NO_XDEV | NO_MAGICLINKS | NO_SYMLINKS where the
    kernel has it; elsewhere one component at a time with O_NOFOLLOW, each checked to be
    on the same mount as the folder it was opened from."""
    if _HAVE_OPENAT2[0]:
        try:
            return _openat2(dirfd, name, flags)
        except OSError as exc:
            if exc.errno != errno.ENOSYS:
                raise
            _HAVE_OPENAT2[0] = False  # an older kernel: the checked walk from now on
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if not parts:
        return os.dup(dirfd)
    here, owned = dirfd, False
    try:
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            try:
                fd = os.open(part, (flags if last else _DIR_FLAGS) | os.O_NOFOLLOW
                             | os.O_CLOEXEC, dir_fd=here)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR) and part != "..":
                    raise Swapped(exc.errno, exc.strerror, name) from None
                raise
            if part == ".." or _mount_id(fd) != _mount_id(here):
                os.close(fd)
                raise Swapped(errno.EXDEV, "crosses a mount point", name)
            if owned:
                os.close(here)
            here, owned = fd, True
        return here
    except BaseException:
        if owned:
            os.close(here)
        raise


_ROOT_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_REAL_ROOTS: dict[str, tuple[str, int, int]] = {}


def _real_root(root: str) -> str:
    """``os.path.realpath(root)``, remembered while ``root`` still names the same folder
    (its device and inode, two stats instead of a walk of every component). What is
    opened never depends on it: every open starts from a descriptor of ``root`` itself."""
    known = _REAL_ROOTS.get(root)
    if known is not None:
        real, dev, ino = known
        try:
            now, then = os.stat(root), os.stat(real)
        except OSError:
            pass
        else:
            if (now.st_dev, now.st_ino) == (dev, ino) == (then.st_dev, then.st_ino):
                return real
    real = os.path.realpath(root)
    try:
        info = os.stat(real)
    except OSError:
        return real
    if len(_REAL_ROOTS) >= 64:
        _REAL_ROOTS.clear()
    _REAL_ROOTS[root] = (real, info.st_dev, info.st_ino)
    return real


def _root_fd(effect: FileOp) -> int:
    return os.open(effect.root, _ROOT_FLAGS)


def _relative(effect: FileOp, real: str) -> list[str]:
    rel = os.path.relpath(real, _real_root(effect.root))
    return [] if rel == "." else rel.split(os.sep)


def _opened(effect: FileOp, real: str, flags: int) -> int:
    """``real`` (resolved, known to be inside) opened beneath the root, and on the root's
    filesystem (its device checked after opening)."""
    root = _root_fd(effect)
    try:
        parts = _relative(effect, real)
        fd = open_at(root, "/".join(parts) or ".", flags)
        if os.fstat(fd).st_dev != os.fstat(root).st_dev:
            os.close(fd)
            raise Swapped(errno.EXDEV, "on another filesystem", real)
        return fd
    finally:
        os.close(root)


def _beneath(effect: FileOp, real: str, *, create: bool = False) -> tuple[int, str]:
    """A descriptor of the folder holding ``real`` and the last name, reached from the
    workspace root without following any link or crossing a mount. ``create``: make
    missing folders on the way."""
    parts = _relative(effect, real)
    fd = _root_fd(effect)
    try:
        for part in parts[:-1]:
            try:
                inner = open_at(fd, part, _DIR_FLAGS)
            except FileNotFoundError:
                if not create:
                    raise
                os.mkdir(part, dir_fd=fd)
                inner = open_at(fd, part, _DIR_FLAGS)
            os.close(fd)
            fd = inner
    except BaseException:
        os.close(fd)
        raise
    return fd, parts[-1] if parts else "."


_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _read(effect: FileOp, real: str) -> Result[Any, str]:
    """Opened beneath the root without following links or crossing mounts, without
    blocking, and only when it is a regular file (a FIFO or a device would hang or never
    end) with one name (another hard link may be a name outside the workspace)."""
    return _read_from(effect, _opened(effect, real, _READ_FLAGS))


def _read_from(effect: FileOp, fd: int) -> Result[Any, str]:
    """``_read`` once the file is open (the descriptor is closed here)."""
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(effect.path)
        if not stat.S_ISREG(info.st_mode):
            return Failure(f"'{effect.path}' is not a regular file")
        if info.st_nlink > 1 and not effect.hard_links:
            return Failure(
                f"'{effect.path}' has {info.st_nlink} hard links: another of its names may "
                "be outside the workspace, so it is not read (Workspace(hard_links=True) "
                "allows it)")
        if info.st_size > MAX_READ_BYTES:
            return Failure(f"'{effect.path}' is too large to read ({info.st_size:,} bytes)")
        if info.st_size > QUICK_READ_BYTES and _quick():
            raise _NotQuick(effect.path)  # opened and checked; read on a worker
        # sized to the file (a buffer of the largest size allowed costs more than a small
        # file's read); a file that grew since is read on, up to the same limit
        data = handle.read(info.st_size + 1)
        if len(data) > info.st_size:
            data += handle.read(MAX_READ_BYTES + 1 - len(data))
        return Success(data.decode("utf-8", errors="replace"))


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
        if info is not None and stat.S_ISREG(info.st_mode):  # a file mounted over it?
            os.close(open_at(folder, name, os.O_RDONLY | os.O_NONBLOCK))
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


def _temporary(name: str) -> bool:
    """A write's temporary file, there only until its rename (listings do not show it)."""
    return name.startswith(".toolpipe-") and name.endswith(".tmp")


def _resolve(effect: FileOp, real: str) -> Result[Any, str]:
    return Success(real)


def _list(effect: FileOp, real: str) -> Result[Any, str]:
    """The folder opened beneath the root (no link, no mount crossed), then listed through
    its descriptor: a folder swapped for a link meanwhile shows nothing of the outside."""
    fd = _opened(effect, real, os.O_RDONLY | os.O_DIRECTORY)
    entries = []
    try:
        for name in os.listdir(fd):
            if _temporary(name):
                continue
            try:
                info = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except OSError:
                continue
            kind = ("link" if stat.S_ISLNK(info.st_mode) else
                    "dir" if stat.S_ISDIR(info.st_mode) else "file")
            entries.append((name, kind, info.st_size if kind == "file" else 0))
    finally:
        os.close(fd)
    return Success(tuple(sorted(entries)))


def _walk(effect: FileOp, real: str) -> Result[Any, str]:
    """The regular files below a folder, walked through descriptors: each subfolder opened
    from its parent's descriptor without following links or crossing mounts (a bind mount
    inside the workspace is not entered), so no race shows an outside name."""
    try:
        top = _opened(effect, real, os.O_RDONLY | os.O_DIRECTORY)
    except NotADirectoryError:
        top = -1
    if top < 0:
        fd = _opened(effect, real, os.O_RDONLY | os.O_NONBLOCK)
        try:
            regular = stat.S_ISREG(os.fstat(fd).st_mode)
        finally:
            os.close(fd)
        if regular:
            return Success(("",))  # a file: the one path below it is itself
        return Failure(f"'{effect.path}' is not a regular file")
    found: list[str] = []
    stack: list[tuple[int, str]] = [(top, "")]
    try:
        while stack and len(found) < MAX_WALK_FILES:
            fd, prefix = stack.pop()
            try:
                names = sorted(os.listdir(fd))
                for name in names:
                    path = f"{prefix}{name}"
                    try:
                        info = os.stat(name, dir_fd=fd, follow_symlinks=False)
                    except OSError:
                        continue
                    if stat.S_ISDIR(info.st_mode):
                        if name in SKIP_DIRS:
                            continue
                        try:
                            stack.append((open_at(fd, name, _DIR_FLAGS), path + "/"))
                        except OSError:  # a mount point or a swapped link: not entered
                            continue
                    elif not _temporary(name) and _regular_at(fd, name, info):
                        found.append(path)
                        if len(found) >= MAX_WALK_FILES:
                            break
            finally:
                os.close(fd)
    finally:
        for fd, _ in stack:
            os.close(fd)
    return Success(tuple(sorted(found)))


def _regular_at(fd: int, name: str, info: os.stat_result) -> bool:
    """A regular file, or a link to one (a FIFO, socket or device would hang a read)."""
    if stat.S_ISREG(info.st_mode):
        return True
    if not stat.S_ISLNK(info.st_mode):
        return False
    try:
        return stat.S_ISREG(os.stat(name, dir_fd=fd).st_mode)
    except OSError:
        return False


# --- stamps: what a cached answer depends on, checked on every cache hit ----------------------

RACY_NS = 2_000_000_000
"""A file changed this recently (by mtime or ctime) is stamped with its content digest as
well: timestamps move in coarse ticks (a few milliseconds on ext4, two seconds on FAT), so a
second same-size write within one tick could leave every stat field as it was."""
MAX_DIGEST_BYTES = 16_000_000
MAX_STAMP_ENTRIES = 20_000


class Unstampable(Exception):
    """Too large to fingerprint cheaply: the answer is not cached."""


# --- the quick path: answered on the event loop when it takes a few system calls -----------

QUICK_OPS = frozenset({"resolve", "stamp", "read"})
QUICK_ENTRIES = 256
QUICK_READ_BYTES = 64 * 1024
_QUICK = threading.local()


class _NotQuick(Exception):
    """The operation needs real work (a digest to compute, a large folder): a worker's."""


def perform_quick(effect: FileOp) -> Result[Any, str] | None:
    """``perform(effect)`` for a ``resolve``, a ``read`` of a regular file of at most
    ``QUICK_READ_BYTES``, or a ``stamp`` that needs no content digest and lists a folder of
    at most ``QUICK_ENTRIES`` entries; None when it would need more (the caller then runs
    it on a worker thread). A few system calls cost a few microseconds on a local
    filesystem; the thread hop costs a hundred or more."""
    if effect.op not in QUICK_OPS:
        return None
    _QUICK.on = True
    try:
        if effect.op != "stamp":  # resolve, and read (a small file: see _read)
            return perform(effect)
        # a stamp reads no content here (a digest is a worker's): the confinement check of
        # perform() (two realpath walks, most of the cost) has nothing to protect
        return _OPS["stamp"](effect, "")
    except (_NotQuick, OSError, ValueError):  # the worker answers, with its checks
        return None
    finally:
        _QUICK.on = False


def _quick() -> bool:
    return getattr(_QUICK, "on", False)


def _stat_fields(info: os.stat_result | None) -> str:
    if info is None:
        return "-"
    return (f"{info.st_dev}:{info.st_ino}:{info.st_mode:o}:{info.st_size}:"
            f"{info.st_mtime_ns}:{info.st_ctime_ns}")


def _lstat(path: str, dir_fd: int | None = None) -> os.stat_result | None:
    try:
        return os.stat(path, dir_fd=dir_fd, follow_symlinks=False)
    except (FileNotFoundError, NotADirectoryError):
        return None


def _racy_digest(path: str, info: os.stat_result, now: int, dir_fd: int | None = None
                 ) -> str:
    """The content digest of a regular file changed within ``RACY_NS`` (else "")."""
    if not stat.S_ISREG(info.st_mode) or \
            now - max(info.st_mtime_ns, info.st_ctime_ns) > RACY_NS:
        return ""
    if _quick():
        raise _NotQuick(path)
    if info.st_size > MAX_DIGEST_BYTES:
        raise Unstampable(path)
    digest = hashlib.sha256()
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return "?"
    with os.fdopen(fd, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _entry(path: str, now: int, dir_fd: int | None = None) -> tuple[str, os.stat_result | None]:
    """One entry's fingerprint: its lstat, and for a link what it leads to; the digest of
    a recently changed file. Returns the followed stat too (None: missing or dangling)."""
    own = _lstat(path, dir_fd)
    target = own
    if own is not None and stat.S_ISLNK(own.st_mode):
        try:
            target = os.stat(path, dir_fd=dir_fd)
        except OSError:
            target = None
        link = os.readlink(path, dir_fd=dir_fd)
        text = f"{_stat_fields(own)}>{link}>{_stat_fields(target)}"
    else:
        text = _stat_fields(own)
    if target is not None:
        text += "#" + _racy_digest(path, target, now, dir_fd)
    return text, target


def _top(effect: FileOp) -> tuple[int, str, list[str], os.stat_result | None]:
    """The clock, the path as named, the stamp's first parts and what the path leads to.
    The same whether taken on a worker or on the loop (``perform_quick``): a stamp taken
    one way is checked the other way."""
    now = time.time_ns()
    named = os.path.join(effect.root, effect.path)
    text, target = _entry(named, now)
    return now, named, [named, text], target


def _stamp(effect: FileOp, real: str) -> Result[Any, str]:
    """The path as named (each link on the way shows in the followed stat: another
    target, another inode) and, for a folder, each of its entries."""
    now, named, parts, target = _top(effect)
    if target is not None and stat.S_ISDIR(target.st_mode):
        fd = os.open(named, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            names = sorted(os.listdir(fd))
            if len(names) > MAX_STAMP_ENTRIES:
                raise Unstampable(effect.path)
            if len(names) > QUICK_ENTRIES and _quick():
                raise _NotQuick(effect.path)
            for name in names:
                parts.append(f"{name}={_entry(name, now, fd)[0]}")
        finally:
            os.close(fd)
    return Success(_digest(parts))


def _stamp_tree(effect: FileOp, real: str) -> Result[Any, str]:
    """Every entry below a folder (links not followed into, the folders a walk skips
    skipped), each as ``_stamp`` sees one."""
    now, _, parts, target = _top(effect)
    if target is None or not stat.S_ISDIR(target.st_mode):
        return Success(_digest(parts))
    count = 0
    stack: list[tuple[int, str]] = [(os.open(real, os.O_RDONLY | os.O_DIRECTORY
                                             | os.O_CLOEXEC), "")]
    try:
        while stack:
            fd, prefix = stack.pop()
            try:
                for name in sorted(os.listdir(fd)):
                    count += 1
                    if count > MAX_STAMP_ENTRIES:
                        raise Unstampable(effect.path)
                    text, _ = _entry(name, now, fd)
                    parts.append(f"{prefix}{name}={text}")
                    own = _lstat(name, fd)
                    if own is not None and stat.S_ISDIR(own.st_mode) \
                            and name not in SKIP_DIRS:
                        try:
                            stack.append((open_at(fd, name, _DIR_FLAGS), f"{prefix}{name}/"))
                        except OSError:  # a mount point or a swapped link: its name counts
                            parts.append(f"{prefix}{name}/?")
            finally:
                os.close(fd)
    finally:
        for fd, _ in stack:
            os.close(fd)
    return Success(_digest(parts))


def _digest(parts: list[str]) -> str:
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


_Op = Callable[[FileOp, str], Result[Any, str]]


def _stamped(op: _Op) -> _Op:
    def run(effect: FileOp, real: str) -> Result[Any, str]:
        try:
            return op(effect, real)
        except Unstampable:
            return Failure(f"'{effect.path}' is too large to fingerprint")
    return run


_OPS = {"read": _read, "write": _write, "list": _list, "walk": _walk, "resolve": _resolve,
        "stamp": _stamped(_stamp), "stamp_tree": _stamped(_stamp_tree)}
