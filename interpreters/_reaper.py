"""Run a command so that no process of it outlives it (the unsandboxed path of RunProcess).

    python -I -S _reaper.py COMMAND [ARGS...]

This helper makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): every
process the command leaves behind, even one that called ``setsid`` or was double-forked and
disowned, is re-parented to it rather than to init. When the command exits, or when the
helper is told to stop (SIGTERM, SIGHUP, SIGINT, or its parent dying), it kills every
descendant it still has, reaps them, and exits with the command's status.

It runs with ``-I -S`` (no site, no environment): it imports only the standard library and
starts in about 10 ms. Under the bubblewrap sandbox it is not needed: the command's PID
namespace ends with it.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


def _prctl(option: int, value: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(option, value, 0, 0, 0)


def _children() -> list[int]:
    found: list[int] = []
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/children") as f:
                found += [int(p) for p in f.read().split()]
        except (OSError, ValueError):
            pass
    return found


def _sweep() -> None:
    """Kill every descendant, a generation a round: this round's children are killed and
    waited for, so that their own children have been re-parented here before the next
    round looks (without the wait, on a busy machine the rounds could all pass before a
    killed child had exited, and its children, re-parented after this helper had gone,
    lived on)."""
    for _ in range(1000):
        kids = _children()
        if not kids:
            break
        for pid in kids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for pid in kids:
            try:
                os.waitpid(pid, 0)  # (killed: it exits; its children come here first)
            except (ChildProcessError, InterruptedError):
                pass
        _reap_all()
    _reap_all()


def _reap_all() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: _reaper.py COMMAND [ARGS...]", file=sys.stderr)
        return 2
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)  # the host died: clean up all the same
    stopping = []

    def stop(signum: int, frame: object) -> None:
        stopping.append(signum)
        _sweep()
        os._exit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, stop)
    try:
        pid = os.fork()
    except OSError as exc:
        print(f"toolpipe: could not start {argv[0]}: {exc}", file=sys.stderr)
        return 126
    if pid == 0:  # the command
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(sig, signal.SIG_DFL)
        try:
            os.execvp(argv[0], argv)
        except OSError as exc:
            print(f"toolpipe: could not run {argv[0]!r}: {exc}", file=sys.stderr)
            os._exit(127)
    status = 0
    while True:  # wait for the command itself; adopted orphans are reaped on the way
        try:
            done, code = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        except InterruptedError:
            continue
        if done == pid:
            status = os.waitstatus_to_exitcode(code)
            break
    _sweep()
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
