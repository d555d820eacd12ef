"""The OS sandbox for Bash: bubblewrap (``bwrap``, the Debian package ``bubblewrap``), the
boundary beneath the safety shield. The shield explains and asks; the sandbox contains
whatever runs, whatever the command says.

Modes (``Workspace(root, sandbox=…)``, ``[tools] sandbox = …`` in a pipeline file):

- ``"auto"`` (the default): in bubblewrap where it works here; where it cannot (not
  installed, user namespaces off), Bash runs unsandboxed and a warning says why, once.
- ``"required"`` (``"bwrap"`` is its old name): in bubblewrap or not at all; a call where
  it cannot start fails and says why.
- ``"none"``: the explicit opt-out. The command still runs in its own session and process
  group, and every process of it is stopped when the call ends (see ``interpreters``).

Inside the sandbox, even when the caller is root:

- a user namespace (``--unshare-user``) with every capability dropped (``--cap-drop ALL``)
  and no further namespaces (``--disable-userns``, and the seccomp filter of
  ``toolpipe._seccomp`` refusing mount, umount, pivot_root, ptrace, the handle calls,
  module loading, bpf, keyrings, perf, unshare/setns and new-namespace clones);
- its own PID namespace, so every process the command started ends with it; a new session
  (no terminal to inject into); it dies with its parent;
- the system folders read-only, the workspace the one writable place, a private empty
  ``/tmp``, home folders and ``/root`` absent, ``/etc/shadow`` and ``/etc/gshadow`` empty;
  for a caller that is root, everything of the system folders an ordinary user could not
  read masked too (``ROOT_MASKS``), and the kernel's knobs under /proc read-only;
- an environment rebuilt from an allow-list (``ENV_ALLOWED`` plus what the user names):
  the host's API keys are not there, not even in ``/proc/1/environ``;
- no network unless ``network=True``.

Pure: this module builds the command line and the environment; the interpreter runs it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from toolpipe import _seccomp
from toolpipe.errors import ConfigError

SANDBOXES = ("auto", "required", "none", "bwrap")
DEFAULT_SANDBOX = "auto"
# Read-only system folders (the ones that exist are bound; "-try" skips the others).
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
          "/var/lib", "/srv", "/nix")
HIDDEN_FILES = ("/etc/shadow", "/etc/gshadow")  # present on every Linux system
ENV_ALLOWED = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TERM", "TZ")
"""Host variables copied into the sandbox (when set); HOME and TMPDIR are set to the
workspace and /tmp. Anything else (API keys, tokens) stays outside unless named."""
PROC_READ_ONLY = ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs")
"""The kernel's global knobs: a caller that is root keeps its user id inside (the user
namespace maps it to itself), and these files obey owner permissions, so they are bound
read-only (as container runtimes do)."""
ROOT_MASKS = "{root-masks}"
"""The argv word the interpreter replaces, when the caller is root, by masks over every
file and folder of the system folders that an ordinary user could not read (private keys,
shadow files, databases): root inside sees no more than an ordinary user would."""
SECCOMP_FD = "{seccomp-fd}"
"""The argv token the interpreter replaces by the descriptor it passes the filter on."""
MACHINE = os.uname().machine


def check(sandbox: str) -> str:
    """The mode, checked; ``"bwrap"`` is the old name of ``"required"``."""
    if sandbox not in SANDBOXES:
        raise ConfigError(f"sandbox must be one of {', '.join(SANDBOXES)}, got {sandbox!r}")
    return "required" if sandbox == "bwrap" else sandbox


def env_names(names: Iterable[str]) -> tuple[str, ...]:
    """Extra host variables a user lets into the sandbox, checked."""
    if isinstance(names, str):
        raise ConfigError(f"env must be a list of variable names, not {names!r}")
    out = []
    for name in names:
        if not isinstance(name, str) or not name or "=" in name or "\0" in name:
            raise ConfigError(f"env: {name!r} is not an environment variable name")
        out.append(name)
    return tuple(out)


def environment(root: str, extra: Iterable[str] = ()) -> tuple[tuple[str, str | None], ...]:
    """The sandbox's environment: (name, value), a value of None copied from the host when
    it is set there (the interpreter does that)."""
    fixed: tuple[tuple[str, str | None], ...] = (("HOME", root), ("TMPDIR", "/tmp"))
    names = [n for n in (*ENV_ALLOWED, *extra) if n not in ("HOME", "TMPDIR")]
    return fixed + tuple((name, None) for name in dict.fromkeys(names))


def seccomp_filter() -> bytes | None:
    """The compiled filter for this machine (None where no filter is written for it)."""
    return _seccomp.compiled(MACHINE) if _seccomp.supported(MACHINE) else None


def bwrap_argv(root: str, command: tuple[str, ...], *, network: bool = False,
               seccomp: bool = True) -> tuple[str, ...]:
    """``bwrap`` options that run ``command`` with ``root`` as its only writable folder.
    With ``seccomp``, the argv holds ``SECCOMP_FD`` where the filter's descriptor goes."""
    argv: list[str] = ["bwrap", "--unshare-user", "--disable-userns", "--cap-drop", "ALL",
                       "--unshare-pid", "--unshare-ipc", "--unshare-uts",
                       "--unshare-cgroup-try", "--die-with-parent", "--new-session"]
    if not network:
        argv.append("--unshare-net")
    for folder in SYSTEM:
        argv += ["--ro-bind-try", folder, folder]
    for name in HIDDEN_FILES:
        argv += ["--ro-bind-try", "/dev/null", name]
    argv += [ROOT_MASKS, "--dev", "/dev", "--proc", "/proc"]
    for knob in PROC_READ_ONLY:
        argv += ["--ro-bind-try", knob, knob]
    argv += ["--tmpfs", "/tmp", "--bind", root, root, "--chdir", root, "--remount-ro", "/"]
    if seccomp:
        argv += ["--seccomp", SECCOMP_FD]
    return (*argv, "--", *command)


PROBE = ("bwrap", "--unshare-user", "--disable-userns", "--cap-drop", "ALL",
         "--unshare-pid", "--ro-bind", "/", "/", "--proc", "/proc", "--", "true")
"""What the interpreter runs once to learn whether the sandbox works here."""


def explain(stderr: str) -> str | None:
    """A clear sentence when bwrap itself could not start (not the command's own error)."""
    first = stderr.strip().splitlines()[0] if stderr.strip() else ""
    if first.startswith("bwrap:"):
        return (f"the bwrap sandbox could not start ({first[6:].strip()}); user namespaces "
                "may be disabled here")
    return None
