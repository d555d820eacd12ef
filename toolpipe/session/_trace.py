"""The trace format: a session's effect log as JSON lines.

Line 1 is a ``Header`` (format, version, interpreter, the pipeline and the tool
declarations). Every later line is one record, tagged by ``kind``:

- ``effect``: every effect the interpreter answered, and its answer, in a generic JSON
  encoding (for reading and diffing; ``$type`` names an attrs class);
- ``turn``: the calls of a turn as the model issued them (from the engine's event);
- ``tool``: one run of a tool: its input, start, latency and outcome (``abandoned`` when a
  deadline or a cancellation cut it off);
- ``result``: the final, stamped result of one call of a turn.

The typed records are (un)structured with cattrs; they are what a replay needs. Everything
here is pure: the recorder in ``interpreters.recording`` writes the lines.
"""

from __future__ import annotations

import base64
import json
import math
from collections.abc import Callable, Mapping
from typing import Any, Literal, Optional

import attrs
import cattrs
from cattrs.strategies import configure_tagged_union
from returns.maybe import Nothing, Some
from returns.result import Failure, Success

from toolpipe._cattrs import strict_converter
from toolpipe.agent import ToolCall
from toolpipe.context import CancelSignal
from toolpipe.effects import Busy, CallCancelled, CallOutcome, Raised, SoftError, Unsupported
from toolpipe.errors import ToolpipeError
from toolpipe.failures import Cause
from toolpipe.registry import Tool, ToolDeclaration
from toolpipe.result import (
    DispatchResult,
    ImageContent,
    MultipartContent,
    Part,
    TextContent,
    ToolContent,
)

FORMAT = "toolpipe-trace"
VERSION = 1


class TraceError(ToolpipeError, ValueError):
    """A trace that cannot be used; the message names the line."""


# --- typed records ---------------------------------------------------------------------------


@attrs.frozen
class Header:
    format: str
    version: int
    interpreter: str
    pipeline: tuple[str, ...] = ()
    pipeline_text: str | None = None
    tools: tuple[ToolDeclaration, ...] = ()


@attrs.frozen
class Returned:
    """The tool returned this content."""

    content: ToolContent


@attrs.frozen
class ReturnedOther:
    """The tool returned a value of an unsupported type (the core reports it)."""

    type_name: str


@attrs.frozen
class Failed:
    """The tool raised (``raised``), raised ToolError (``soft_error``), or could not run."""

    how: Literal["raised", "soft_error", "unsupported", "cancelled", "busy"]
    message: str = ""
    type_name: str = ""


@attrs.frozen
class Abandoned:
    """A deadline or a cancellation cut the run off: its latency is unknown (longer)."""


Outcome = Returned | ReturnedOther | Failed | Abandoned


@attrs.frozen
class TurnRecord:
    turn: int
    calls: tuple[ToolCall, ...]
    visible: tuple[str, ...] | None = None
    kind: Literal["turn"] = "turn"


@attrs.frozen
class ToolRecord:
    tool: str
    input: Mapping[str, Any]
    start: float
    duration: float
    outcome: Outcome
    kind: Literal["tool"] = "tool"


@attrs.frozen
class ResultRecord:
    turn: int
    index: int
    name: str
    result: DispatchResult
    reached_pipeline: bool
    kind: Literal["result"] = "result"


@attrs.frozen
class EffectRecord:
    seq: int
    t: float
    effect: Any
    answer: Any
    kind: Literal["effect"] = "effect"


Record = TurnRecord | ToolRecord | ResultRecord | EffectRecord
RECORDS: dict[str, type[Any]] = {
    "turn": TurnRecord, "tool": ToolRecord, "result": ResultRecord, "effect": EffectRecord,
}


def _converter() -> cattrs.Converter:
    conv = strict_converter()
    conv.register_unstructure_hook(bytes, lambda b: base64.b64encode(b).decode("ascii"))
    conv.register_structure_hook(bytes, lambda v, _: base64.b64decode(v, validate=True))
    configure_tagged_union(Part, conv, tag_name="type",
                           tag_generator=lambda cl: cl.__name__)
    configure_tagged_union(ToolContent, conv, tag_name="type",
                           tag_generator=lambda cl: cl.__name__)
    configure_tagged_union(Outcome, conv, tag_name="type",
                           tag_generator=lambda cl: cl.__name__)
    configure_tagged_union(Cause, conv, tag_name="type",
                           tag_generator=lambda cl: cl.__name__)
    optional_cause = Optional[Cause]  # noqa: UP045 - the form attrs' hints resolve to
    conv.register_structure_hook_func(
        lambda t: t == optional_cause,
        lambda v, _: None if v is None else conv.structure(v, Cause))  # type: ignore[arg-type]
    conv.register_unstructure_hook_func(
        lambda t: t == optional_cause,
        lambda v: None if v is None else conv.unstructure(v, Cause))
    conv.register_structure_hook_func(
        lambda t: t == Mapping[str, Any], lambda v, _: _json_object(v))
    conv.register_structure_hook(Any, lambda v, _: v)
    return conv


def _json_object(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"expected a JSON object, got {type(value).__name__}")
    return value


CONVERTER = _converter()


Scrub = Callable[[object, str], str]  # (the key a string is under, or None; the string)


def dumps(record: Header | Record, scrub: Scrub | None = None) -> str:
    """One JSON line (without the newline). ``scrub`` rewrites every string value, told
    the key it sits under (the recorder's redaction of secrets), never the structure."""
    data = CONVERTER.unstructure(record)
    if isinstance(record, Header):
        data = {"kind": "header", **data}
    if scrub is not None:
        data = _scrubbed(data, scrub, None)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _scrubbed(value: Any, scrub: Scrub, key: object) -> Any:
    if isinstance(value, str):
        return scrub(key, value)
    if isinstance(value, dict):
        if value.get("type") == "ImageContent":
            return value  # the image's bytes, base64: data, not text
        return {k: _scrubbed(v, scrub, k) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_scrubbed(v, scrub, None) for v in value]
    return value


def loads_record(data: Mapping[str, Any]) -> Record:
    kind = data.get("kind")
    cls = RECORDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown record kind {kind!r}")
    return CONVERTER.structure(dict(data), cls)  # type: ignore[no-any-return]


def loads_header(data: Mapping[str, Any]) -> Header:
    fields = dict(data)
    if fields.pop("kind", None) != "header":
        raise ValueError("the first line is not a trace header")
    return CONVERTER.structure(fields, Header)


# --- outcomes of tool runs -------------------------------------------------------------------


def outcome_of(answer: object) -> tuple[Outcome, float] | None:
    """The outcome and latency of a ``CallTool`` answer (None: not a CallOutcome)."""
    if not isinstance(answer, CallOutcome):
        return None
    value = answer.value
    if isinstance(value, Success):
        content = value.unwrap()
        if isinstance(content, str):
            return Returned(TextContent(content)), answer.duration
        if isinstance(content, TextContent | ImageContent | MultipartContent):
            return Returned(content), answer.duration
        return ReturnedOther(type(content).__name__), answer.duration
    failure = value.failure()
    if isinstance(failure, Raised):
        return Failed("raised", failure.message, failure.type_name), answer.duration
    if isinstance(failure, SoftError):
        return Failed("soft_error", failure.message), answer.duration
    if isinstance(failure, Unsupported):
        return Failed("unsupported", failure.message), answer.duration
    if isinstance(failure, CallCancelled):
        return Failed("cancelled"), answer.duration
    if isinstance(failure, Busy):
        return Failed("busy", failure.message), answer.duration
    return None  # pragma: no cover - CallFailure is closed


# --- the generic encoding of the effect log --------------------------------------------------


def encode(value: Any, depth: int = 0) -> Any:
    """Any answer or effect as JSON: containers, results, maybes, bytes and attrs classes
    are kept structurally; what cannot be (functions, signals, tools) is named."""
    if depth > 40:
        return {"$repr": "…"}
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"$float": repr(value)}
    if isinstance(value, Success):
        return {"$ok": encode(value.unwrap(), depth + 1)}
    if isinstance(value, Failure):
        return {"$error": encode(value.failure(), depth + 1)}
    if value is Nothing:
        return {"$nothing": True}
    if isinstance(value, Some):
        return {"$some": encode(value.unwrap(), depth + 1)}
    if isinstance(value, bytes):
        return {"$bytes": base64.b64encode(value).decode("ascii")}
    if isinstance(value, Tool):
        return {"$tool": value.name}
    if isinstance(value, CancelSignal):
        return {"$signal": value.cancelled}
    if isinstance(value, BaseException):
        return {"$exception": type(value).__name__, "message": str(value)}
    if isinstance(value, Mapping):
        return {str(k): encode(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        items = sorted(value, key=repr) if isinstance(value, frozenset | set) else value
        return [encode(v, depth + 1) for v in items]
    if attrs.has(type(value)):
        out: dict[str, Any] = {"$type": type(value).__name__}
        for field in attrs.fields(type(value)):
            item = getattr(value, field.name)
            out[field.name] = (
                {"$callable": getattr(item, "__qualname__", repr(item)[:60])}
                if callable(item) and not attrs.has(type(item)) else encode(item, depth + 1)
            )
        return out
    if callable(value):
        return {"$callable": getattr(value, "__qualname__", repr(value)[:60])}
    return {"$repr": repr(value)[:200]}


def effect_record(seq: int, t: float, effect: Any, answer: Any) -> EffectRecord:
    return EffectRecord(seq, t, encode(effect), encode(answer))


__all__ = [
    "FORMAT",
    "VERSION",
    "Abandoned",
    "EffectRecord",
    "Failed",
    "Header",
    "Outcome",
    "Record",
    "ResultRecord",
    "Returned",
    "ReturnedOther",
    "ToolRecord",
    "TraceError",
    "TurnRecord",
    "dumps",
    "encode",
    "loads_header",
    "loads_record",
    "outcome_of",
]
