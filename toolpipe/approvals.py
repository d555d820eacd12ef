"""Approvals that pause a run and resume it later, in this process or another.

A layer that asks a person (the shield's ask band, the permission layer's ``Ask``) calls
its ask resolver. A resolver that answers ``DEFER`` (``defer`` is one) says "not now": the
call ends with the cause ``AwaitingApproval`` and does not run, the other calls of the turn
finish, and the agent loop stops with ``stop_reason="awaiting_approval"`` and
``AgentRun.paused``: a ``Paused`` value, which ``to_json`` makes a JSON document (in a
file, a database, a trace) and ``Paused.from_json`` reads back.

``Agent.resume(paused, decisions)`` continues exactly where the run stopped: each pending
call by its id gets ``Approve()`` (it runs, and the layer that asked does not ask again),
``Reject(reason)`` (it does not run; the model reads that a person refused it, and why) or
``Edit(input)`` (it runs with that input, approved). The turn's other results are the ones
the run had; then the loop goes on with the model's next turn.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import attrs

from toolpipe._approval_marks import APPROVED as APPROVED
from toolpipe._approval_marks import DEFER as DEFER
from toolpipe._approval_marks import Deferred as Deferred
from toolpipe._approval_marks import defer as defer
from toolpipe.agent import Message, ToolCall
from toolpipe.result import DispatchResult

__all__ = ["APPROVED", "DEFER", "Approve", "Decision", "Deferred", "Edit", "Paused",
           "Pending", "Reject", "defer"]

@attrs.frozen
class Approve:
    """Run the call."""


@attrs.frozen
class Reject:
    """Do not run it; the model reads ``reason``."""

    reason: str = "a person refused it"


@attrs.frozen
class Edit:
    """Run it with this input instead."""

    input: Mapping[str, Any]


Decision = Approve | Reject | Edit


@attrs.frozen
class Pending:
    """A call that waits on a person: its id, tool, input and the question asked."""

    call_id: str
    tool: str
    input: Mapping[str, Any]
    prompt: str


@attrs.frozen
class Paused:
    """Where a run stopped on an approval: the conversation so far (ending with the
    model's turn that asked for the calls), the turn's number and calls, the results the
    calls that were not waiting already have (by index), and the pending calls."""

    messages: tuple[Message, ...]
    turn: int
    calls: tuple[ToolCall, ...]
    done: Mapping[int, DispatchResult]
    pending: tuple[Pending, ...]

    def to_json(self) -> str:
        from toolpipe.session._trace import CONVERTER

        data = CONVERTER.unstructure(self)
        data["done"] = [[index, CONVERTER.unstructure(result)]
                        for index, result in self.done.items()]
        return json.dumps({"toolpipe_paused": 1, **data}, ensure_ascii=False)

    @staticmethod
    def from_json(text: str) -> Paused:
        from toolpipe.session._trace import CONVERTER

        data = json.loads(text)
        if not isinstance(data, dict) or data.pop("toolpipe_paused", None) != 1:
            raise ValueError("not a paused toolpipe run")
        done = {int(index): CONVERTER.structure(result, DispatchResult)
                for index, result in data.pop("done")}
        paused: Paused = CONVERTER.structure({**data, "done": {}}, Paused)
        return attrs.evolve(paused, done=done)
