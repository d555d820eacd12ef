"""Traces that survive: one writer per file (a second gets a clear error, the first's trace
is untouched), a write that fails stops the recording with one warning while the session
goes on, and a torn trace replays its intact prefix from the command line."""

from __future__ import annotations

import asyncio
import errno
import io
import pathlib
import warnings
from typing import Any

import pytest

from interpreters.asyncio import AsyncioInterpreter
from interpreters.recording import TraceLocked, TraceRecorder, TraceWriteWarning
from toolpipe import Engine, Tool, ToolCall, ToolRegistry
from toolpipe.cli import main
from toolpipe.session import load_trace


def registry() -> ToolRegistry:
    return ToolRegistry([Tool.from_function("Echo", lambda input, context: input["text"],
                                            concurrency_safe=True)])


PIPELINE = '[[layer]]\nname = "output_limit"\nmax_chars = 1000\n'


def turn_on_asyncio(recorder: TraceRecorder, n: int = 6, turns: int = 1) -> list[str]:
    engine = Engine(registry())

    def session() -> Any:
        texts = []
        for turn in range(1, turns + 1):
            calls = [ToolCall(f"c{turn}-{i}", "Echo", {"text": f"hello {i}"})
                     for i in range(n)]
            results = yield from engine.dispatch_turn(calls, turn=turn)
            texts += [r.text for r in results]
        return texts

    async def main_() -> list[str]:
        return await AsyncioInterpreter(recorder=recorder).run(session())  # type: ignore[no-any-return]

    return asyncio.run(main_())


def test_a_second_writer_gets_a_clear_error_and_the_first_trace_is_intact(
        tmp_path: pathlib.Path) -> None:
    path = tmp_path / "session.jsonl"
    with TraceRecorder.open(str(path), interpreter="asyncio",
                            tools=registry().declarations()) as first:
        turn_on_asyncio(first, 2)
        before = path.read_text()
        with pytest.raises(TraceLocked, match=r"session.jsonl: another recorder is writing "
                                              r"this trace \(the file is locked\)"):
            TraceRecorder.open(str(path), interpreter="asyncio")
        assert path.read_text() == before  # nothing truncated by the refused writer
        turn_on_asyncio(first, 1)
    assert load_trace(path.read_text().splitlines(keepends=True)).results
    with TraceRecorder.open(str(path), interpreter="asyncio"):  # free again once closed
        pass


def test_the_command_line_refuses_a_locked_trace_in_one_line(
        tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "busy.jsonl"
    with TraceRecorder.open(str(path), interpreter="asyncio"):
        code = main(["run", "--interpreter", "asyncio", "--record", str(path)],
                    out=io.StringIO())
    err = capsys.readouterr().err
    assert code == 2 and "another recorder is writing this trace" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


class FullDisk(io.StringIO):
    """A sink that takes ``room`` lines, then fails as a full disk does."""

    name = "full.jsonl"

    def __init__(self, room: int) -> None:
        super().__init__()
        self.room = room

    def write(self, text: str) -> int:
        if self.room <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        self.room -= 1
        return super().write(text)


def test_a_full_disk_stops_the_recording_with_one_warning_and_the_session_goes_on() -> None:
    sink = FullDisk(room=4)
    recorder = TraceRecorder(sink, interpreter="asyncio")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        texts = turn_on_asyncio(recorder, 6)
        texts += turn_on_asyncio(recorder, 3)  # later calls: no new warning, no error
    assert texts == [f"hello {i}" for i in range(6)] + [f"hello {i}" for i in range(3)]
    stops = [w for w in caught if issubclass(w.category, TraceWriteWarning)]
    assert len(stops) == 1
    assert "full.jsonl: writing the trace failed after" in str(stops[0].message)
    assert "No space left on device" in str(stops[0].message)
    assert isinstance(recorder.failed, OSError) and len(sink.getvalue().splitlines()) == 4


def test_a_torn_trace_replays_from_the_command_line(
        tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "session.jsonl"
    with TraceRecorder.open(str(path), interpreter="asyncio", pipeline_text=PIPELINE,
                            tools=registry().declarations()) as recorder:
        turn_on_asyncio(recorder, 2, turns=3)
    text = path.read_text()
    path.write_text(text[: len(text) - 40])  # the recording died mid-line
    out = io.StringIO()
    capsys.readouterr()
    assert main(["replay", str(path)], out=out) == 0
    err = capsys.readouterr().err
    assert "toolpipe: note: " in err and "the last line is cut short" in err
    assert "0 changed" in out.getvalue()
