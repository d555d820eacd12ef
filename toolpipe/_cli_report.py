"""The per-call table ``toolpipe run`` prints (or its JSON document): part of the command
line edge, with ``cli.py`` (it reads the wall clock)."""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, TextIO

import attrs

from toolpipe.agent import AgentRun, CallFinished, TurnPlanned
from toolpipe.failures import Cancelled
from toolpipe.observe import Acts, LayerActed
from toolpipe.session import verdict


@attrs.frozen
class Row:
    turn: int
    call_id: str
    tool: str
    input: dict[str, Any]
    decision: str
    layers: tuple[tuple[str, str], ...]
    duration: float
    is_error: bool
    output: str


def decide(event: CallFinished, acts: Sequence[tuple[str, Acts]]) -> str:
    """A one-word verdict for the table: the result's own (``session.verdict``), sharpened
    by what the layers did (a cache hit, a retry, a turn cancelled early)."""
    result = event.result
    did = dict(acts)
    if not event.reached_pipeline and isinstance(result.cause, Cancelled):
        return "cancelled"
    memo = did.get("memoize")
    if memo is not None and memo.attempts == 0:
        return "cache hit"
    word = verdict(result)
    timeout = did.get("timeout")
    if word == "ok" and timeout is not None and timeout.attempts > 1:
        return "ok (retried)"
    return word


def head(text: str, width: int, *, tail: bool = False) -> str:
    """The text on one line within ``width``; with ``tail``, a closing question (an error's
    did-you-mean) is kept too."""
    line = " ".join(text.split())
    if len(line) <= width:
        return line
    cut = line.rfind(". ")
    last = line[cut + 2:] if cut > 0 else ""
    if tail and last.endswith("?") and len(last) <= width * 2 // 3:
        return line[: width - len(last) - 3] + " … " + last
    return line[: width - 1] + "…"


class Report:
    """Collects events into rows and prints each row as soon as its call finishes."""

    def __init__(self, out: TextIO, *, as_json: bool, progress: TextIO) -> None:
        self.out = out
        self.as_json = as_json
        self.progress = progress
        self.acted: dict[str, list[LayerActed]] = defaultdict(list)
        self.rows: list[Row] = []
        self.waves = 0
        self.started = time.perf_counter()

    def on_event(self, event: Any) -> None:
        if isinstance(event, LayerActed):
            self.acted[event.call_id].append(event)
        elif isinstance(event, TurnPlanned):
            self.waves += len(event.waves)
            line = (f"turn {event.turn}: {event.calls} call(s) in {len(event.waves)} "
                    f"wave(s)")
            print(line, file=self.progress if self.as_json else self.out, flush=True)
            if not self.as_json and event.turn == 1:
                self._header()
        elif isinstance(event, CallFinished):
            r = event.result
            acted = self.acted.pop(r.tool_call_id, [])
            row = Row(event.turn, r.tool_call_id, event.name, dict(event.input),
                      decide(event, [(a.layer, a.acts) for a in acted]),
                      tuple((a.layer, a.how) for a in acted), r.duration, r.is_error, r.text)
            self.rows.append(row)
            if not self.as_json:
                self._print(row)

    def _header(self) -> None:
        print(f"  {'tool':<6} {'decision':<13} {'layers that acted':<28} {'time':>7}  output",
              file=self.out)

    def _print(self, row: Row) -> None:
        layers = ", ".join(name for name, _ in row.layers) or "-"
        print(f"  {row.tool:<6} {row.decision:<13} {head(layers, 28):<28} "
              f"{row.duration:>6.2f}s  {head(row.output, 60, tail=row.is_error)}",
              file=self.out, flush=True)

    def finish(self, run: AgentRun, interpreter: str, pipeline: list[str]) -> None:
        wall = time.perf_counter() - self.started
        if self.as_json:
            document = {
                "interpreter": interpreter,
                "pipeline": pipeline,
                "turns": run.turns,
                "stop_reason": run.stop_reason,
                "error": run.error,
                "final_text": run.final_text,
                "calls": [
                    {**attrs.asdict(row, recurse=False),
                     "layers": [{"layer": n, "how": h} for n, h in row.layers]}
                    for row in self.rows
                ],
            }
            print(json.dumps(document, indent=2), file=self.out)
            return
        print(f"\n{run.turns} turn(s), {len(self.rows)} call(s) in {self.waves} wave(s), "
              f"{wall:.2f}s wall on {interpreter}; stopped: {run.stop_reason}"
              + (f" ({run.error})" if run.error else ""), file=self.out)
        print(f"model: {run.final_text}", file=self.out)


# --- commands --------------------------------------------------------------------------------
