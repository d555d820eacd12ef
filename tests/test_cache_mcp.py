"""MCP tools through the proxy's pipeline (the default one, on asyncio) against in-process
servers whose state changes: a read-only tool in a closed world is cached until a tool
that is not read-only runs; a read-only tool in an open world (MCP's default) never is.
Sequences by class: every (reader, writer) pair of the servers below, and every reader
whose answer changes by itself."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest

from interpreters.asyncio import AsyncioInterpreter
from toolpipe import DispatchContext
from toolpipe.config import DEFAULT_PIPELINE, load_pipeline
from toolpipe.integrations.mcp import registry_from_tools
from toolpipe.layers.memoize import MARKER

CLOSED = {"readOnlyHint": True, "openWorldHint": False}
READERS = {  # closed-world readers of the state
    "get_count": CLOSED, "list_items": CLOSED, "read_graph": CLOSED, "git_status": CLOSED}
WRITERS = {  # tools that change the state, annotated as servers do
    "bump": {}, "create_entities": {"destructiveHint": False},
    "git_add": {"idempotentHint": True}, "delete_item": {"destructiveHint": True},
    "write_file": {"readOnlyHint": False, "openWorldHint": False},
    "remote_sync": {"openWorldHint": True}}
DRIFTING = {  # read-only, but the answer changes on its own
    "clock": {"readOnlyHint": True}, "random_id": {"readOnlyHint": True, "openWorldHint": True},
    "fetch_page": {"readOnlyHint": True, "openWorldHint": True}}


class Server:
    """A fake ``ClientSession``: every writer changes the state every reader shows; every
    drifting reader answers something new each time."""

    def __init__(self) -> None:
        self.state = 0
        self.ticks = 0

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        if name in WRITERS:
            self.state += 1
            text = "done"
        elif name in READERS:
            text = f"{name}: state {self.state}"
        else:
            self.ticks += 1
            text = f"{name}: tick {self.ticks}"
        return {"content": [{"type": "text", "text": text}], "isError": False}


def tools() -> list[dict[str, Any]]:
    return [{"name": n, "annotations": a, "inputSchema": {"type": "object"}}
            for n, a in {**READERS, **WRITERS, **DRIFTING}.items()]


def run(calls: list[str]) -> list[tuple[str, bool]]:
    server = Server()
    registry = registry_from_tools(server, tools())
    pipeline = load_pipeline(DEFAULT_PIPELINE, registry).with_core(registry).build()

    async def main() -> list[tuple[str, bool]]:
        interp = AsyncioInterpreter()
        out = []
        for turn, name in enumerate(calls, 1):  # the proxy: each call is a turn
            result = await interp.run(pipeline.dispatch(
                DispatchContext(name, {}, call_id=f"c{turn}", turn_number=turn)))
            out.append((result.text.removesuffix(MARKER), result.cached))
        return out

    return asyncio.run(main())


SEQUENCES = ([("write between", [r, w, r]) for r, w in itertools.product(READERS, WRITERS)]
             + [("drift", [d, d]) for d in DRIFTING]
             + [("two writes", [r, w, r, v, r])
                for r, (w, v) in itertools.product(READERS, [("bump", "git_add"),
                                                              ("delete_item", "remote_sync")])])


def test_enough():
    assert len(SEQUENCES) >= 30


@pytest.mark.parametrize(("klass", "calls"), SEQUENCES,
                         ids=[f"{k}:{'-'.join(c)}" for k, c in SEQUENCES])
def test_no_stale_answer_through_the_proxys_pipeline(klass, calls):
    answers = run(calls)
    server = Server()  # the truth: the same calls with no cache
    truth = [asyncio.run(server.call_tool(name, {}))["content"][0]["text"] for name in calls]
    reads = [i for i, name in enumerate(calls) if name not in WRITERS]  # (writes: verified)
    assert [answers[i][0] for i in reads] == [truth[i] for i in reads]


def test_a_closed_world_read_is_served_again_while_nothing_wrote():
    answers = run(["get_count", "get_count", "clock", "get_count"])
    assert [cached for _, cached in answers] == [False, True, False, True]
