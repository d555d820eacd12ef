import math
import re

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolpipe import (
    Allow,
    Ask,
    CancelSignal,
    Deny,
    DispatchContext,
    DispatchResult,
    DisplayHint,
    ImageContent,
    Modify,
    MultipartContent,
    NotJSONError,
    PermissionCheck,
    TextContent,
    ToolContext,
    canonical_json,
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=12,
)


def test_context_is_frozen_and_rewritten_with_evolve():
    ctx = DispatchContext("Read", {"path": "a"}, call_id="c1", turn_number=3)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        ctx.tool_name = "Write"  # type: ignore[misc]
    moved = attrs.evolve(ctx, tool_name="Write")
    assert moved.tool_name == "Write" and ctx.tool_name == "Read"
    assert moved.cancel is ctx.cancel and moved.call_id == "c1" and moved.turn_number == 3


def test_context_defaults():
    ctx = DispatchContext("x")
    assert ctx.input == {} and ctx.call_id == "" and ctx.turn_number == 1
    assert isinstance(ctx.permission, Allow) and ctx.tool_context == ToolContext()


@pytest.mark.parametrize(
    ("value", "where"),
    [
        ({"a": float("nan")}, "input['a']"),
        ({"a": [1, {"b": object()}]}, "input['a'][1]['b']"),
        ({"a": {1: 2}}, "input['a']"),
        ({"a": b"bytes"}, "input['a']"),
        ({"a": math.inf}, "input['a']"),
    ],
)
def test_non_json_input_is_rejected_naming_the_culprit(value, where):
    with pytest.raises(NotJSONError) as info:
        DispatchContext("x", value)
    assert where in str(info.value)


def test_input_must_be_an_object():
    with pytest.raises(NotJSONError, match="expected a JSON object"):
        DispatchContext("x", [1, 2])  # type: ignore[arg-type]


def test_input_is_copied_so_the_caller_cannot_mutate_it():
    raw = {"a": [1]}
    ctx = DispatchContext("x", raw)
    raw["a"].append(2)
    assert ctx.input == {"a": [1]}


def test_bad_turn_number_rejected():
    with pytest.raises(ValueError, match="turn_number"):
        DispatchContext("x", turn_number=-1)


@pytest.mark.parametrize(("field", "value"), [
    ("tool_name", 1), ("call_id", None), ("cancel", "stop"), ("permission", "allow"),
    ("tool_context", {"cwd": "."}),
])
def test_a_field_of_the_wrong_type_is_named_when_made_and_when_evolved(field, value):
    with pytest.raises(TypeError, match=f"'{field}' must be"):
        DispatchContext(**{"tool_name": "x", field: value})
    with pytest.raises(TypeError, match=f"'{field}' must be"):
        attrs.evolve(DispatchContext("x"), **{field: value})


@pytest.mark.parametrize("turn", [-1, True, 1.0, "1"])
def test_a_turn_that_is_not_a_non_negative_int_is_refused(turn):
    with pytest.raises(ValueError, match="turn_number"):
        DispatchContext("x", turn_number=turn)


plain = st.none() | st.booleans() | st.integers() | st.text() | st.floats()


@given(st.dictionaries(st.text(max_size=5), plain, max_size=6))
def test_a_flat_input_is_checked_and_copied_as_every_input_is(raw):
    """A flat dict of plain values takes a quick path: the same answer (a fresh copy, or
    the same error naming the culprit) as the general check."""
    from toolpipe._json import _check, check_json_object

    try:
        expected = _check(raw, "input")
    except NotJSONError as error:
        with pytest.raises(NotJSONError, match=re.escape(str(error))):
            check_json_object(raw)
        return
    got = check_json_object(raw)
    assert got == expected and got is not raw and type(got) is dict


@given(json_values)
def test_canonical_json_ignores_key_order(value):
    assert canonical_json({"k": value, "z": 1}) == canonical_json({"z": 1, "k": value})


@given(st.dictionaries(st.text(max_size=4), st.integers(), max_size=6))
def test_canonical_json_equal_values_equal_text(d):
    reordered = dict(reversed(list(d.items())))
    floats = {k: float(v) for k, v in d.items() if abs(v) < 2**52}
    assert canonical_json(d) == canonical_json(reordered)
    assert canonical_json(floats) == canonical_json({k: d[k] for k in floats})


def test_permission_check_constructors():
    assert PermissionCheck.allow() == Allow()
    assert PermissionCheck.deny("no") == Deny("no")
    assert PermissionCheck.ask("ok?") == Ask("ok?")
    assert PermissionCheck.modify({"a": 1}) == Modify({"a": 1})
    assert PermissionCheck.Deny is Deny
    with pytest.raises(NotJSONError):
        PermissionCheck.modify({"a": object()})


def test_cancel_signal_fires_listeners_once():
    signal = CancelSignal()
    calls = []
    remove = signal.add_listener(lambda: calls.append(1))
    signal.add_listener(lambda: calls.append(2))
    remove()
    signal.cancel("stop")
    signal.cancel()
    assert calls == [2] and signal.cancelled and signal.reason == "stop"


def test_tool_content_text():
    multi = MultipartContent([TextContent("a"), ImageContent(b"\x89PNG"), TextContent("b")])
    assert multi.as_text() == "a\nb"
    assert TextContent("x").as_text() == "x"
    assert ImageContent(b"").as_text() == ""
    with pytest.raises(TypeError, match=r"parts\[0\]"):
        MultipartContent(["not a part"])  # type: ignore[list-item]


def test_result_struct_fields():
    r = DispatchResult("id", TextContent("out"), False, 1.5, "Read", DisplayHint("code", "py"))
    assert r.text == "out" and r.display_hint.language == "py"
    err = DispatchResult.error("id", "bad", "Read")
    assert err.is_error and err.duration == 0.0 and err.resolved_tool_name == "Read"
