"""The optional OS sandbox for Bash: bubblewrap (``bwrap``, the Debian package
``bubblewrap``), the layer beneath the safety shield. The shield decides what may run;
the sandbox contains what runs.

Inside it the system is read-only (``/usr``, ``/etc``… bound read-only), the workspace is
the one writable place, ``/tmp`` is private and empty, the home folders (``~/.ssh``,
``~/.aws``… with them) and ``/root`` are not there at all, ``/etc/shadow`` and
``/etc/gshadow`` read as empty files, processes live in their own PID namespace and die
with the tool, and there is no network unless it is allowed. Pure: it only builds the
command line; the interpreter runs it.
"""

from __future__ import annotations

import posixpath

from toolpipe.errors import ConfigError

SANDBOXES = ("none", "bwrap")
# Read-only system folders (the ones that exist are bound; "-try" skips the others).
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
          "/var/lib", "/srv", "/nix")
HIDDEN_FILES = ("/etc/shadow", "/etc/gshadow")  # present on every Linux system


def check(sandbox: str, root: str) -> str:
    if sandbox not in SANDBOXES:
        raise ConfigError(f"sandbox must be one of {', '.join(SANDBOXES)}, got {sandbox!r}")
    if sandbox == "bwrap" and not posixpath.isabs(root):
        raise ConfigError(f"the bwrap sandbox needs an absolute workspace root, got {root!r}")
    return sandbox


def bwrap_argv(root: str, command: tuple[str, ...], *, network: bool = False
               ) -> tuple[str, ...]:
    """``bwrap`` options that run ``command`` with ``root`` as its only writable folder."""
    argv: list[str] = ["bwrap", "--die-with-parent", "--new-session", "--unshare-pid",
                       "--unshare-ipc", "--unshare-uts"]
    if not network:
        argv.append("--unshare-net")
    for folder in SYSTEM:
        argv += ["--ro-bind-try", folder, folder]
    for name in HIDDEN_FILES:
        argv += ["--ro-bind-try", "/dev/null", name]
    argv += ["--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
             "--bind", root, root, "--chdir", root,
             "--setenv", "HOME", root, "--setenv", "TMPDIR", "/tmp",
             "--remount-ro", "/", "--"]
    return (*argv, *command)


def explain(stderr: str) -> str | None:
    """A clear sentence when bwrap itself could not start (not the command's own error)."""
    first = stderr.strip().splitlines()[0] if stderr.strip() else ""
    if first.startswith("bwrap:"):
        return (f"the bwrap sandbox could not start ({first[6:].strip()}); user namespaces "
                "may be disabled here")
    return None
