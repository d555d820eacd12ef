"""Typed tools: the JSON schema comes from the function's signature (hints, defaults,
docstring descriptions) or from an attrs class; every input is checked before the call,
and a wrong type, a missing field or an unknown key is a soft error naming the field."""

from __future__ import annotations

from typing import Literal

import attrs
import pytest

from interpreters.simulated import SimulatedInterpreter
from toolpipe import DispatchContext, ToolPipeline, ToolRegistry
from toolpipe.failures import Invalid

CALLED: list[object] = []


@attrs.frozen
class Move:
    """Move a file."""

    source: str
    target: str
    overwrite: bool = False


def make() -> ToolRegistry:
    registry = ToolRegistry()

    @registry.tool("read")
    def read(path: str, limit: int = 100, mode: Literal["text", "bytes"] = "text",
             tags: list[str] | None = None) -> str:
        """Read a file.

        Args:
            path: the file to read, relative to the workspace
            limit: at most this many lines
        """
        CALLED.append((path, limit, mode, tags))
        return f"{path}:{limit}:{mode}"

    @registry.tool("move")
    def move(input: Move, context: object) -> str:
        CALLED.append(input)
        return f"{input.source}->{input.target}"

    @registry.tool("legacy")
    def legacy(input, context):
        return str(sorted(input))

    return registry


def run(registry: ToolRegistry, tool: str, input: dict) -> object:
    pipeline = ToolPipeline.new(registry)
    return SimulatedInterpreter().run(pipeline.dispatch(DispatchContext(tool, input)))


def test_the_schema_comes_from_the_signature():
    decl = make().get("read").declaration
    assert decl.description == "Read a file."
    assert decl.input_schema == {
        "type": "object", "additionalProperties": False, "required": ["path"],
        "properties": {
            "path": {"type": "string",
                     "description": "the file to read, relative to the workspace"},
            "limit": {"type": "integer", "default": 100,
                      "description": "at most this many lines"},
            "mode": {"enum": ["text", "bytes"], "default": "text"},
            "tags": {"anyOf": [{"type": "array", "items": {"type": "string"}},
                               {"type": "null"}], "default": None},
        }}


def test_an_attrs_class_is_the_input():
    decl = make().get("move").declaration
    assert decl.input_schema["required"] == ["source", "target"]
    assert decl.input_schema["properties"]["overwrite"] == {"type": "boolean", "default": False}
    CALLED.clear()
    result = run(make(), "move", {"source": "a", "target": "b"})
    assert result.text == "a->b" and CALLED and CALLED[0].overwrite is False


@pytest.mark.parametrize(("tool", "input", "problem"), [
    ("read", {"path": 5, "junk": True}, "input.path: expected a string, got 5"),
    ("read", {"path": "a", "junk": True}, "input: unknown field 'junk'"),
    ("read", {}, "input: missing field 'path'"),
    ("read", {"path": "a", "limit": "10"}, "input.limit: expected an integer, got '10'"),
    ("read", {"path": "a", "limit": True}, "input.limit: expected an integer, got True"),
    ("read", {"path": "a", "mode": "lines"}, "input.mode: expected one of 'text', 'bytes'"),
    ("read", {"path": "a", "tags": ["x", 1]}, "input.tags[1]: expected a string, got 1"),
    ("move", {"source": "a"}, "input: missing field 'target'"),
    ("move", {"source": "a", "target": "b", "overwrite": "yes"},
     "input.overwrite: expected true or false, got 'yes'"),
])
def test_a_bad_input_never_reaches_the_tool(tool, input, problem):
    CALLED.clear()
    result = run(make(), tool, input)
    assert result.is_error and isinstance(result.cause, Invalid)
    assert result.text.startswith(f"Invalid tool call: {problem}")
    assert CALLED == []


def test_good_inputs_and_defaults_arrive():
    CALLED.clear()
    assert run(make(), "read", {"path": "a"}).text == "a:100:text"
    assert run(make(), "read", {"path": "a", "limit": 3, "tags": ["x"]}).text == "a:3:text"
    assert CALLED[-1] == ("a", 3, "text", ["x"])


def test_an_untyped_tool_keeps_its_dict():
    assert run(make(), "legacy", {"b": 1, "a": 2}).text == "['a', 'b']"


def test_the_standard_tools_check_their_inputs(tmp_path):
    from toolpipe.tools import workspace_registry

    registry = workspace_registry(str(tmp_path))
    result = run(registry, "Read", {"path": 5})
    assert result.text == "Invalid tool call: input.path: expected a string, got 5"
    assert all(d.input_schema["properties"] for d in registry.declarations())
