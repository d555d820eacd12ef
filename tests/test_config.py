"""Declarative pipeline files: every layer and option, strict types, and errors that name
the line, the layer and the option."""

import pytest

from interpreters.simulated import SimulatedInterpreter
from toolpipe import (
    CommandVerifier,
    DispatchContext,
    NoopVerifier,
    Tool,
    ToolRegistry,
)
from toolpipe.config import DEFAULT_PIPELINE, PipelineFileError, load_pipeline


def reg():
    return ToolRegistry([Tool.from_function(n, lambda i, c: "x" * 50)
                         for n in ("Read", "Write", "rm", "Bash")])


def load(text):
    return load_pipeline(text, reg(), source="p.toml")


def test_the_default_pipeline_loads_in_the_recommended_order():
    builder = load(DEFAULT_PIPELINE)
    assert [m.name for m in builder.layers] == [
        "permission", "output_limit", "redaction", "timeout", "unknown_tool",
        "safety_shield", "verify", "memoize"]


def test_options_reach_the_layers():
    builder = load("""
[[layer]]
name = "permission"
deny = ["rm"]
reason = "not today"
[[layer]]
name = "timeout"
timeout = 2.5
retry_on_timeout = true
max_retries = 3
[[layer]]
name = "output_limit"
max_chars = 20
[[layer]]
name = "unknown_tool"
threshold = 0.9
[[layer]]
name = "memoize"
cached_tools = ["Read"]
write_tools = ["Write"]
ttl_turns = 2
paths = "none"
[[layer]]
name = "verify"
command = "python -m py_compile {path}"
timeout = 9
[[layer]]
name = "redaction"
entropy = false
patterns = {ticket = "TICKET-[0-9]+"}
[[layer]]
name = "safety_shield"
block_threshold = 0.5
warn_threshold = 0.8
watched_tools = ["Bash"]
""")
    _perm, timeout, cap, unknown, memo, verify, redact, shield = builder.layers
    assert timeout.config.timeout == 2.5 and timeout.config.max_retries == 3
    assert timeout.config.retry_on_timeout is True
    assert cap.max_chars == 20 and unknown.threshold == 0.9
    assert memo.cached_tools == {"Read"} and memo.ttl == 2
    assert memo.path_extractor("Write", {"path": "a"}, None) == []  # no paths
    assert isinstance(verify.verifier, CommandVerifier) and verify.timeout == 9
    assert redact.patterns.kinds()[-1] == "ticket" and not redact.patterns.entropy
    # an inverted pair is swapped, as UnixShield documents
    assert (shield.shield.block_threshold, shield.shield.warn_threshold) == (0.8, 0.5)
    assert shield.watched == {"Bash"}
    p = builder.with_core(reg()).build()
    denied = SimulatedInterpreter().run(p.dispatch(DispatchContext("rm")))
    assert denied.text == "Permission not today for tool 'rm'"
    capped = SimulatedInterpreter().run(p.dispatch(DispatchContext("Read")))
    assert len(capped.text) == 20


def test_shield_departures_are_options():
    builder = load("""
[[layer]]
name = "safety_shield"
multi = "all"
spec_patterns = true
workspace_deletions = 0.0
max_commands = 50
""")
    (layer,) = builder.layers
    shield = layer.shield
    assert shield.multi == "all" and shield.max_commands == 50
    assert shield.evaluate("Bash", {"command": "rm -rf build"}, ()).score == 0.9
    with pytest.raises(PipelineFileError, match="option 'multi'"):
        load('[[layer]]\nname = "safety_shield"\nmulti = "some"\n')


def test_a_verify_layer_without_a_command_uses_the_noop_verifier():
    (verify,) = load('[[layer]]\nname = "verify"\n').layers
    assert isinstance(verify.verifier, NoopVerifier)


def test_ask_without_a_resolver_is_denied_headless():
    p = load('[[layer]]\nname = "permission"\nask = ["Bash"]\n').with_core(reg()).build()
    r = SimulatedInterpreter().run(p.dispatch(DispatchContext("Bash")))
    assert r.text == "Permission permission required: allow Bash? for tool 'Bash'"


@pytest.mark.parametrize(("text", "message"), [
    ('[[layer]]\nname = "memoise"\n',
     "p.toml:2: layer 1: unknown layer name 'memoise'; expected one of permission, timeout"),
    ('[[layer]]\nmax_chars = 3\n', "p.toml:1: layer 1: missing 'name'"),
    ('[[layer]]\nname = "timeout"\n\n[[layer]]\nname = "timeout"\ntimeout = -1\n',
     "p.toml:6: layer 2 (timeout): option 'timeout': must be > 0, got -1"),
    ('[[layer]]\nname = "timeout"\ntimeout = "30s"\n',
     "p.toml:3: layer 1 (timeout): option 'timeout'"),
    ('[[layer]]\nname = "timeout"\nretry_on_timeout = "yes"\n',
     "p.toml:3: layer 1 (timeout): option 'retry_on_timeout': expected true or false, "
     "got 'yes'"),
    ('[[layer]]\nname = "output_limit"\nmax_chars = true\n',
     "option 'max_chars': expected an integer, got True"),
    ('[[layer]]\nname = "output_limit"\nmax_chars = -3\n',
     "p.toml:3: layer 1 (output_limit): option 'max_chars': must be a non-negative int"),
    ('[[layer]]\nname = "memoize"\nttl = 3\n',
     "p.toml:3: layer 1 (memoize): option 'ttl': unknown option; the options are: "
     "cached_tools, write_tools, ttl_turns, ttl_seconds, paths"),
    ('[[layer]]\nname = "memoize"\ncached_tools = "Read"\n',
     "option 'cached_tools': expected a list of strings, got 'Read'"),
    ('[[layer]]\nname = "permission"\nmode = "deny_some"\n',
     "option 'mode': must be one of 'allow_all', 'deny_all', 'from_context', got 'deny_some'"),
    ('[[layer]]\nname = "unknown_tool"\nthreshold = nan\n',
     "option 'threshold': expected a finite number, got nan"),
    ('[[layer]]\nname = "redaction"\npatterns = {t = "["}\n',
     "p.toml:3: layer 1 (redaction): option 'patterns': regex for 't' is invalid"),
    ('[[layer]]\nname = "verify"\ncommand = "unterminated \'quote"\n',
     "option 'command': cannot split"),
    ('[[layer]\nname = "timeout"\n', "p.toml: not valid TOML"),
    ('version = 2\n[[layer]]\nname = "timeout"\n', "version 2 is not supported"),
    ('layers = []\n', "unknown top-level key(s) layers"),
    ('version = 1\n', "no [[layer]] tables"),
])
def test_errors_name_the_line_the_layer_and_the_option(text, message):
    with pytest.raises(PipelineFileError) as caught:
        load(text)
    assert message in str(caught.value)


def test_every_bad_option_of_a_layer_is_reported():
    with pytest.raises(PipelineFileError) as caught:
        load('[[layer]]\nname = "memoize"\nttl = 3\ncached_tools = "Read"\n')
    lines = str(caught.value).splitlines()
    assert len(lines) == 2 and lines[0].startswith("p.toml:4:") and "p.toml:3:" in lines[1]
