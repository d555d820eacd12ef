"""Recording a session's effect log to a trace file (JSON lines, see ``toolpipe.session``).

    with TraceRecorder.open("session.jsonl", interpreter="asyncio",
                            pipeline_text=text, tools=registry.declarations()) as rec:
        await AsyncioInterpreter(recorder=rec).run(agent.run(prompt))

Every effect is written with its answer as soon as it is answered, so a crash leaves a
trace that is complete up to its last line (``toolpipe replay`` names a truncated line).

Secrets never reach the file: every string of every line (tool outputs, inputs, model
messages, results) goes through ``SecretPatternSet.default_common()`` (or the set given as
``redact``) before it is written. ``raw=True`` records them as they were; use it only for
traces that never leave the machine.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import TracebackType
from typing import Any, TextIO

from toolpipe import session
from toolpipe.agent import CallFinished, TurnPlanned
from toolpipe.effects import CallTool, Emit
from toolpipe.registry import ToolDeclaration
from toolpipe.secrets import SecretPatternSet

ABANDONED: Any = object()
"""The answer the driver reports for an effect whose wait was cut off (deadline, cancel)."""


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
        self.raw = raw
        patterns = redact if redact is not None else SecretPatternSet.default_common()
        self._scrub = None if raw else patterns.redact_value
        self.seq = 0
        self.origin: float | None = None
        self._owned = False
        header = session.Header(session.FORMAT, session.VERSION, interpreter, tuple(pipeline),
                              pipeline_text, tuple(tools))
        self._write(self._dumps(header))

    @classmethod
    def open(cls, path: str, **options: Any) -> TraceRecorder:
        recorder = cls(open(path, "w", encoding="utf-8"), **options)
        recorder._owned = True
        return recorder

    def _dumps(self, record: Any) -> str:
        return session.dumps(record, self._scrub)

    def _write(self, line: str) -> None:
        self.sink.write(line + "\n")
        self.sink.flush()

    def __call__(self, effect: Any, answer: Any, started: float, finished: float) -> None:
        """The interpreter's hook: ``effect`` was answered with ``answer`` (or abandoned)."""
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
            self.sink.close()

    def __enter__(self) -> TraceRecorder:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
