"""What the shield's law tests share: its decision on one command line, as the default
shield reads it in the workspace, and the decisions that stop a call."""

from __future__ import annotations

from toolpipe.layers.shield import UnixShield

STOPPED = ("block", "ask")


def decide(command: str) -> str:
    return UnixShield().evaluate("Bash", {"command": command}, ()).action
