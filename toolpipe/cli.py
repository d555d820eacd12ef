"""The ``toolpipe`` command.

    toolpipe run [--interpreter asyncio|trio|simulated] [--pipeline FILE.toml] [--json]
                 [--record TRACE.jsonl [--raw-trace]]
    toolpipe replay TRACE.jsonl [--pipeline FILE.toml] [--json]
    toolpipe pipeline [FILE.toml]

``run`` plays the bundled example session in a temporary workspace through a pipeline
(the default one, or a file) and prints each call as it finishes: tool, decision, the
layers that acted, duration and the head of the output. This module is one of toolpipe's
two edges that may touch interpreters and the file system.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import attrs

from toolpipe import __version__, demo
from toolpipe.agent import Agent, AgentRun, CallFinished, TurnPlanned
from toolpipe.config import DEFAULT_PIPELINE, load_pipeline, tools_options
from toolpipe.context import ToolContext
from toolpipe.errors import ToolpipeError
from toolpipe.failures import Cancelled
from toolpipe.observe import Acts, LayerActed, observed
from toolpipe.program import Program
from toolpipe.registry import ToolRegistry
from toolpipe.result import DispatchResult
from toolpipe.session import verdict
from toolpipe.tools import Workspace

INTERPRETER_NAMES = ("asyncio", "trio", "simulated")


class UsageError(ToolpipeError):
    """A command-line mistake: a file that cannot be read or written, a bad combination."""


def run_on(interpreter: str, program: Program[Any], on_event: Callable[[Any], None],
           recorder: Any = None) -> Any:
    """Run a program on the named interpreter, passing every event to ``on_event``."""
    if interpreter == "simulated":
        from interpreters.simulated import SimulatedInterpreter

        return SimulatedInterpreter(on_event=on_event).run(program)
    if interpreter == "asyncio":
        import asyncio

        from interpreters.asyncio import AsyncioInterpreter

        async def main() -> Any:
            return await AsyncioInterpreter(on_event=on_event, recorder=recorder).run(program)

        return asyncio.run(main())
    try:
        import trio
    except ImportError:
        raise SystemExit(
            "toolpipe: trio is not installed; install the extra: pip install "
            "'toolpipe-middleware[trio]'"
        ) from None
    from interpreters.trio import TrioInterpreter

    async def trio_main() -> Any:
        return await TrioInterpreter(on_event=on_event, recorder=recorder).run(program)

    return trio.run(trio_main)


# --- the report ------------------------------------------------------------------------------


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


def demo_pipeline_text() -> str:
    """The default pipeline with the demo's short timeout, so the retry shows quickly."""
    text = re.sub(r"(?m)^timeout = 30\b", f"timeout = {demo.DEMO_TIMEOUT:g}", DEFAULT_PIPELINE)
    assert text != DEFAULT_PIPELINE, "the default pipeline lost its timeout line"
    return text


MAX_INPUT = 256 * 1024 * 1024  # characters read from a file given on the command line


def read_text(path: str, what: str) -> str:
    """A UTF-8 text file's content; a clear error naming ``what`` it is otherwise (one
    that is not a regular file, or too large, included: ``/dev/zero`` never ends)."""
    try:
        if not os.path.isfile(path):
            raise UsageError(f"cannot read {what} {path}: not a regular file"
                             if os.path.exists(path) else
                             f"cannot read {what} {path}: No such file or directory")
        with open(path, encoding="utf-8") as handle:
            text = handle.read(MAX_INPUT + 1)
        if len(text) > MAX_INPUT:
            raise UsageError(f"{what} {path} is larger than {MAX_INPUT:,} characters")
        return text
    except OSError as exc:
        raise UsageError(f"cannot read {what} {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{what} {path} is not UTF-8 text") from None


def read_pipeline(path: str | None) -> tuple[str, str]:
    if path is None:
        return demo_pipeline_text(), "the default pipeline"
    return read_text(path, "the pipeline file"), path


def cmd_run(args: argparse.Namespace, out: TextIO) -> int:
    if args.record is not None and args.interpreter == "simulated":
        raise UsageError("--record needs --interpreter asyncio or trio (a recording is of a "
                         "real session)")
    text, source = read_pipeline(args.pipeline)
    with tempfile.TemporaryDirectory(prefix="toolpipe-demo-") as root:
        for name, content in demo.FILES.items():
            path = os.path.join(root, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(content)
        tools = tools_options(text, source=source)
        workspace = Workspace(root, sandbox=tools.sandbox, network=tools.network,
                              bash_timeout=tools.bash_timeout)
        registry = ToolRegistry([*workspace.tools(), demo.fetch_tool()])
        builder = load_pipeline(text, registry, source=source)
        agent = Agent(demo.model(), registry, tool_context=ToolContext(cwd=root),
                      max_turns=args.max_turns)
        agent.set_pipeline(observed(builder))
        names = agent.engine.middleware_names()
        report = Report(out, as_json=args.json, progress=sys.stderr)
        if not args.json:
            print(f"pipeline ({source}): {' → '.join(names)}", file=out)
            print(f"workspace: {root} (temporary)\nprompt: {demo.PROMPT}\n", file=out)
        recorder = None
        if args.raw_trace and args.record is not None:
            print(f"toolpipe: warning: {args.record} will hold secrets as they were "
                  "(--raw-trace); keep it on this machine", file=sys.stderr)
        if args.record is not None:
            from interpreters.recording import TraceRecorder

            try:
                recorder = TraceRecorder.open(args.record, interpreter=args.interpreter,
                                              pipeline=names, pipeline_text=text,
                                              tools=registry.declarations(),
                                              raw=args.raw_trace)
            except OSError as exc:
                raise UsageError(f"cannot write the trace {args.record}: {exc.strerror}"
                                 ) from None
        try:
            run = run_on(args.interpreter, agent.run(demo.PROMPT), report.on_event, recorder)
        finally:
            if recorder is not None:
                recorder.close()
        report.finish(run, args.interpreter, names)
        if recorder is not None and not args.json:
            print(f"trace: {args.record} ({recorder.seq} effects); replay it with "
                  f"`toolpipe replay {args.record}`", file=out)
    return 0


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    from interpreters.simulated import SimulatedInterpreter
    from toolpipe.session import differences, load_trace, replay, replay_registry

    lines = read_text(args.trace, "the trace").splitlines(keepends=True)
    trace = load_trace(lines, source=args.trace)
    if args.pipeline is not None:
        text, source = read_pipeline(args.pipeline)
    elif trace.header.pipeline_text is not None:
        text, source = trace.header.pipeline_text, "the recorded pipeline"
    else:
        raise UsageError(f"{args.trace} does not hold its pipeline; pass --pipeline FILE.toml")
    registry, recording = replay_registry(trace)
    builder = load_pipeline(text, registry, source=source)
    sim = SimulatedInterpreter()
    replayed = sim.run(replay(trace, builder, registry))
    diffs = differences(trace, replayed)
    changed = [d for d in diffs if not d.same]
    if args.json:
        print(json.dumps({
            "trace": args.trace, "pipeline": source, "calls": len(diffs),
            "changed": len(changed), "virtual_seconds": sim.now,
            "diff": [{
                "turn": d.turn, "call_id": d.call_id, "tool": d.tool, "same": d.same,
                "recorded": None if d.recorded is None else _shown(d.recorded),
                "replayed": _shown(d.replayed),
            } for d in diffs],
        }, indent=2), file=out)
        return 0
    print(f"replaying {args.trace} ({trace.header.interpreter}, {len(trace.turns)} turn(s), "
          f"{trace.effects} effects) through {source}\n", file=out)
    print(f"  {'turn':>4} {'tool':<6} {'recorded':<30} {'replayed':<30}", file=out)
    for d in diffs:
        before = "-" if d.recorded is None else f"{verdict(d.recorded)}: {d.recorded.text}"
        after = f"{verdict(d.replayed)}: {d.replayed.text}"
        mark = "  same" if d.same else "  CHANGED"
        print(f"  {d.turn:>4} {d.tool:<6} {head(before, 30):<30} {head(after, 30):<30}{mark}",
              file=out)
    print(f"\n{len(diffs)} call(s), {len(changed)} changed; the replay took {sim.now:.2f} "
          "virtual seconds", file=out)
    if recording.unmatched:
        print(f"{len(recording.unmatched)} run(s) had no recorded answer (the pipeline "
              "asked for runs the recording never made)", file=out)
    return 0


def _shown(result: DispatchResult) -> dict[str, Any]:
    return {"verdict": verdict(result), "output": result.text, "is_error": result.is_error,
            "duration": result.duration}


def cmd_pipeline(args: argparse.Namespace, out: TextIO) -> int:
    if args.file is None:
        out.write(DEFAULT_PIPELINE)
        return 0
    text, source = read_pipeline(args.file)
    builder = load_pipeline(text, ToolRegistry(), source=source)
    print(f"{source}: OK: {' → '.join([*(m.name for m in builder.layers), 'tool_call'])}",
          file=out)
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="toolpipe",
        description="Stackable middleware around every tool call an LLM agent makes.",
    )
    top.add_argument("--version", action="version", version=f"toolpipe {__version__}")
    sub = top.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="play the bundled example session through a pipeline")
    run.add_argument("--interpreter", choices=INTERPRETER_NAMES, default="asyncio",
                     help="which interpreter performs the effects (default: asyncio)")
    run.add_argument("--pipeline", metavar="FILE.toml",
                     help="a declarative pipeline (see `toolpipe pipeline` for the default)")
    run.add_argument("--json", action="store_true", help="print one JSON document")
    run.add_argument("--record", metavar="TRACE.jsonl",
                     help="record the session's effect log (asyncio or trio), secrets "
                          "redacted")
    run.add_argument("--raw-trace", action="store_true",
                     help="record secrets as they were (the trace then holds them)")
    run.add_argument("--max-turns", type=int, default=20, help=argparse.SUPPRESS)
    rep = sub.add_parser("replay", help="replay a recorded trace on the simulated clock and "
                         "show what changed, call by call")
    rep.add_argument("trace", metavar="TRACE.jsonl")
    rep.add_argument("--pipeline", metavar="FILE.toml",
                     help="replay through this pipeline instead of the recorded one")
    rep.add_argument("--json", action="store_true", help="print one JSON document")
    pipe = sub.add_parser("pipeline",
                          help="print the default pipeline file, or check FILE.toml")
    pipe.add_argument("file", nargs="?", metavar="FILE.toml")
    return top


COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO], int]] = {
    "run": cmd_run, "replay": cmd_replay, "pipeline": cmd_pipeline,
}


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args, out or sys.stdout)
    except ToolpipeError as exc:
        print(f"toolpipe: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("toolpipe: interrupted", file=sys.stderr)
        return 130
