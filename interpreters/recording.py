"""Recording a session's effect log to a trace file (JSON lines, see ``toolpipe.session``).

    with TraceRecorder.open("session.jsonl", interpreter="asyncio",
                            pipeline_text=text, tools=registry.declarations()) as rec:
        await AsyncioInterpreter(recorder=rec).run(agent.run(prompt))

Every effect is written with its answer as soon as it is answered, so a crash leaves a
trace that is complete up to its last line (``toolpipe replay`` replays the intact prefix of
a trace whose last line was cut short, and says what it dropped).

A trace file has one writer: the recorder holds an exclusive lock on it (``flock``), and a
second recorder on the same file gets ``TraceLocked`` at once, before anything is
truncated. A write that fails (a full disk, a closed pipe) stops the recording with one
``TraceWriteWarning``; the session goes on, and ``failed`` says what happened.

Secrets never reach the file: every string of every line (tool outputs, inputs, model
messages, results) goes through ``SecretPatternSet.default_common()`` (or the set given as
``redact``) before it is written. ``raw=True`` records them as they were; use it only for
traces that never leave the machine.
"""

from __future__ import annotations

import fcntl
import os
import warnings
from collections.abc import Iterable
from types import TracebackType
from typing import Any, TextIO

from toolpipe import session
from toolpipe._checks import error_text
from toolpipe.agent import CallFinished, TurnPlanned
from toolpipe.effects import CallTool, Emit
from toolpipe.registry import ToolDeclaration
from toolpipe.secrets import SecretPatternSet

ABANDONED: Any = object()
"""The answer the driver reports for an effect whose wait was cut off (deadline, cancel)."""


class TraceLocked(session.TraceError):
    """Another recorder is writing this trace file."""


class TraceWriteWarning(UserWarning):
    """Writing the trace failed: the recording stopped, the session went on."""


def _lock(fd: int, name: str) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise TraceLocked(f"{name}: another recorder is writing this trace (the file is "
                          "locked); record to another file") from None
    except OSError:  # a file that cannot be locked (a pipe, some network mounts)
        pass


class TraceRecorder:
    """Writes one line per answered effect, plus the typed records a replay needs."""

    def __init__(
        self,
        sink: TextIO,
        *,
        interpreter: str,
        pipeline: Iterable[str] = (),
        pipeline_text: str | None = None,
        tools: Iterable[ToolDeclaration] = (),
        redact: SecretPatternSet | None = None,
        raw: bool = False,
    ) -> None:
        self.sink = sink
        self.failed: BaseException | None = None
        self.raw = raw
        patterns = redact if redact is not None else SecretPatternSet.default_common()
        self._scrub = None if raw else patterns.redact_value
        self.seq = 0
        self.origin: float | None = None
        self._owned = False
        fileno = getattr(sink, "fileno", None)
        try:
            fd = fileno() if callable(fileno) else None
        except (OSError, ValueError):  # an in-memory sink has no descriptor
            fd = None
        if isinstance(fd, int):
            _lock(fd, getattr(sink, "name", "the trace"))
        header = session.Header(session.FORMAT, session.VERSION, interpreter, tuple(pipeline),
                              pipeline_text, tuple(tools))
        self._write(self._dumps(header))

    @classmethod
    def open(cls, path: str, **options: Any) -> TraceRecorder:
        """Lock ``path``, then empty it and record into it (``TraceLocked`` when another
        recorder holds it: nothing of its trace is lost)."""
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            _lock(fd, path)
            os.ftruncate(fd, 0)
            sink = os.fdopen(fd, "w", encoding="utf-8")
        except BaseException:
            os.close(fd)
            raise
        try:
            recorder = cls(sink, **options)
        except BaseException:
            sink.close()
            raise
        recorder._owned = True
        return recorder

    def _dumps(self, record: Any) -> str:
        return session.dumps(record, self._scrub)

    def _write(self, line: str) -> None:
        if self.failed is not None:
            return
        try:
            self.sink.write(line + "\n")
            self.sink.flush()
        except Exception as error:  # a full disk, a closed pipe: stop, once, and go on
            self._stop(error)

    def _stop(self, error: BaseException) -> None:
        self.failed = error
        name = getattr(self.sink, "name", "the trace")
        warnings.warn(f"{name}: writing the trace failed after {self.seq} effects "
                      f"({error_text(error)}); recording stopped, the session goes on",
                      TraceWriteWarning, stacklevel=2)

    def __call__(self, effect: Any, answer: Any, started: float, finished: float) -> None:
        """The interpreter's hook: ``effect`` was answered with ``answer`` (or abandoned).
        It never raises: a recording that fails stops (see ``failed``)."""
        if self.failed is not None:
            return
        try:
            self._record(effect, answer, started, finished)
        except Exception as error:  # an answer that cannot be encoded: stop recording
            self._stop(error)

    def _record(self, effect: Any, answer: Any, started: float, finished: float) -> None:
        if self.origin is None:
            self.origin = started
        self.seq += 1
        t = finished - self.origin
        shown = "abandoned" if answer is ABANDONED else answer
        self._write(self._dumps(session.effect_record(self.seq, t, effect, shown)))
        kind = type(effect)
        if kind is CallTool:
            if answer is ABANDONED:
                outcome: Any = (session.Abandoned(), finished - started)
            else:
                outcome = session.outcome_of(answer)
            if outcome is not None:
                # a tool whose own effects were recorded first (an MCP call is a Request
                # inside the tool) started before the origin they set: it starts at 0
                self._write(self._dumps(session.ToolRecord(
                    effect.tool.name, dict(effect.input), max(0.0, started - self.origin),
                    outcome[1], outcome[0])))
        elif kind is Emit:
            event = effect.event
            if isinstance(event, TurnPlanned):
                self._write(self._dumps(session.TurnRecord(event.turn, event.tool_calls,
                                                         event.visible)))
            elif isinstance(event, CallFinished):
                self._write(self._dumps(session.ResultRecord(
                    event.turn, event.index, event.name, event.result,
                    event.reached_pipeline)))

    def close(self) -> None:
        if self._owned:
            try:
                self.sink.close()  # flushes: a full disk may still refuse the last bytes
            except Exception as error:
                if self.failed is None:
                    self._stop(error)

    def __enter__(self) -> TraceRecorder:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
