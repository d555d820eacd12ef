"""What every driver does with a subprocess (the ``RunProcess`` effect), so that a command
always ends and never takes more memory than its cap:

- it runs in its own session and process group, with no standard input, under a
  subreaper (``_reaper.py``) that stops every process it leaves behind (background jobs,
  ``setsid``, double forks) when it ends, unless something else contains it (``contain``);
- its output is read as it comes, each stream kept up to ``MAX_OUTPUT`` bytes, the rest
  counted and reported (``[… N bytes of output dropped]``);
- on a timeout or a cancellation the whole group gets SIGTERM, then SIGKILL after
  ``GRACE`` seconds, and the call answers only once the command has *ended*: it has
  exited and been reaped, and its pipes are at their end (every process holding them is
  gone: a sandbox's PID namespace, which dies a moment after its bubblewrap, or a
  descendant in a session of its own, which the reaper stops on SIGTERM). Each wait is
  bounded by ``GRACE``; a tree still not gone after SIGKILL (a descendant that escaped
  both and closed its pipes) is left to be reaped later rather than hang the call.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from typing import Any

from returns.result import Failure, Result, Success

from toolpipe.effects import ProcessResult, RunProcess
from toolpipe.sandbox import ROOT_MASKS as ROOT_MASKS

HERE = os.path.dirname(os.path.abspath(__file__))
REAPER = os.path.join(HERE, "_reaper.py")
PRCTL = {"x86_64": 157, "aarch64": 167, "riscv64": 167, "i686": 172, "armv7l": 172}


def reaper() -> list[str]:
    """The subreaper's command line: the Perl one where perl is (2 ms to start), else the
    Python one (30 ms)."""
    perl = shutil.which("perl")
    number = PRCTL.get(os.uname().machine)
    if perl is not None and number is not None:
        return [perl, os.path.join(HERE, "_reaper.pl"), str(number)]
    return [sys.executable, "-I", "-S", REAPER]
MAX_OUTPUT = 4 * 1024 * 1024  # bytes kept of each stream
GRACE = 0.5  # seconds between SIGTERM and SIGKILL
CHUNK = 65536


class Capped:
    """Bytes of one stream, kept up to ``MAX_OUTPUT``; the rest only counted."""

    __slots__ = ("dropped", "kept")

    def __init__(self) -> None:
        self.kept = bytearray()
        self.dropped = 0

    def add(self, chunk: bytes) -> None:
        room = MAX_OUTPUT - len(self.kept)
        if room > 0:
            self.kept += chunk[:room]
        self.dropped += max(0, len(chunk) - max(room, 0))

    def text(self) -> str:
        text = self.kept.decode(errors="replace")
        if self.dropped:
            text += f"\n[… {self.dropped:,} bytes of output dropped]"
        return text


def signal_group(pid: int, sig: int) -> None:
    """Send ``sig`` to the process group led by ``pid`` (gone already: nothing to do)."""
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def finished(returncode: int | None, out: Capped, err: Capped) -> Result[ProcessResult, str]:
    return Success(ProcessResult(returncode if returncode is not None else -1, out.text(),
                                 err.text()))


def timed_out(effect: RunProcess) -> Result[ProcessResult, str]:
    return Failure(f"command timed out after {effect.timeout:g}s")


def could_not_run(effect: RunProcess, exc: OSError) -> Result[ProcessResult, str]:
    return Failure(f"could not run {effect.argv[0]!r}: {exc}")


POPEN: dict[str, Any] = {"stdin": subprocess.DEVNULL, "stdout": subprocess.PIPE,
                         "stderr": subprocess.PIPE, "start_new_session": True}


def run_blocking(effect: RunProcess) -> Result[ProcessResult, str]:
    """The synchronous driver's way (the simulated interpreter's default): reader threads
    for the two streams, a wait with the timeout, then the group stopped."""
    argv, options, opened = prepare(effect)
    try:
        proc = subprocess.Popen(argv, cwd=effect.cwd, **options)
    except OSError as exc:
        return could_not_run(effect, exc)
    finally:
        close_all(opened)
    out, err = Capped(), Capped()

    def drain(stream: Any, into: Capped) -> None:
        for chunk in iter(lambda: stream.read1(CHUNK), b""):
            into.add(chunk)

    readers = [threading.Thread(target=drain, args=(proc.stdout, out), daemon=True),
               threading.Thread(target=drain, args=(proc.stderr, err), daemon=True)]
    for reader in readers:
        reader.start()
    try:
        proc.wait(effect.timeout)
    except subprocess.TimeoutExpired:
        stop_blocking(proc, readers)
        return timed_out(effect)
    except BaseException:
        stop_blocking(proc, readers)
        raise
    for reader in readers:  # the streams end when the last holder of the pipes exits
        reader.join(effect.timeout)
    return finished(proc.returncode, out, err)


def stop_blocking(proc: subprocess.Popen[bytes], readers: list[threading.Thread]) -> None:
    """SIGTERM, SIGKILL after ``GRACE``, each followed by a wait (bounded by ``GRACE``)
    for the command to end: exited, and its pipes at their end (the readers done)."""

    def ended() -> bool:
        end = time.monotonic() + GRACE
        try:
            proc.wait(GRACE)
        except subprocess.TimeoutExpired:
            return False
        for reader in readers:
            reader.join(max(0.0, end - time.monotonic()))
        return not any(reader.is_alive() for reader in readers)

    signal_group(proc.pid, signal.SIGTERM)
    if not ended():
        signal_group(proc.pid, signal.SIGKILL)
        ended()


def prepare(effect: RunProcess, masks: tuple[str, ...] | None = None
            ) -> tuple[list[str], dict[str, Any], list[int]]:
    """The argv and Popen options of ``effect``: its environment (None: the host's), and
    each of its ``fds`` written into a pipe whose read end is passed to the process (its
    number replacing the argv token). Close the returned descriptors once it started.
    ``masks``: ``root_masks()`` found already (the async drivers find them on a worker)."""
    options = dict(POPEN)
    if effect.env is not None:
        options["env"] = {name: value if value is not None else os.environ[name]
                          for name, value in effect.env
                          if value is not None or name in os.environ}
    opened: list[int] = []
    argv = list(effect.argv)
    if ROOT_MASKS in argv:
        at = argv.index(ROOT_MASKS)
        argv[at:at + 1] = list(root_masks() if masks is None else masks)
    path = (options.get("env") or os.environ).get("PATH")
    if effect.contain and shutil.which(argv[0], path=path) is not None:
        # (a command that cannot be found fails to start as before: could_not_run)
        argv = [*reaper(), *argv]
    try:
        for token, data in effect.fds:
            read, write = os.pipe()
            opened.append(read)
            try:
                view = memoryview(data)
                while view:  # a filter is a few hundred bytes: the pipe holds it whole
                    view = view[os.write(write, view):]
            finally:
                os.close(write)
            argv = [str(read) if word == token else word for word in argv]
    except BaseException:
        close_all(opened)
        raise
    if opened:
        options["pass_fds"] = tuple(opened)
    return argv, options, opened


def close_all(fds: list[int]) -> None:
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass


_MASKS: list[tuple[str, ...]] = []
ONCE = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/nix", "/opt")
"""Folders of installed software, scanned once per process (0.3 s for a /usr, more for a
large /opt); the folders of configuration and data, where keys and databases live (/etc,
/srv, /var/lib: a few milliseconds), are scanned again for every sandboxed call."""


def _unreadable(roots: list[str]) -> list[str]:
    """bwrap options masking what an ordinary user could not read under ``roots``."""
    roots = [f for f in roots if os.path.isdir(f) and not os.path.islink(f)]
    if not roots:
        return []
    try:
        found = subprocess.run(
            ["find", *roots, "-xdev", "(", "-type", "d", "!", "-perm", "-o=rx",
             "-printf", "d %p\\0", "-prune", ")", "-o", "(", "!", "-type", "d",
             "!", "-type", "l", "!", "-perm", "-o=r", "-printf", "f %p\\0", ")"],
            capture_output=True, timeout=60, check=False, stdin=subprocess.DEVNULL).stdout
    except (OSError, subprocess.TimeoutExpired):
        # cannot tell what is private: hide these folders' private parts wholesale
        return [option for root in roots for option in ("--tmpfs", root)]
    options: list[str] = []
    for entry in found.decode(errors="surrogateescape").split("\0"):
        kind, _, path = entry.partition(" ")
        if kind == "d":
            options += ["--tmpfs", path]
        elif kind == "f":
            options += ["--ro-bind", "/dev/null", path]
    return options


def root_masks() -> tuple[str, ...]:
    """For a caller that is root: bwrap options masking each file (with /dev/null) and
    folder (with an empty tmpfs) of the system folders that an ordinary user could not
    read. Nothing for an ordinary caller: it cannot read them anyway."""
    from toolpipe.sandbox import SYSTEM

    if os.geteuid() != 0:
        return ()
    with _SANDBOX_LOCK:
        if not _MASKS:
            _MASKS.append(tuple(_unreadable([f for f in SYSTEM if f in ONCE])))
    return (*_still_there(_MASKS[0]), *_unreadable([f for f in SYSTEM if f not in ONCE]))


def _still_there(options: tuple[str, ...]) -> list[str]:
    """The remembered masks whose path still exists: bubblewrap cannot mount over a path
    that was removed since (it would try to create it on a read-only folder)."""
    out: list[str] = []
    i = 0
    while i < len(options):
        width = 2 if options[i] == "--tmpfs" else 3
        if os.path.lexists(options[i + width - 1]):
            out += options[i:i + width]
        i += width
    return out


_SANDBOX: list[str | None] = []
_SANDBOX_LOCK = threading.Lock()


def sandbox_status() -> str | None:
    """None when bubblewrap runs here (user namespaces, no capabilities), else why not;
    found once per process (``toolpipe.sandbox.PROBE``) and remembered."""
    from toolpipe.sandbox import PROBE, explain

    with _SANDBOX_LOCK:
        if not _SANDBOX:
            try:
                done = subprocess.run(PROBE, capture_output=True, text=True, timeout=30,
                                      stdin=subprocess.DEVNULL, check=False)
            except FileNotFoundError:
                reason: str | None = ("bubblewrap is not installed "
                                      "(apt-get install bubblewrap)")
            except (OSError, subprocess.TimeoutExpired) as exc:
                reason = f"bubblewrap could not run ({exc})"
            else:
                reason = None if done.returncode == 0 else (
                    explain(done.stderr) or f"bubblewrap failed ({done.stderr.strip()[:200]})")
            _SANDBOX.append(reason)
            if reason is not None:
                import logging

                logging.getLogger("toolpipe.sandbox").warning(
                    "Bash runs without the OS sandbox where its mode allows it: %s", reason)
        return _SANDBOX[0]
