"""The driver's quick constructors make values equal in every way to the ordinary ones
(they skip Python-level constructors and checks whose work is already done)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from returns.result import Success

from interpreters._core import succeeded, success
from toolpipe.effects import CallOutcome
from toolpipe.result import TextContent, text_content

values = st.one_of(st.text(), st.integers(), st.none(), st.lists(st.text(), max_size=3))


@given(values)
def test_success_is_success(value):
    made = success(value)
    assert type(made) is Success and made == Success(value)
    assert made.unwrap() is value
    assert repr(made) == repr(Success(value))


@given(values, st.floats(min_value=0, max_value=1e6))
def test_succeeded_is_a_call_outcome(value, duration):
    made = succeeded(value, duration)
    assert type(made) is CallOutcome and made == CallOutcome(Success(value), duration)
    assert repr(made) == repr(CallOutcome(Success(value), duration))


@given(st.text())
def test_text_content_is_text_content(text):
    made = text_content(text)
    assert type(made) is TextContent and made == TextContent(text)
    assert made.as_text() == text and hash(made) == hash(TextContent(text))


def test_call_tool_is_call_tool():
    from toolpipe import CancelSignal, Tool, ToolContext
    from toolpipe.effects import CallTool, call_tool

    tool = Tool.from_function("t", lambda input, context: "x")
    for cancel in (None, CancelSignal()):
        made = call_tool(tool, {"a": 1}, ToolContext(), cancel)
        same = CallTool(tool, {"a": 1}, ToolContext(), cancel)
        assert type(made) is CallTool and made == same and repr(made) == repr(same)
