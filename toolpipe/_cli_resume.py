"""``toolpipe run --pause STATE.json`` and ``toolpipe resume STATE.json``: a run that stops
on a person's question, and goes on later with the answers (``toolpipe.approvals``).

The state file holds the paused run (``Paused.to_json``) and what rebuilds it: the model's
spec, the workspace, the pipeline's text, the interpreter and the prompt. ``resume`` takes
``--approve ID``, ``--reject ID[=REASON]`` and ``--edit ID=JSON`` for each pending call;
a run that stops on another question writes the state file again. A ``scripted:FILE``
model (a JSON list of turns: a text, or a list of ``{"id", "name", "input"}`` calls) lets
a test or a demo drive a run without a provider.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, TextIO


def add_resume(sub: Any) -> None:
    resume = sub.add_parser("resume", help="go on with a run `toolpipe run --pause` stopped "
                            "on a person's question")
    resume.add_argument("state", metavar="STATE.json")
    resume.add_argument("--approve", action="append", default=[], metavar="ID")
    resume.add_argument("--reject", action="append", default=[], metavar="ID[=REASON]")
    resume.add_argument("--edit", action="append", default=[], metavar="ID=JSON",
                        help="run the call with this input instead (a JSON object)")
    resume.add_argument("--json", action="store_true", help="print one JSON document")


def scripted_model(path: str, skip: int = 0) -> Any:
    """A ``ScriptedModel`` from a JSON file of turns, ``skip`` turns already played."""
    from toolpipe.agent import ScriptedModel, ToolCall
    from toolpipe.cli import UsageError, read_text

    try:
        turns = json.loads(read_text(path, "the model script"))
    except ValueError as exc:
        raise UsageError(f"{path}: not JSON ({exc})") from None
    if not isinstance(turns, list):
        raise UsageError(f"{path}: a JSON list of turns")
    script: list[Any] = []
    for n, turn in enumerate(turns, 1):
        if isinstance(turn, str):
            script.append(turn)
        elif isinstance(turn, list) and all(isinstance(c, dict) for c in turn):
            script.append([ToolCall(str(c.get("id", "")), str(c.get("name", "")),
                                    c.get("input") or {}) for c in turn])
        else:
            raise UsageError(f"{path}: turn {n}: a text or a list of calls")
    return ScriptedModel(script[skip:])


def save(args: argparse.Namespace, out: TextIO, paused: Any, *, root: str, text: str,
         source: str, prompt: str) -> None:
    """Write the state file and say what waits on whom."""
    from toolpipe.cli import UsageError

    state = {"toolpipe_state": 1, "model": args.model, "workspace": root, "pipeline": text,
             "source": source, "interpreter": args.interpreter, "prompt": prompt,
             "max_turns": args.max_turns, "paused": json.loads(paused.to_json())}
    try:
        with open(args.pause, "w", encoding="utf-8") as handle:
            json.dump(state, handle, ensure_ascii=False)
    except OSError as exc:
        raise UsageError(f"cannot write {args.pause}: {exc.strerror}") from None
    where = sys.stderr if args.json else out
    for pending in paused.pending:
        print(f"waiting: {pending.call_id} ({pending.tool}): {pending.prompt}", file=where)
    print(f"state: {args.pause}; go on with `toolpipe resume {args.pause} --approve ID` "
          "(or --reject ID=REASON, --edit ID=JSON)", file=where)


def cmd_resume(args: argparse.Namespace, out: TextIO) -> int:
    from toolpipe.approvals import Approve, Edit, Paused, Reject
    from toolpipe.cli import UsageError, play, read_text
    from toolpipe.models import model_from_spec

    not_state = UsageError(f"{args.state}: not a state file of `toolpipe run --pause`")
    try:
        state = json.loads(read_text(args.state, "the state file"))
        if not isinstance(state, dict) or state.get("toolpipe_state") != 1 or not all(
                isinstance(state.get(key), str) for key in (
                    "model", "workspace", "pipeline", "source", "interpreter", "prompt")):
            raise not_state
        paused = Paused.from_json(json.dumps(state["paused"]))
    except (ValueError, KeyError, TypeError):
        raise not_state from None
    decisions: dict[str, Any] = {key: Approve() for key in args.approve}
    for item in args.reject:
        key, _, reason = item.partition("=")
        decisions[key] = Reject(reason or "a person refused it")
    for item in args.edit:
        key, eq, given = item.partition("=")
        try:
            new_input = json.loads(given) if eq else None
        except ValueError:
            new_input = None
        if not isinstance(new_input, dict):
            raise UsageError(f"--edit {item!r}: give ID={{...}}, a JSON object")
        decisions[key] = Edit(new_input)
    waiting = {p.call_id for p in paused.pending}
    if set(decisions) != waiting:
        raise UsageError(f"decide each waiting call once: {', '.join(sorted(waiting))} "
                         f"(given: {', '.join(sorted(decisions)) or 'none'})")
    spec = str(state["model"])
    try:
        model = (scripted_model(spec.partition(":")[2], skip=paused.turn)
                 if spec.startswith("scripted:") else model_from_spec(spec, os.environ))
    except Exception as exc:  # a ConfigError: the key, the package
        raise UsageError(f"the model {spec}: {exc}") from None
    run_args = argparse.Namespace(
        interpreter=state["interpreter"], json=args.json, record=None, raw_trace=False,
        model=spec, max_turns=int(state.get("max_turns", 20)), otel=False, pause=args.state)
    root = str(state["workspace"])
    return play(run_args, out, str(state["pipeline"]), str(state["source"]), root, root,
                model, str(state["prompt"]), extra=[], resume=(paused, decisions))
