"""One strict cattrs converter setup, shared by pipeline files and traces: a value of the
wrong JSON type is an error, never coerced (``"no"`` is not ``True``, ``"Read"`` is not
``["R", "e", "a", "d"]``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import cattrs


def _strict(kind: type, check: Callable[[Any], bool], what: str) -> Callable[[Any, Any], Any]:
    def hook(value: Any, _: Any) -> Any:
        if not check(value):
            raise ValueError(f"expected {what}, got {value!r:.40}")
        return kind(value)

    return hook


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def strict_converter(*, forbid_extra_keys: bool = True) -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=forbid_extra_keys)
    conv.register_structure_hook(str, _strict(str, lambda v: isinstance(v, str), "a string"))
    conv.register_structure_hook(bool, _strict(bool, lambda v: isinstance(v, bool),
                                               "true or false"))
    conv.register_structure_hook(int, _strict(int, _is_int, "an integer"))
    conv.register_structure_hook(float, _strict(float, _is_number, "a finite number"))
    conv.register_structure_hook_func(lambda t: t == list[str], _strict(
        list, lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
        "a list of strings"))
    conv.register_structure_hook_func(lambda t: t == dict[str, str], _strict(
        dict, lambda v: isinstance(v, dict) and all(isinstance(x, str) for x in v.values()),
        "a table of strings"))
    return conv
