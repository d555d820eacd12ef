"""Replaying a recorded session, through the same pipeline or another one.

``load_trace`` reads and checks a whole trace before anything runs: a truncated or
corrupted line, a trace from a newer format, or a tool call to a tool that is not declared
is a ``TraceError`` naming the line, and nothing is applied. ``replay`` then re-issues the
recorded turns through a pipeline, on any interpreter (the simulated one, usually), with
tools that replay the recorded latencies and outputs:

- each run of a tool with a given input replays the next recorded run of that tool with
  that input (the last one again when the recording has no more), so retries replay the
  recorded attempts in order;
- a run that a deadline cut off replays as a run that never ends (its real latency is
  unknown, only that it was longer), so the replay's own deadlines decide;
- a run the recording never made (say memoize with a shorter TTL misses where the
  recording hit) gets the soft error ``no recorded run of Read {...}``.

The model is not asked again: its calls are replayed as recorded, whatever the results.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs
import cattrs

from toolpipe._json import canonical_json
from toolpipe.agent import DEFAULT_CALL_DEADLINE, Engine
from toolpipe.effects import Sleep
from toolpipe.errors import ToolError
from toolpipe.failures import verdict as failure_verdict
from toolpipe.pipeline import PipelineBuilder
from toolpipe.program import Program
from toolpipe.registry import Tool, ToolDeclaration, ToolRegistry
from toolpipe.result import DispatchResult
from toolpipe.session._trace import (
    FORMAT,
    VERSION,
    Abandoned,
    EffectRecord,
    Failed,
    Header,
    Record,
    ResultRecord,
    Returned,
    ReturnedOther,
    ToolRecord,
    TraceError,
    TurnRecord,
    loads_header,
    loads_record,
)


@attrs.frozen
class Trace:
    """A checked trace: its header and its records by kind, with their line numbers."""

    header: Header
    turns: tuple[TurnRecord, ...]
    tools: tuple[tuple[int, ToolRecord], ...]
    results: tuple[ResultRecord, ...]
    effects: int
    source: str = "trace"
    dropped: tuple[str, ...] = ()
    """What a torn end lost: the cut-short last line, a last turn without all its results."""


def load_trace(lines: Iterable[str], *, source: str = "trace") -> Trace:
    """Parse and check every line; raise ``TraceError`` naming the first bad one.

    A recording that stopped mid-write (a crash, a full disk) leaves a torn end: a last
    line cut short that does not parse, a last turn with some of its results. That end is
    dropped, said in ``Trace.dropped``, and the intact prefix is the trace; a bad line
    anywhere else is an error."""
    header: Header | None = None
    turns: list[TurnRecord] = []
    tools: list[tuple[int, ToolRecord]] = []
    results: list[ResultRecord] = []
    effects = 0
    number = 0
    dropped: list[str] = []
    torn: str | None = None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if torn is not None:  # the line cut short was not the last one: a corrupt trace
            raise TraceError(f"{torn}: not a JSON record (cut short)")
        if not line.endswith("\n"):
            where = f"{source}:{number}: the last line is cut short (a truncated trace?)"
            if header is not None and not _whole(line):
                torn = f"{source}:{number}"
                dropped.append(f"{source}:{number}: the last line is cut short "
                               f"({len(line):,} characters dropped); the intact prefix "
                               "is replayed")
                continue
        else:
            where = f"{source}:{number}"
        if len(line) > MAX_LINE:
            raise TraceError(f"{where}: a line of {len(line):,} characters; a record is at "
                             f"most {MAX_LINE:,}")
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TraceError(f"{where}: not a JSON record ({exc.msg})") from None
        except RecursionError:
            raise TraceError(f"{where}: not a JSON record (nested too deeply)") from None
        except ValueError as exc:
            raise TraceError(f"{where}: not a JSON record ({exc})") from None
        if not isinstance(data, dict):
            raise TraceError(f"{where}: a record must be a JSON object")
        if header is None:
            header = _header(data, where)
            continue
        try:
            record = loads_record(data)
        except (Exception, RecursionError) as exc:
            raise TraceError(f"{where}: not a valid {data.get('kind', '?')} record "
                             f"({_short(exc)})") from None
        problem = _out_of_range(record)
        if problem is not None:
            raise TraceError(f"{where}: not a valid {data.get('kind', '?')} record "
                             f"({problem})")
        if isinstance(record, TurnRecord):
            turns.append(record)
        elif isinstance(record, ToolRecord):
            tools.append((number, record))
        elif isinstance(record, ResultRecord):
            results.append(record)
        elif isinstance(record, EffectRecord):
            effects += 1
    if header is None:
        raise TraceError(f"{source}: empty: no trace header")
    if turns:  # a last turn the recording did not finish: its calls are not replayed
        last = turns[-1]
        have = sum(1 for r in results if r.turn == last.turn)
        if have < len(last.calls):
            turns.pop()
            results = [r for r in results if r.turn != last.turn]
            dropped.append(f"{source}: turn {last.turn} has {have} of its "
                           f"{len(last.calls)} results (the recording stopped during it); "
                           "it is not replayed")
    trace = Trace(header, tuple(turns), tuple(tools), tuple(results), effects, source,
                  tuple(dropped))
    declared = {d.name for d in header.tools}
    _check_tools(trace, declared, f"not among its declared tools "
                                  f"({', '.join(sorted(declared)) or 'none'})")
    return trace


MAX_LINE = 64 * 1024 * 1024  # characters of one trace line


def _whole(line: str) -> bool:
    """Whether a last line without its newline still holds a whole JSON record."""
    try:
        return isinstance(json.loads(line), dict)
    except (ValueError, RecursionError):
        return False


def _out_of_range(record: Record) -> str | None:
    """Values a record's types allow but a session cannot have."""
    if isinstance(record, TurnRecord | ResultRecord) and record.turn < 1:
        return f"turn {record.turn}: turns count from 1"
    if isinstance(record, ResultRecord) and record.index < 0:
        return f"index {record.index}: indices count from 0"
    if isinstance(record, ToolRecord) and (record.start < 0 or record.duration < 0):
        return "a tool run cannot start or last below 0 s"
    if isinstance(record, EffectRecord) and (record.seq < 1 or record.t < 0):
        return "effects count from 1, at times from 0 s"
    return None


def _check_tools(trace: Trace, names: set[str], missing: str) -> None:
    """Every tool the trace runs must be in ``names``; else the first line that runs
    another is named."""
    for line, record in trace.tools:
        if record.tool not in names:
            raise TraceError(f"{trace.source}:{line}: the trace runs tool {record.tool!r}, "
                             f"which is {missing}")


def _short(exc: BaseException) -> str:
    if isinstance(exc, cattrs.BaseValidationError):
        return "; ".join(cattrs.transform_error(exc))
    return f"{type(exc).__name__}: {exc}"


def _header(data: Mapping[str, Any], where: str) -> Header:
    if data.get("format") != FORMAT or data.get("kind") != "header":
        raise TraceError(f"{where}: not a toolpipe trace (no {FORMAT!r} header)")
    version = data.get("version")
    if isinstance(version, int) and version > VERSION:
        raise TraceError(
            f"{where}: the trace has format version {version}, newer than this toolpipe "
            f"reads ({VERSION}); upgrade toolpipe to replay it"
        )
    if version != VERSION:
        raise TraceError(f"{where}: unsupported trace format version {version!r}")
    try:
        return loads_header(data)
    except Exception as exc:
        raise TraceError(f"{where}: a malformed header ({_short(exc)})") from None


# --- replaying tools -------------------------------------------------------------------------


class _Replayed(Exception):
    """Re-raises a recorded panic with its message."""


def _other(type_name: str) -> Any:
    return type(type_name, (), {})()


class Recording:
    """The recorded runs of every (tool, input), handed out in order."""

    def __init__(self, tools: Iterable[ToolRecord]) -> None:
        self.runs: dict[tuple[str, str], list[ToolRecord]] = defaultdict(list)
        for record in tools:
            self.runs[(record.tool, canonical_json(record.input))].append(record)
        self.next: dict[tuple[str, str], int] = defaultdict(int)
        self.unmatched: list[tuple[str, Mapping[str, Any]]] = []

    def take(self, tool: str, input: Mapping[str, Any]) -> ToolRecord | None:
        key = (tool, canonical_json(input))
        runs = self.runs.get(key)
        if not runs:
            self.unmatched.append((tool, input))
            return None
        index = min(self.next[key], len(runs) - 1)
        self.next[key] += 1
        return runs[index]

    def tool(self, declaration: ToolDeclaration) -> Tool:
        name = declaration.name

        def replayed(input: Mapping[str, Any], context: Any) -> Program[Any]:
            record = self.take(name, input)
            if record is None:
                raise ToolError(f"no recorded run of {name} {canonical_json(input)}")
            outcome = record.outcome
            if isinstance(outcome, Abandoned):
                yield Sleep(math.inf)  # longer than the recording saw; deadlines decide
            yield Sleep(record.duration)
            if isinstance(outcome, Returned):
                return outcome.content
            if isinstance(outcome, ReturnedOther):
                return _other(outcome.type_name)
            assert isinstance(outcome, Failed)
            if outcome.how == "soft_error":
                raise ToolError(outcome.message)
            if outcome.how == "cancelled":
                yield Sleep(math.inf)
            raise _Replayed(outcome.message)

        return Tool(declaration, replayed)


def replay_registry(trace: Trace, declarations: Iterable[ToolDeclaration] | None = None,
                    ) -> tuple[ToolRegistry, Recording]:
    """Tools that replay the trace, declared as recorded (or as ``declarations`` say)."""
    decls = list(declarations) if declarations is not None else list(trace.header.tools)
    if declarations is not None:  # the recorded declarations were checked on loading
        _check_tools(trace, {d.name for d in decls}, "missing from the registry")
    recording = Recording(record for _, record in trace.tools)
    return ToolRegistry(recording.tool(d) for d in decls), recording


def replay(trace: Trace, builder: PipelineBuilder, registry: ToolRegistry, *,
           max_concurrency: int = 8, call_deadline: float | None = DEFAULT_CALL_DEADLINE,
           ) -> Program[list[list[DispatchResult]]]:
    """Re-issue the recorded turns, in order, through ``builder``'s layers."""
    engine = Engine(registry, max_concurrency=max_concurrency, call_deadline=call_deadline)
    engine.set_pipeline(builder)
    out: list[list[DispatchResult]] = []
    for turn in trace.turns:
        results = yield from engine.dispatch_turn(turn.calls, visible=turn.visible,
                                                  turn=turn.turn)
        out.append(results)
    return out


# --- the difference, call by call ------------------------------------------------------------


@attrs.frozen
class CallDiff:
    turn: int
    index: int
    call_id: str
    tool: str
    recorded: DispatchResult | None
    replayed: DispatchResult

    @property
    def same(self) -> bool:
        r = self.recorded
        return r is not None and (r.text, r.is_error) == (self.replayed.text,
                                                          self.replayed.is_error)


def differences(trace: Trace, replayed: Sequence[Sequence[DispatchResult]]) -> list[CallDiff]:
    recorded = {(r.turn, r.index): r.result for r in trace.results}
    out = []
    for turn, results in zip(trace.turns, replayed, strict=True):
        for index, result in enumerate(results):
            call = turn.calls[index]
            out.append(CallDiff(turn.turn, index, result.tool_call_id, call.name,
                                recorded.get((turn.turn, index)), result))
    return out


def verdict(result: DispatchResult) -> str:
    """A one-word verdict read from a result alone: its cause when it failed."""
    if result.is_error:
        return failure_verdict(result.cause)
    return "cache hit" if result.text.endswith("[cached]") else "ok"
