"""JSON validation and canonical serialisation.

Inputs are checked once, when a context is built, so a non-JSON value is reported with the
path to the culprit instead of failing somewhere deep inside a layer or a tool.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, TypeAlias

JSONValue: TypeAlias = Any
"""A JSON value: None, bool, int, float (finite), str, list of JSON, dict of str to JSON."""
JSONObject: TypeAlias = Mapping[str, Any]


class NotJSONError(TypeError, ValueError):
    """A value that cannot be represented in JSON; the message names where it is."""


def _check(value: object, where: str) -> object:
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is float:
        if not math.isfinite(value):  # type: ignore[arg-type]
            raise NotJSONError(f"{where}: {value!r} is not a JSON value (non-finite float)")
        return value
    if isinstance(value, Mapping):
        out: dict[str, object] = {}
        for key, item in value.items():
            if type(key) is not str:
                raise NotJSONError(f"{where}: object key {key!r} is not a string")
            out[key] = _check(item, f"{where}[{key!r}]")
        return out
    if isinstance(value, list | tuple):
        return [_check(item, f"{where}[{i}]") for i, item in enumerate(value)]
    raise NotJSONError(f"{where}: {type(value).__name__} {value!r:.60} is not a JSON value")


def check_json_object(value: object, name: str = "input") -> dict[str, Any]:
    """Return a fresh, validated copy of a JSON object; raise NotJSONError naming the culprit."""
    if type(value) is dict:  # the common case: a flat object, copied at C speed
        for key, item in value.items():
            if type(key) is not str or type(item) not in _PLAIN:
                break
        else:
            return dict(value)
    if not isinstance(value, Mapping):
        raise NotJSONError(
            f"{name}: expected a JSON object (a mapping), got {type(value).__name__}"
        )
    return _check(value, name)  # type: ignore[return-value]


_PLAIN = frozenset({str, int, bool, type(None)})
"""Types of a value that is JSON as it is (a float must also be finite)."""


def _canonical(value: object) -> object:
    if isinstance(value, float) and value.is_integer():
        return int(value)  # 1.0 and 1 are the same JSON number
    if isinstance(value, Mapping):
        return {k: _canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    return value


def canonical_json(value: object) -> str:
    """Serialise with object keys sorted and numbers normalised: equal JSON gives equal text."""
    return json.dumps(_canonical(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
