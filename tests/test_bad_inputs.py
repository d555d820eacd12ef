"""Every bad input gets one clear error, never a traceback: pipeline files and traces,
written by hand and mutated by hypothesis."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpipe import (
    ConfigError,
    MemoizingMiddleware,
    NoopVerifier,
    SafetyShieldMiddleware,
    ToolRegistry,
    VerifyMiddleware,
)
from toolpipe.config import DEFAULT_PIPELINE, PipelineFileError, load_pipeline
from toolpipe.errors import ToolpipeError
from toolpipe.session import TraceError, load_trace


def error_of(text: str) -> str:
    with pytest.raises(PipelineFileError) as caught:
        load_pipeline(text, ToolRegistry(), source="p.toml")
    return str(caught.value)


@pytest.mark.parametrize(("text", "message"), [
    ('[[layer]]\nname = "timeout"\ntimeout = ' + "9" * 5000 + "\n",
     "p.toml: not valid TOML: an integer with too many digits"),
    ('[[layer]]\nname = "timeout"\nx = ' + "[" * 2000 + "]" * 2000 + "\n",
     "p.toml: not valid TOML: nested too deeply"),
    ('layer = ["timeout"]\n', "p.toml: 'layer' must be [[layer]] tables, got 'timeout'"),
    ('[[layer]]\nname = ["timeout"]\n', "p.toml:2: layer 1: unknown layer name ['timeout']"),
    ('version = true\n[[layer]]\nname = "timeout"\n',
     "p.toml: version True is not supported (only 1)"),
    ('[[layer]]\nname = "unknown_tool"\nthreshold = -3\n',
     "p.toml:3: layer 1 (unknown_tool): option 'threshold': must be in [0, 1], got -3.0"),
    ('[[layer]]\nname = "safety_shield"\nbash_tools = [""]\n',
     "p.toml:3: layer 1 (safety_shield): option 'bash_tools': tool names must not be empty"),
    ('[[layer]]\nname = "output_limit"\nmax_chars = 99999999999999999999\n',
     "p.toml:3: layer 1 (output_limit): option 'max_chars': 99999999999999999999 is out of "
     "range"),
    ('[[layer]]\nname = "safety_shield"\nwarn_threshold = 1.5\n',
     "option 'warn_threshold': must be in [0, 1], got 1.5"),
])
def test_bad_pipeline_files(text, message):
    assert message in error_of(text)


HEADER = ('{"kind":"header","format":"toolpipe-trace","version":1,"interpreter":"asyncio",'
          '"pipeline":[],"pipeline_text":null,"tools":[]}\n')


@pytest.mark.parametrize(("line", "message"), [
    ("[" * 100_000 + "]" * 100_000 + "\n", "not a JSON record"),
    ('{"kind":"turn","turn":-5,"calls":[]}\n', "turn -5: turns count from 1"),
    ('{"kind":"effect","seq":0,"t":0,"effect":null,"answer":null}\n', "effects count from 1"),
    ('{"kind":"result","turn":1,"index":-1,"name":"x","result":{"tool_call_id":"c",'
     '"output":{"type":"TextContent","text":""}},"reached_pipeline":true}\n',
     "index -1: indices count from 0"),
])
def test_bad_trace_lines(line, message):
    with pytest.raises(TraceError, match="t:2: ") as caught:
        load_trace(io.StringIO(HEADER + line), source="t")
    assert message in str(caught.value)


def test_the_cli_refuses_a_file_that_never_ends(capsys):
    from toolpipe.cli import main

    assert main(["replay", "/dev/zero"]) == 2
    assert "not a regular file" in capsys.readouterr().err


MUTATIONS = st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(
    ["", "[", "]", "{", "}", '"', "=", "\n", "-1", "1e999", "true", "[[layer]]", "name",
     "\x00", "9" * 30, "é", "\\", "'''"])), min_size=1, max_size=6)


def mutate(text: str, edits: list[tuple[int, str]]) -> str:
    for position, insert in edits:
        i = position % (len(text) + 1)
        text = text[:i] + insert + text[i + 1:]
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(MUTATIONS)
def test_mutated_pipeline_files_fail_only_with_our_errors(edits):
    try:
        load_pipeline(mutate(DEFAULT_PIPELINE, edits), ToolRegistry(), source="p.toml")
    except ToolpipeError:
        pass


TRACE_LINES = [
    HEADER,
    '{"kind":"turn","turn":1,"calls":[{"id":"c1","name":"Read","input":{"path":"a"}}],'
    '"visible":null}\n',
    '{"kind":"effect","seq":1,"t":0.5,"effect":{"type":"Now"},"answer":1.5}\n',
    '{"kind":"result","turn":1,"index":0,"name":"Read","result":{"tool_call_id":"c1",'
    '"output":{"type":"TextContent","text":"hello"},"is_error":false,"duration":0.0},'
    '"reached_pipeline":true}\n',
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, len(TRACE_LINES) - 1), MUTATIONS)
def test_mutated_traces_fail_only_with_our_errors(which, edits):
    lines = list(TRACE_LINES)
    lines[which] = mutate(lines[which].rstrip("\n"), edits) + "\n"
    try:
        load_trace(io.StringIO("".join(lines)), source="t")
    except ToolpipeError:
        pass


def test_the_unmutated_inputs_load():
    load_pipeline(DEFAULT_PIPELINE, ToolRegistry())
    assert json.loads(TRACE_LINES[1])["turn"] == 1
    load_trace(io.StringIO("".join(TRACE_LINES)), source="t")


@pytest.mark.parametrize("make", [
    lambda: SafetyShieldMiddleware(watched_tools=["Bash", ""]),
    lambda: MemoizingMiddleware(["Read"], [" "]),
    lambda: VerifyMiddleware(NoopVerifier(), [""]),
])
def test_empty_tool_names_are_refused_in_code_too(make):
    with pytest.raises(ConfigError, match="empty tool name"):
        make()
