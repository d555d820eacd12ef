"""What every driver does with a subprocess (the ``RunProcess`` effect), so that a command
always ends and never takes more memory than its cap:

- it runs in its own session and process group, with no standard input;
- its output is read as it comes, each stream kept up to ``MAX_OUTPUT`` bytes, the rest
  counted and reported (``[… N bytes of output dropped]``);
- on a timeout or a cancellation the whole group gets SIGTERM, then SIGKILL after
  ``GRACE`` seconds, and is reaped: no process of a timed-out command is left behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from typing import Any

from returns.result import Failure, Result, Success

from toolpipe.effects import ProcessResult, RunProcess

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
    try:
        proc = subprocess.Popen(list(effect.argv), cwd=effect.cwd, **POPEN)
    except OSError as exc:
        return could_not_run(effect, exc)
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
        stop_blocking(proc)
        return timed_out(effect)
    except BaseException:
        stop_blocking(proc)
        raise
    for reader in readers:  # the streams end when the last holder of the pipes exits
        reader.join(effect.timeout)
    return finished(proc.returncode, out, err)


def stop_blocking(proc: subprocess.Popen[bytes]) -> None:
    signal_group(proc.pid, signal.SIGTERM)
    try:
        proc.wait(GRACE)
    except subprocess.TimeoutExpired:
        pass
    signal_group(proc.pid, signal.SIGKILL)
    proc.wait()
