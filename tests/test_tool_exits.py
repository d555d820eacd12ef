"""A tool that raises SystemExit or GeneratorExit gets a panic result for its own call; the
run goes on. KeyboardInterrupt still stops it."""

from __future__ import annotations

import pytest

from interpreters.simulated import SimulatedInterpreter
from toolpipe import DispatchContext, ToolPipeline
from toolpipe.failures import Panicked

from .helpers import INTERPRETERS, dispatch, registry


def exits(input, context):
    raise SystemExit(3)


def closes(input, context):
    raise GeneratorExit("closed")


def exits_in_a_program(input, context):
    if False:
        yield
    raise SystemExit("from a program")


@pytest.mark.parametrize("kind", INTERPRETERS)
@pytest.mark.parametrize(("tool", "text"), [
    (exits, "Tool 't' panicked: 3"), (closes, "Tool 't' panicked: closed"),
    (exits_in_a_program, "Tool 't' panicked: from a program")])
def test_a_tool_cannot_end_the_run(kind, tool, text):
    result = dispatch(kind, ToolPipeline.new(registry(t=tool)), DispatchContext("t"))
    assert result.is_error and result.text == text and isinstance(result.cause, Panicked)


def test_keyboard_interrupt_still_stops_the_run():
    def interrupts(input, context):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        SimulatedInterpreter().run(
            ToolPipeline.new(registry(t=interrupts)).dispatch(DispatchContext("t")))
