"""Daemon worker threads for the async drivers' thread work (plain function tools, file
operations). Daemon threads never delay the interpreter's shutdown, even when a call left
one running past its deadline; idle ones are reused, and a new one starts only when every
thread is busy (a stuck call costs a thread, never the others' progress)."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable


class DaemonPool:
    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._idle = 0

    def submit(self, job: Callable[[], None]) -> None:
        with self._lock:
            spawn = self._idle == 0
            if not spawn:
                self._idle -= 1
        self._jobs.put(job)
        if spawn:
            threading.Thread(target=self._work, name="toolpipe-worker", daemon=True).start()

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            try:
                job()
            except BaseException:  # a job reports its own outcome; the thread lives on
                pass
            with self._lock:
                self._idle += 1


POOL = DaemonPool()
