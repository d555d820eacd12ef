"""Tool input schemas: derived from a function's signature, and checked before each call.

``derive(fn)`` reads a typed function: keyword parameters with type hints (``path: str``,
``limit: int = 100``), their defaults, and their descriptions from the docstring (Google
style ``Args:`` or reST ``:param x:``); or a single parameter annotated with an attrs class,
whose fields are the input. ``check(schema, value)`` answers the first problem with an
input (``input.path: expected a string, got 5``, ``input: unknown field 'junk'``,
``input: missing field 'path'``), or None. It knows the JSON-schema subset toolpipe writes:
``type`` (one or a list), ``properties``, ``required``, ``additionalProperties``, ``items``,
``enum`` and ``anyOf``; other keywords are not checked.
"""

from __future__ import annotations

import copy
import inspect
import re
import types
import typing
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Union, get_args, get_origin

import attrs

SIMPLE = {str: "string", bool: "boolean", int: "integer", float: "number"}
_GOOGLE_ARG = re.compile(r"^\s{2,}(\w+)\s*(?:\([^)]*\))?:\s*(.+)$")
_REST_ARG = re.compile(r":param\s+(?:\w+\s+)?(\w+):\s*(.+)")


def schema_of(annotation: Any) -> dict[str, Any]:
    """The JSON schema of a type hint (``Any`` or an unknown type: no constraint)."""
    if annotation in SIMPLE:
        return {"type": SIMPLE[annotation]}
    if annotation is type(None):
        return {"type": "null"}
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Literal:
        return {"enum": list(args)}
    if origin in (Union, types.UnionType):
        return {"anyOf": [schema_of(a) for a in args]}
    if origin in (list, tuple, Sequence, typing.Sequence) or annotation in (list, tuple):
        item = args[0] if (args and args[-1] is not Ellipsis) or len(args) == 2 else Any
        return {"type": "array", **({"items": schema_of(item)} if item is not Any else {})}
    if origin in (dict, Mapping, typing.Mapping) or annotation is dict:
        value = args[1] if len(args) == 2 else Any
        return {"type": "object",
                **({"additionalProperties": schema_of(value)} if value is not Any else {})}
    if attrs.has(annotation):
        return _object({f.name: (f.type, f.default) for f in attrs.fields(annotation)},
                       {}, resolve=annotation)
    return {}


def _object(fields: Mapping[str, tuple[Any, Any]], described: Mapping[str, str], *,
            resolve: Any = None) -> dict[str, Any]:
    hints = typing.get_type_hints(resolve) if resolve is not None else {}
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, (annotation, default) in fields.items():
        prop = schema_of(hints.get(name, annotation))
        if name in described:
            prop["description"] = described[name]
        missing = default is inspect.Parameter.empty or default is attrs.NOTHING
        if missing:
            required.append(name)
        elif _jsonable(default):
            prop["default"] = default
        properties[name] = prop
    return {"type": "object", "properties": properties, "required": required,
            "additionalProperties": False}


def _jsonable(value: object) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def descriptions(fn: Callable[..., Any]) -> tuple[str, dict[str, str]]:
    """The docstring's summary (before any ``Args:``) and each parameter's description."""
    doc = inspect.getdoc(fn) or ""
    described: dict[str, str] = {}
    summary: list[str] = []
    in_args = False
    for line in doc.splitlines():
        if line.strip() in ("Args:", "Arguments:", "Parameters:"):
            in_args = True
            continue
        rest = _REST_ARG.match(line.strip())
        if rest:
            described[rest.group(1)] = rest.group(2).strip()
            continue
        if in_args:
            found = _GOOGLE_ARG.match("  " + line if not line.startswith(" ") else line)
            if found and line.startswith((" ", "\t")):
                described[found.group(1)] = found.group(2).strip()
                continue
            if line.strip() and not line.startswith((" ", "\t")):
                in_args = False
        if not in_args and not line.startswith(":"):
            summary.append(line)
    return "\n".join(summary).strip(), described


Style = Literal["signature", "attrs"]


Derived = tuple[dict[str, Any], Style, Any] | None

_DERIVED: weakref.WeakKeyDictionary[Any, Derived] = weakref.WeakKeyDictionary()


def derive(fn: Callable[..., Any]) -> Derived:
    """``(schema, style, attrs class or None)`` for a typed function, or None for the
    ``fn(input, context)`` style (the input stays a dict).

    Reading the hints costs ~0.2 ms (each string annotation is compiled), and registries
    are often rebuilt from the same functions: the answer is kept per function object
    (weakly) and each caller gets its own copy of the schema."""
    try:
        found = _DERIVED[fn]
    except (KeyError, TypeError):  # not seen yet; or not weakly referable (a bound method)
        found = _derive(fn)
        try:
            _DERIVED[fn] = found
        except TypeError:
            pass
    if found is None:
        return None
    schema, style, structured = found
    return copy.deepcopy(schema), style, structured


def _derive(fn: Callable[..., Any]) -> Derived:
    params = [p for p in inspect.signature(fn).parameters.values()
              if p.name != "context" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    try:
        hints = typing.get_type_hints(fn)
    except Exception:
        hints = {}
    if [p.name for p in params] == ["input"]:
        annotation = hints.get("input")
        if annotation is not None and attrs.has(annotation):
            return schema_of(annotation), "attrs", annotation
        return None
    first = hints.get(params[0].name) if len(params) == 1 else None
    if first is not None and isinstance(first, type) and attrs.has(first):
        return schema_of(first), "attrs", first
    if not params or not all(p.name in hints for p in params):
        return None
    _, described = descriptions(fn)
    schema = _object({p.name: (hints[p.name], p.default) for p in params}, described)
    return schema, "signature", None


# --- checking an input against a schema ------------------------------------------------------

_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "object": lambda v: isinstance(v, Mapping),
    "array": lambda v: isinstance(v, list | tuple),
    "null": lambda v: v is None,
}
_WHAT = {"string": "a string", "boolean": "true or false", "integer": "an integer",
         "number": "a number", "object": "an object", "array": "a list", "null": "null"}


def check(schema: Mapping[str, Any], value: Any, where: str = "input", depth: int = 0
          ) -> str | None:
    if depth > 32:
        return None
    kinds = schema.get("type")
    if kinds is not None:
        wanted = [kinds] if isinstance(kinds, str) else list(kinds)
        known = [k for k in wanted if k in _TYPES]
        if known and not any(_TYPES[k](value) for k in known):
            shown = " or ".join(_WHAT[k] for k in known)
            return f"{where}: expected {shown}, got {value!r:.40}"
    if "enum" in schema and value not in schema["enum"]:
        return f"{where}: expected one of {', '.join(map(repr, schema['enum']))}, got {value!r:.40}"
    if "anyOf" in schema:
        options = [s for s in schema["anyOf"] if isinstance(s, Mapping)]
        if options and all(check(s, value, where, depth + 1) is not None for s in options):
            return check(options[0], value, where, depth + 1)
    if isinstance(value, Mapping):
        properties = schema.get("properties") or {}
        for name in schema.get("required") or ():
            if name not in value:
                return f"{where}: missing field {name!r}"
        extra = schema.get("additionalProperties", True)
        for name, item in value.items():
            sub = properties.get(name)
            if sub is None:
                if extra is False:
                    return f"{where}: unknown field {name!r}"
                if isinstance(extra, Mapping):
                    sub = extra
            if isinstance(sub, Mapping):
                problem = check(sub, item, f"{where}.{name}", depth + 1)
                if problem is not None:
                    return problem
    if isinstance(value, list | tuple) and isinstance(schema.get("items"), Mapping):
        for i, item in enumerate(value):
            problem = check(schema["items"], item, f"{where}[{i}]", depth + 1)
            if problem is not None:
                return problem
    return None
