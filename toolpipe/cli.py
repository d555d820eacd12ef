"""The ``toolpipe`` command.

    toolpipe run [--interpreter asyncio|trio|simulated] [--pipeline FILE.toml] [--json]
                 [--record TRACE.jsonl [--raw-trace]]
                 [--model openai:MODEL|anthropic:MODEL --workspace DIR "PROMPT"]
    toolpipe replay TRACE.jsonl [--pipeline FILE.toml] [--json]
    toolpipe pipeline [FILE.toml]

``run`` plays the bundled example session in a temporary workspace through a pipeline
(the default one, or a file); with ``--model`` it runs the user's own task in their
workspace with a real model (the key from the environment). It prints each call as it
finishes: tool, decision, the
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
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from toolpipe import __version__, demo
from toolpipe.agent import Agent
from toolpipe.config import DEFAULT_PIPELINE, load_pipeline, tools_options
from toolpipe.context import ToolContext
from toolpipe.errors import ConfigError, ToolpipeError
from toolpipe.observe import observed
from toolpipe.program import Program
from toolpipe.registry import ToolRegistry
from toolpipe.result import DispatchResult
from toolpipe.session import TraceError, verdict
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


from toolpipe._cli_mcp import add_mcp_proxy, mcp_proxy_options  # noqa: E402
from toolpipe._cli_report import Report as Report  # noqa: E402
from toolpipe._cli_report import decide as decide  # noqa: E402
from toolpipe._cli_report import head as head  # noqa: E402
from toolpipe._cli_resume import add_resume, cmd_resume  # noqa: E402


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


def read_pipeline(path: str | None, *, demo: bool = False) -> tuple[str, str]:
    """The pipeline file's text, or the default pipeline (``toolpipe pipeline``). Only the
    bundled session (``demo``) gets the demo's short timeout, so that its retry shows."""
    if path is None:
        if demo:
            return demo_pipeline_text(), "the default pipeline"
        return DEFAULT_PIPELINE, "the default pipeline"
    return read_text(path, "the pipeline file"), path


def cmd_run(args: argparse.Namespace, out: TextIO) -> int:
    if args.record is not None and args.interpreter == "simulated":
        raise UsageError("--record needs --interpreter asyncio or trio (a recording is of a "
                         "real session)")
    text, source = read_pipeline(args.pipeline, demo=args.model is None)
    if args.model is None:
        if args.pause is not None:
            raise UsageError("--pause goes with --model and --workspace (the bundled session "
                             "plays in a folder that is gone when it ends)")
        if args.workspace is not None or args.prompt is not None:
            raise UsageError("--workspace and a prompt go with --model PROVIDER:MODEL (without "
                             "it, the bundled session plays)")
        with tempfile.TemporaryDirectory(prefix="toolpipe-demo-") as root:
            for name, content in demo.FILES.items():
                path = os.path.join(root, name)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(content)
            return play(args, out, text, source, root, f"{root} (temporary)", demo.model(),
                        demo.PROMPT, extra=[demo.fetch_tool()])
    if args.prompt is None or not args.prompt.strip():
        raise UsageError("--model needs a prompt: toolpipe run --model … --workspace DIR "
                         "\"PROMPT\"")
    if args.workspace is None:
        raise UsageError("--model needs --workspace DIR: the folder the agent may work in")
    root = os.path.abspath(args.workspace)
    if not os.path.isdir(root):
        raise UsageError(f"--workspace {args.workspace}: not a folder")
    if args.interpreter == "simulated":
        raise UsageError("--model needs --interpreter asyncio or trio (it calls a real "
                         "service)")
    from toolpipe.models import model_from_spec

    try:
        if args.model.startswith("scripted:"):  # a model from a file of turns (tests)
            from toolpipe._cli_resume import scripted_model

            model: Any = scripted_model(args.model.partition(":")[2])
        else:
            model = model_from_spec(args.model, os.environ)
    except ConfigError as exc:
        raise UsageError(f"--model: {exc}") from None
    return play(args, out, text, source, root, root, model, args.prompt, extra=[])


def ask_on_terminal(prompt: str, tool: str) -> bool:
    """The ask resolver of ``toolpipe run`` on a terminal: a person answers y or n."""
    print(f"\n{prompt} [y/N] ", end="", file=sys.stderr, flush=True)
    try:
        answer = sys.stdin.readline()
    except (OSError, ValueError):
        return False
    return answer.strip().lower() in ("y", "yes")


def play(args: argparse.Namespace, out: TextIO, text: str, source: str, root: str,
         shown_root: str, model: Any, prompt: str, *, extra: list[Any],
         resume: Any = None) -> int:
    tools = tools_options(text, source=source)
    workspace = Workspace(root, sandbox=tools.sandbox, network=tools.network,
                          bash_timeout=tools.bash_timeout, env=tools.env)
    registry = ToolRegistry([*workspace.tools(), *extra])
    builder = load_pipeline(text, registry, source=source)
    if getattr(args, "pause", None) is not None:  # questions wait: the run stops on them
        from toolpipe.approvals import defer

        builder = builder.with_ask_resolver(defer)
    elif sys.stdin is not None and sys.stdin.isatty():  # a person answers the shield's asks
        builder = builder.with_ask_resolver(ask_on_terminal)
    agent = Agent(model, registry, tool_context=ToolContext(cwd=root),
                  max_turns=args.max_turns)
    agent.set_pipeline(observed(builder))
    names = agent.engine.middleware_names()
    report = Report(out, as_json=args.json, progress=sys.stderr)
    if not args.json:
        print(f"pipeline ({source}): {' → '.join(names)}", file=out)
        print(f"workspace: {shown_root}\nprompt: {prompt}\n", file=out)
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
        except TraceError as exc:  # another recorder holds the file
            raise UsageError(str(exc)) from None
    on_event: Callable[[Any], None] = report.on_event
    flush: Callable[[], None] | None = None
    if args.otel:
        from interpreters.otel import with_otel

        on_event, flush = with_otel(on_event)
    if workspace.sandbox != "none":  # said before anything runs, after
        # every refusal of bad input, so that a refusal stays one line
        from interpreters._processes import sandbox_status

        reason = sandbox_status()
        if reason is not None:
            verb = ("is required and cannot run" if workspace.sandbox == "required"
                    else "cannot run; Bash runs unsandboxed")
            print(f"toolpipe: warning: the OS sandbox {verb}: {reason}", file=sys.stderr)
    try:
        program = agent.run(prompt) if resume is None else agent.resume(*resume)
        run = run_on(args.interpreter, program, on_event, recorder)
    finally:
        if recorder is not None:
            recorder.close()
        if flush is not None:
            flush()
    report.finish(run, args.interpreter, names)
    if run.paused is not None and getattr(args, "pause", None) is not None:
        from toolpipe._cli_resume import save

        save(args, out, run.paused, root=root, text=text, source=source, prompt=prompt)
    if recorder is not None and recorder.failed is not None:
        print(f"toolpipe: warning: the trace {args.record} stopped after {recorder.seq} "
              f"effects: {recorder.failed}", file=sys.stderr)
    elif recorder is not None and not args.json:
        print(f"trace: {args.record} ({recorder.seq} effects); replay it with "
              f"`toolpipe replay {args.record}`", file=out)
    return 0


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    from interpreters.simulated import SimulatedInterpreter
    from toolpipe.session import differences, load_trace, replay, replay_registry

    lines = read_text(args.trace, "the trace").splitlines(keepends=True)
    trace = load_trace(lines, source=args.trace)
    for dropped in trace.dropped:  # a torn end: the intact prefix is replayed
        print(f"toolpipe: note: {dropped}", file=sys.stderr)
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
            "dropped": list(trace.dropped),
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
    run = sub.add_parser("run", help="play the bundled example session through a pipeline, "
                         "or run your own task with --model")
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
    run.add_argument("--model", metavar="PROVIDER:MODEL",
                     help="run your own task with a real model (openai:MODEL or "
                          "anthropic:MODEL; the key from OPENAI_API_KEY or ANTHROPIC_API_KEY)")
    run.add_argument("--workspace", metavar="DIR",
                     help="with --model: the folder the agent's tools work in")
    run.add_argument("prompt", nargs="?", metavar="PROMPT",
                     help="with --model: what to ask the agent")
    run.add_argument("--max-turns", type=int, default=20, help=argparse.SUPPRESS)
    run.add_argument("--otel", action="store_true", help="a span per tool call and metrics, "
                     "over OTLP where the OTEL_* environment variables say (extra [otel])")
    run.add_argument("--pause", metavar="STATE.json", help="with --model: a question for a "
                     "person stops the run, its state written here for `toolpipe resume`")
    add_resume(sub)
    rep = sub.add_parser("replay", help="replay a recorded trace on the simulated clock and "
                         "show what changed, call by call")
    rep.add_argument("trace", metavar="TRACE.jsonl")
    rep.add_argument("--pipeline", metavar="FILE.toml",
                     help="replay through this pipeline instead of the recorded one")
    rep.add_argument("--json", action="store_true", help="print one JSON document")
    add_mcp_proxy(sub)
    pipe = sub.add_parser("pipeline",
                          help="print the default pipeline file, or check FILE.toml")
    pipe.add_argument("file", nargs="?", metavar="FILE.toml")
    return top


def cmd_mcp_proxy(args: argparse.Namespace, out: TextIO) -> int:
    options = mcp_proxy_options(args)  # checked before anything starts
    import anyio

    from interpreters.mcp_proxy import ProxyOptions, serve

    return int(anyio.run(serve, ProxyOptions(**options)))


COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO], int]] = {
    "run": cmd_run, "replay": cmd_replay, "pipeline": cmd_pipeline,
    "mcp-proxy": cmd_mcp_proxy, "resume": cmd_resume,
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
