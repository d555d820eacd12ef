"""What the shield's law tests share: its decision on one command line, as the default
shield reads it in the workspace, and the decisions that stop a call."""

from __future__ import annotations

from toolpipe.layers.shield import UnixShield

STOPPED = ("block", "ask")


def decide(command: str) -> str:
    return UnixShield().evaluate("Bash", {"command": command}, ()).action


def placed(shape: str, stopped: str, passed: str, *, allowed: bool = False,
           field: str = "p") -> None:
    """The law of a place put into a command line: ``shape`` with ``stopped`` in its
    ``{field}`` is stopped, with ``passed`` it is not (``allowed``: allowed outright)."""
    line = shape.format(**{field: stopped})
    assert decide(line) in STOPPED, line
    line = shape.format(**{field: passed})
    assert decide(line) == "allow" if allowed else decide(line) not in STOPPED, line
